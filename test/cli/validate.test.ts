// `flowguard validate` as a user runs it: the command run in-process (test/kit/cli.ts), real files.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runFlowguard } from '../kit/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CODES = join(ROOT, 'test', 'fixtures', 'codes');
const work = mkdtempSync(join(tmpdir(), 'flowguard-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function flowguard(args: string[], cwd = ROOT) {
  return runFlowguard(args, { cwd: cwd });
}

describe('flowguard validate', () => {
  it('exits 0 on the bundled catalog and says every file can be loaded', async () => {
    const { code, stdout } = await flowguard(['validate', 'schemas/']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^8 files checked: 0 errors, 0 warnings, \d+ info \(all files can be loaded\)$/m);
  });

  // Issue 14 made VAL051 (a body parameter on GET) a warning, so the file with an error is now VAL032's.
  it('exits 1 and prints CODE severity file:line:col path: message for a file with an error', async () => {
    const { code, stdout } = await flowguard(['validate', join(CODES, 'VAL032', 'trigger.mjs')]);
    expect(code).toBe(1);
    expect(stdout).toContain(
      'VAL032 error test/fixtures/codes/VAL032/trigger.mjs:10:21 main.routes.updateThing.method: `method` must be one of GET, POST, PUT, DELETE',
    );
    expect(stdout).toMatch(/^1 file checked: 1 error, 0 warnings, 0 info \(1 route cannot be served\)$/m);
  });

  // An author who meets a code learns there where it is explained (flowguard explain); a clean run says nothing more.
  it('names `flowguard explain` with the first code it printed, and only when it printed one', async () => {
    const { stdout } = await flowguard(['validate', join(CODES, 'VAL032', 'trigger.mjs')]);
    expect(stdout).toMatch(
      /^`flowguard explain VAL032` \(or any code above\) says why the rule exists and how to fix it$/m,
    );
    const clean = join(work, 'clean', 'schemas');
    mkdirSync(clean, { recursive: true });
    expect((await flowguard(['init', join(work, 'clean'), '--namespace', 'clean'])).code).toBe(0);
    const { code, stdout: quiet } = await flowguard(['validate', clean]);
    expect(code).toBe(0);
    expect(quiet).not.toContain('flowguard explain');
  });

  it('says what the errors take out of service: a whole file, a route, or nothing (an authoring error), and exits 1 for each', async () => {
    const files = [
      join(CODES, 'SEC006', 'trigger.mjs'),
      join(CODES, 'VAL032', 'trigger.mjs'),
      join(CODES, 'TST001', 'trigger.mjs'),
    ];
    for (const file of files) expect((await flowguard(['validate', file])).code).toBe(1);
    const { stdout } = await flowguard(['validate', ...files]);
    expect(stdout).toMatch(
      /^3 files checked: 3 errors, 0 warnings, 0 info \(1 file cannot be loaded; 1 route cannot be served; 1 authoring error to fix, served anyway\)$/m,
    );
  });

  // flowguard installs only some of its default allowlist (docs/operators/serving.md); a schema
  // whose handlers need one it lacks would be rejected by serve, so validate says so first, with
  // the command that installs it. ethers, which flowguard ships, is the control.
  it('exits 1 for handlers that need an allowlisted library that is not installed, naming the command that installs it', async () => {
    const dir = join(work, 'missing-library');
    mkdirSync(join(dir, 'schemas'), { recursive: true });
    writeFileSync(join(dir, 'schemas', 'uses-ccxt.mjs'), readFileSync(join(CODES, 'SEC103', 'trigger.mjs'), 'utf8'));
    writeFileSync(
      join(dir, 'schemas', 'uses-ethers.mjs'),
      readFileSync(join(CODES, 'SEC103', 'trigger.mjs'), 'utf8')
        .replace("requiredLibraries: ['ccxt']", "requiredLibraries: ['ethers']")
        .replace("namespace: 'example'", "namespace: 'other'"),
    );
    const { code, stdout } = await flowguard(['validate'], dir);
    expect(code, stdout).toBe(1);
    expect(stdout).toMatch(
      /^SEC103 error schemas\/uses-ccxt\.mjs main\.requiredLibraries: required library ccxt allowlisted but not installed: serve rejects this file until it is$/m,
    );
    expect(stdout).toContain('install it into the project: npm install ccxt');
    expect(stdout).not.toContain('uses-ethers.mjs main.requiredLibraries');
    expect(stdout).toMatch(/^2 files checked: 1 error, 0 warnings, \d+ info \(1 file cannot be loaded\)$/m);

    const elsewhere = await flowguard(['validate', join(dir, 'schemas'), '--project', dir]);
    expect(elsewhere.stdout).toContain(`npm install --prefix ${dir} ccxt`);
  });

  it('exits 0 for a body parameter on GET and says where it is sent', async () => {
    const { code, stdout } = await flowguard(['validate', join(CODES, 'VAL051', 'trigger.mjs')]);
    expect(code).toBe(0);
    expect(stdout).toContain(
      'VAL051 warning test/fixtures/codes/VAL051/trigger.mjs:14:80 main.routes.searchThings.parameters[0].position.location: body parameter `query` on a GET route is sent in the query string',
    );
  });

  it('reports every file of a folder recursively, in one process, and prints JSON with --json', async () => {
    const { code, stdout } = await flowguard(['validate', '--json', join(CODES, 'SEC006'), join(CODES, 'VAL051')]);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as {
      summary: { files: number; error: number };
      files: Array<{ file: string; findings: Array<{ code: string; line: number }> }>;
    };
    expect(report.files.map((f) => f.file)).toEqual([
      'test/fixtures/codes/SEC006/near.mjs',
      'test/fixtures/codes/SEC006/trigger.mjs',
      'test/fixtures/codes/VAL051/near.mjs',
      'test/fixtures/codes/VAL051/trigger.mjs',
    ]);
    expect(report.files[1]?.findings.map((f) => f.code)).toContain('SEC006');
    expect(report.files[0]?.findings.filter((f) => f.code.startsWith('SEC'))).toEqual([]);
    expect(report.summary.files).toBe(4);
  });

  it('prints only errors with --quiet', async () => {
    const { stdout } = await flowguard(['validate', '--quiet', 'schemas/']);
    expect(stdout.trim().split('\n')).toHaveLength(1);
  });

  it('prints the version of package.json with --version and exits 0', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const { code, stdout } = await flowguard(['--version']);
    expect(code).toBe(0);
    expect(stdout).toBe(`${version}\n`);
  });

  it.each([
    ['an unknown flag', ['validate', '--bogus', 'schemas/'], /unknown option '--bogus'/],
    ['a missing path', ['validate', 'no-such-folder'], /no such file or folder: no-such-folder/],
    ['an unknown command', ['frobnicate'], /unknown command 'frobnicate'/],
  ])('exits 2 on %s', async (_name, args, message) => {
    const { code, stderr } = await flowguard(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('exits 2 with the file named when .flowmcp/config.json is malformed', async () => {
    const project = join(work, 'bad-config');
    mkdirSync(join(project, '.flowmcp'), { recursive: true });
    writeFileSync(join(project, '.flowmcp', 'config.json'), '{ "security": { "allowedLibraries": ["ethers/lib"] } }');
    const { code, stderr } = await flowguard(['validate', '--project', project, 'schemas/']);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /config\.json:1:\d+ security\.allowedLibraries\[0\]: must be an exact package name \(no subpath, version or \.\.\)/,
    );
  });

  it('extends the allowlist from .flowmcp/config.json', async () => {
    const project = join(work, 'extended');
    mkdirSync(join(project, '.flowmcp'), { recursive: true });
    writeFileSync(join(project, '.flowmcp', 'config.json'), '{ "security": { "allowedLibraries": ["left-pad"] } }');
    const trigger = join(CODES, 'SEC013', 'trigger.mjs');
    expect((await flowguard(['validate', trigger])).stdout).toMatch(/^SEC013 /m);
    // left-pad is allowed now but not installed: SEC103 says so, naming the fixture's folder SEC013.
    expect((await flowguard(['validate', '--project', project, trigger])).stdout).not.toMatch(/^SEC013 /m);
  });

  it('never runs handler code: a factory that would loop forever validates at once', async () => {
    const file = join(work, 'loops.mjs');
    writeFileSync(
      file,
      `export const main = {
  namespace: 'loops', name: 'Loops', description: 'A schema whose handlers never return.', version: '2.0.0',
  root: 'https://api.example.com',
  routes: { getX: { method: 'GET', path: '/x', description: 'x', parameters: [], tests: [{ _description: 'x' }] } }
}
export const handlers = ({ sharedLists, libraries }) => { while (true) {} }
`,
    );
    const { code, stdout } = await flowguard(['validate', file]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/1 file checked: 0 errors/);
  });
});
