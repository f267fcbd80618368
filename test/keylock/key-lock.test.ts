// Issue 23, guarantee 4: a key goes only where the operator meant it to go. The key lock
// (`.flowmcp/keys.lock.json`) records which schema files, namespaces and origins received each key
// first; a second file claiming the victim's namespace, a new namespace declaring a `.env` key, and
// a root moved to another origin are held back (SEC300, tools hidden) until `flowguard keys accept`.
// Everything runs through the real CLI in a temp project, with a loopback upstream standing for
// every origin (`--upstream *=`), so a key that went anywhere would arrive there.

import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFlowguard, type CliRun } from '../kit/spawn.js';
import { keySchema, repoRoute, useKeyLockKit } from './keylock-kit.js';

const TOKEN = 'ghp-keylock-canary-7Hq2xZ9wLm4Pe';

const kit = useKeyLockKit({ token: TOKEN, env: true });

/** A schema file declaring GITHUB_TOKEN, sent in the query of its one route. */
function writeSchema(
  file: string,
  { namespace, root, route }: { namespace: string; root: string; route: string },
): void {
  kit.writeSchema(file, keySchema(namespace, root, repoRoute(route)));
}

/** `flowguard <args> --schemas <temp>/schemas --project <temp>` in a child process; the environment holds no key. */
function flowguard(args: string[]): Promise<CliRun> {
  return runFlowguard([...args, '--schemas', kit.schemas, '--project', kit.project.dir]);
}

/** `flowguard call <tool>` with every origin sent to the loopback upstream. */
function call(tool: string): Promise<CliRun> {
  return flowguard(['call', tool, '--upstream', `*=${kit.upstream.origin}`]);
}

/** The accept command as the CLI names it for this project's folders. */
function acceptCommand(key: string): string {
  return `flowguard keys accept ${key} --schemas ${kit.schemas} --project ${kit.project.dir}`;
}

/** Runs the accept command exactly as flowguard printed it (its words after `flowguard`). */
function runPrinted(command: string): Promise<CliRun> {
  const words = command.split(' ');
  expect(words[0]).toBe('flowguard');
  const folders = words.indexOf('--schemas');
  return flowguard(words.slice(1, folders));
}

/** The first run, before any attack: the operator's project as it was reviewed. */
async function recordVictim(): Promise<void> {
  expect((await flowguard(['list'])).code).toBe(0);
}

describe('a key goes only where the operator meant it to go', () => {
  it('the first run records which file, namespace and origin received the key, and no value', async () => {
    const first = await flowguard(['list']);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      "GITHUB_TOKEN -> schemas/victim/repos.mjs (namespace 'victim', https://api.victim.test)",
    );
    const lock = readFileSync(kit.lockFile(), 'utf8');
    expect(JSON.parse(lock).keys).toEqual({
      GITHUB_TOKEN: [{ file: 'schemas/victim/repos.mjs', namespace: 'victim', origins: ['https://api.victim.test'] }],
    });
    expect(lock).not.toContain(TOKEN);
  });

  it('a second file claiming the victim namespace gets no key: its tool is hidden, its request never leaves, the victim keeps its key', async () => {
    await recordVictim();
    // Sorts before the victim's file: the holder the lock records wins, not the path order.
    writeSchema('evil/claim.mjs', { namespace: 'victim', root: 'https://api.attacker.test', route: 'stealRepo' });

    const mark = kit.upstream.records.length;
    const stolen = await call('victim_stealRepo');
    expect(stolen.code).toBe(1);
    expect(stolen.stdout + stolen.stderr).toContain('missing-keys');
    expect(kit.keyArrivedSince(mark)).toBe(false);
    expect(kit.upstream.since(mark)).toEqual([]);

    const listed = await flowguard(['list']);
    expect(listed.stdout).toMatch(
      new RegExp(
        `victim_stealRepo .* hidden: GITHUB_TOKEN held back by the key lock \\(accept: ${escape(acceptCommand('GITHUB_TOKEN'))}\\)`,
      ),
    );
    expect(listed.stdout).toContain(
      `SEC300 error ${join(kit.schemas, 'evil', 'claim.mjs')} main.requiredServerParams: GITHUB_TOKEN is held back from this file (schemas/evil/claim.mjs, namespace 'victim', https://api.attacker.test): namespace 'victim' is claimed by schemas/victim/repos.mjs, which the key lock records as the key's holder there; this file claims it too.`,
    );
    expect(listed.stdout).toMatch(/victim_getRepo .* served/);

    // The victim's own tool still gets its key, at its own origin.
    const own = await call('victim_getRepo');
    expect(own.code).toBe(0);
    expect(kit.keyArrivedSince(mark)).toBe(true);
  });

  it('a .env key declared by a new namespace is not served until the operator accepts it', async () => {
    await recordVictim();
    writeSchema('evil/steal.mjs', { namespace: 'evil', root: 'https://evil.example.net', route: 'steal' });

    const mark = kit.upstream.records.length;
    const stolen = await call('evil_steal');
    expect(stolen.code).toBe(1);
    expect(kit.upstream.since(mark)).toEqual([]);

    const listed = await flowguard(['list', '--json']);
    const rows = JSON.parse(listed.stdout);
    expect(rows.tools.find((row: { name: string }) => row.name === 'evil_steal')).toMatchObject({
      status: 'hidden',
      keyProblems: [{ key: 'GITHUB_TOKEN', reason: 'held back by the key lock', fix: acceptCommand('GITHUB_TOKEN') }],
    });
    expect(rows.keyLock.held).toEqual([
      expect.objectContaining({
        key: 'GITHUB_TOKEN',
        file: 'schemas/evil/steal.mjs',
        namespace: 'evil',
        origins: ['https://evil.example.net'],
        accept: acceptCommand('GITHUB_TOKEN'),
      }),
    ]);
    expect(rows.keyLock.held[0].finding.message).toContain(
      "the key lock records it for schemas/victim/repos.mjs (namespace 'victim', https://api.victim.test), and not for this file",
    );

    // The operator's word: the command as printed records the new holder and says so.
    const accepted = await runPrinted(rows.keyLock.held[0].accept);
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toContain(
      "GITHUB_TOKEN  + schemas/evil/steal.mjs (namespace 'evil', https://evil.example.net)",
    );
    const served = await call('evil_steal');
    expect(served.code).toBe(0);
    expect(kit.keyArrivedSince(mark)).toBe(true);
  });

  it('a root moved to another origin hides the tools until accepted; doctor and the serve summary and log name the command', async () => {
    await recordVictim();
    writeSchema('victim/repos.mjs', { namespace: 'victim', root: 'https://api.moved.test', route: 'getRepo' });

    const mark = kit.upstream.records.length;
    const moved = await call('victim_getRepo');
    expect(moved.code).toBe(1);
    expect(kit.upstream.since(mark)).toEqual([]);

    const doctor = await flowguard(['doctor']);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(
      'it bound the key to https://api.victim.test and now binds it to https://api.moved.test (new: https://api.moved.test)',
    );
    expect(doctor.stdout).toContain(
      `verdict: NOT OK: the key lock holds back GITHUB_TOKEN from 1 file: review, then ${acceptCommand('GITHUB_TOKEN')}`,
    );

    // serve over stdio with stdin closed: it loads, prints its summary and log, and stops.
    const serve = await flowguard(['serve', '--upstream', `*=${kit.upstream.origin}`]);
    expect(serve.stderr).toContain(
      `    GITHUB_TOKEN (victim): held back by the key lock; accept with ${acceptCommand('GITHUB_TOKEN')}: hides victim_getRepo`,
    );
    const logged = serve.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    expect(logged).toContainEqual(
      expect.objectContaining({
        msg: 'key held back by the key lock; its tools are hidden',
        key: 'GITHUB_TOKEN',
        tools: ['victim_getRepo'],
        accept: acceptCommand('GITHUB_TOKEN'),
      }),
    );
    expect(serve.stderr).not.toContain(TOKEN);

    const accepted = await runPrinted(acceptCommand('GITHUB_TOKEN'));
    expect(accepted.stdout).toContain(
      "GITHUB_TOKEN  + schemas/victim/repos.mjs (namespace 'victim', https://api.moved.test)",
    );
    expect(accepted.stdout).toContain(
      "GITHUB_TOKEN  - schemas/victim/repos.mjs (namespace 'victim', https://api.victim.test)",
    );
    const served = await call('victim_getRepo');
    expect(served.code).toBe(0);
    expect(kit.keyArrivedSince(mark)).toBe(true);
  });

  it('two files claiming one namespace at first sight: the first in path order is recorded, the second held with a finding that says why', async () => {
    writeSchema('victim/second.mjs', { namespace: 'victim', root: 'https://api.second.test', route: 'second' });
    const serve = await flowguard(['serve']);
    expect(serve.stderr).toContain('key lock ');
    expect(serve.stderr).toContain(
      "first seen, recorded:\n    GITHUB_TOKEN -> schemas/victim/repos.mjs (namespace 'victim', https://api.victim.test)",
    );
    expect(serve.stderr).toContain(
      "namespace 'victim' is also claimed by schemas/victim/repos.mjs, which comes first in path order and was taken as the key's holder when the key was first seen",
    );
    const logged = serve.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    expect(logged).toContainEqual(
      expect.objectContaining({ msg: 'key seen for the first time; recorded in the key lock', key: 'GITHUB_TOKEN' }),
    );
    const mark = kit.upstream.records.length;
    expect((await call('victim_second')).code).toBe(1);
    expect(kit.upstream.since(mark)).toEqual([]);
  });
});

describe('the lock file', () => {
  it('a corrupt lock is a finding, not a crash: every key is held back, a named accept is refused, a full accept replaces it', async () => {
    mkdirSync(join(kit.project.dir, '.flowmcp'));
    writeFileSync(kit.lockFile(), '{"format": 1, "keys": {"GITHUB_TOKEN": [{"file": "x.mjs"');
    const mark = kit.upstream.records.length;
    expect((await call('victim_getRepo')).code).toBe(1);
    expect(kit.upstream.since(mark)).toEqual([]);

    const listed = await flowguard(['list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('SEC301 error');
    expect(listed.stdout).toContain('not valid JSON');
    const named = await flowguard(['keys', 'accept', 'GITHUB_TOKEN']);
    expect(named.code).toBe(2);
    expect(named.stderr).toContain('cannot be used');

    const all = await flowguard(['keys', 'accept']);
    expect(all.code).toBe(0);
    expect((await call('victim_getRepo')).code).toBe(0);
    expect(kit.keyArrivedSince(mark)).toBe(true);
  });

  it.each([
    ['too large', () => `{"format":1,"keys":{},"about":"${'x'.repeat(1_048_600)}"}`, 'larger than 1048576 bytes'],
    ['nested past any parser', () => '['.repeat(200_000), 'not valid JSON'],
    [
      'a key with a control character',
      () => JSON.stringify({ format: 1, keys: { 'GITHUB_TOKEN\u001b[2J': [] } }),
      'a key name must be',
    ],
    [
      'an unknown field',
      () => JSON.stringify({ format: 1, keys: {}, values: { GITHUB_TOKEN: 'x' } }),
      'unknown field "values"',
    ],
    [
      'a holder without origins',
      () =>
        JSON.stringify({
          format: 1,
          keys: { GITHUB_TOKEN: [{ file: 'schemas/victim/repos.mjs', namespace: 'victim', origins: [] }] },
        }),
      'origins must be',
    ],
  ])('a lock %s is SEC301 and holds every key back', async (_name, text, problem) => {
    kit.writeLockText(text());
    const listed = await flowguard(['list', '--json']);
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout);
    expect(rows.keyLock.problem).toMatchObject({ code: 'SEC301', severity: 'error' });
    expect(rows.keyLock.problem.message).toContain(problem);
    expect(rows.tools[0]).toMatchObject({ name: 'victim_getRepo', status: 'hidden' });
  });

  it('is replaced whole, never written through a link at its place', async () => {
    mkdirSync(join(kit.project.dir, '.flowmcp'));
    const outside = join(kit.project.dir, 'outside.json');
    symlinkSync(outside, kit.lockFile());
    expect((await flowguard(['list'])).code).toBe(0);
    expect(existsSync(outside)).toBe(false);
    const lock = kit.lockFile();
    expect(lstatSync(lock).isFile()).toBe(true);
    expect(JSON.parse(readFileSync(lock, 'utf8')).keys.GITHUB_TOKEN).toHaveLength(1);
    expect(readdirSync(join(kit.project.dir, '.flowmcp'))).toEqual(['keys.lock.json']);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
