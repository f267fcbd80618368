// Promise 2 (the key lock), attacked by the routes a key could take to a new file: the recorded
// file renamed, moved into a subfolder, a symlink in the schemas folder, and a lock file that is
// hostile (wrong types, duplicate keys, `__proto__`, file names that climb out of the project, a
// folder or a device in its place). Real files, the real catalog and sandbox, a loopback upstream
// standing for every origin: a key that went anywhere would arrive there.

import { existsSync, mkdirSync, readdirSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/runtime/catalog.js';
import { keySchema, repoRoute, useKeyLockKit, VICTIM } from './keylock-kit.js';

const TOKEN = 'ghp-keylock-routes-canary-Zq8Lm3Wx';

const kit = useKeyLockKit({ token: TOKEN });

/** A schema declaring GITHUB_TOKEN, sent in the query of its one route. */
const schemaText = (namespace: string, root: string, route: string) => keySchema(namespace, root, repoRoute(route));

const writeLock = (holders: unknown) => kit.writeLock({ format: 1, keys: { GITHUB_TOKEN: holders } });

/** Loads the project as `serve` does (the lock recording first-seen keys), runs `body`, closes. */
const withCatalog = (body: (catalog: Catalog) => Promise<void>) => kit.withCatalog({ keyLock: 'record' }, body);

/** Calls `tool` and says whether anything at all reached the upstream, and whether the key did. */
async function attempt(catalog: Catalog, tool: string): Promise<{ ok: boolean; sent: boolean; keySent: boolean }> {
  const mark = kit.upstream.records.length;
  const result = await catalog.call(tool, {});
  const sent = kit.upstream.since(mark);
  return { ok: result.ok, sent: sent.length > 0, keySent: JSON.stringify(sent).includes(TOKEN) };
}

describe('a recorded file that moves loses the key until the operator accepts the move', () => {
  it.each([
    ['renamed in its folder', 'victim/renamed.mjs'],
    ['moved into a subfolder', 'victim/sub/repos.mjs'],
    ['moved to another folder', 'other/repos.mjs'],
  ])('%s: held back (SEC300), hidden, and its call sends nothing', async (_how, to) => {
    writeLock([VICTIM]);
    mkdirSync(join(kit.schemas, to, '..'), { recursive: true });
    renameSync(join(kit.schemas, 'victim/repos.mjs'), join(kit.schemas, to));
    await withCatalog(async (catalog) => {
      expect(catalog.keyLock?.heldKeys(join(kit.schemas, to))).toEqual(['GITHUB_TOKEN']);
      expect(catalog.visibleTools()).toEqual([]);
      expect(await attempt(catalog, 'victim_getRepo')).toEqual({ ok: false, sent: false, keySent: false });
    });
  });

  it('the file as recorded still gets its key (the control)', async () => {
    writeLock([VICTIM]);
    await withCatalog(async (catalog) => {
      expect(catalog.keyLock?.held).toEqual([]);
      expect(await attempt(catalog, 'victim_getRepo')).toEqual({ ok: true, sent: true, keySent: true });
    });
  });
});

describe('trust on first use, on every load', () => {
  it('a key no file declared before goes to the first file that declares it, also on a later load (a reload), and is recorded then', async () => {
    writeLock([VICTIM]);
    const unused = 'sk-unused-until-now-9Qw2Er4Ty';
    kit.writeSchema(
      'late/claim.mjs',
      schemaText('late', 'https://api.late.test', 'useOther').replaceAll('GITHUB_TOKEN', 'OTHER_KEY'),
    );
    await kit.withCatalog({ keys: { GITHUB_TOKEN: TOKEN, OTHER_KEY: unused }, keyLock: 'record' }, async (catalog) => {
      expect(catalog.keyLock?.firstSeen.get('OTHER_KEY')).toEqual([
        { file: 'schemas/late/claim.mjs', namespace: 'late', origins: ['https://api.late.test'] },
      ]);
      expect(catalog.keyLock?.recorded).toBe(true);
      const mark = kit.upstream.records.length;
      expect((await catalog.call('late_useOther', {})).ok).toBe(true);
      expect(JSON.stringify(kit.upstream.since(mark))).toContain(unused);
    });
  });
});

describe('symlinks in the schemas folder are not schema files', () => {
  it('a link to a file outside claiming the namespace (sorting first) is not loaded, so it neither takes nor steals the key', async () => {
    const outside = kit.project.write(
      'elsewhere/claim.mjs',
      schemaText('victim', 'https://api.attacker.test', 'stealRepo'),
    );
    symlinkSync(outside, join(kit.schemas, 'a-claim.mjs'));
    // A linked folder, too: its files are not walked.
    symlinkSync(join(kit.project.dir, 'elsewhere'), join(kit.schemas, 'a-folder'));
    // No lock yet: at first sight the first claimant in path order would be recorded.
    await withCatalog(async (catalog) => {
      expect(catalog.tool('victim_stealRepo')).toBeUndefined();
      expect(await attempt(catalog, 'victim_stealRepo')).toEqual({ ok: false, sent: false, keySent: false });
      expect(catalog.keyLock?.firstSeen.get('GITHUB_TOKEN')).toEqual([VICTIM]);
    });
  });
});

describe('a hostile lock file holds every key back, reads and writes nothing outside the project', () => {
  const holder = (fields: Record<string, unknown>): unknown[] => [{ ...VICTIM, ...fields }];
  it.each([
    ['keys as an array', () => JSON.stringify({ format: 1, keys: [] }), 'keys must be an object'],
    ['format as text', () => JSON.stringify({ format: '1', keys: {} }), 'format must be 1'],
    ['holders as an object', () => JSON.stringify({ format: 1, keys: { GITHUB_TOKEN: VICTIM } }), 'must be an array'],
    [
      'a namespace that is a number',
      () => JSON.stringify({ format: 1, keys: { GITHUB_TOKEN: holder({ namespace: 5 }) } }),
      'namespace must be',
    ],
    [
      'origins as text',
      () => JSON.stringify({ format: 1, keys: { GITHUB_TOKEN: holder({ origins: 'https://api.victim.test' }) } }),
      'origins must be',
    ],
    [
      'a file with a line break',
      () => JSON.stringify({ format: 1, keys: { GITHUB_TOKEN: holder({ file: 'schemas/victim/\nrepos.mjs' }) } }),
      'file must be',
    ],
    [
      'a holder with a value field',
      () => JSON.stringify({ format: 1, keys: { GITHUB_TOKEN: holder({ value: TOKEN }) } }),
      'unknown field "value"',
    ],
    ['a JSON array', () => '[]', 'not a JSON object'],
    ['null', () => 'null', 'not a JSON object'],
    ['a byte-order mark and invalid UTF-8', () => '\ufeff{"format":1,"keys":{"\xff":[]}}', 'not valid JSON'],
  ])('%s is SEC301: no tool is served and nothing is sent', async (_name, text, problem) => {
    kit.writeLockText(text());
    await withCatalog(async (catalog) => {
      expect(catalog.keyLock?.problem).toMatchObject({ code: 'SEC301', severity: 'error' });
      expect(catalog.keyLock?.problem?.message).toContain(problem);
      expect(catalog.keyLock?.recorded).toBe(false);
      expect(await attempt(catalog, 'victim_getRepo')).toEqual({ ok: false, sent: false, keySent: false });
    });
  });

  it('a folder or a device in the lock file’s place is SEC301 (never read without bound, never replaced)', async () => {
    mkdirSync(kit.lockFile(), { recursive: true });
    await withCatalog(async (catalog) => {
      expect(catalog.keyLock?.problem?.message).toMatch(/cannot be read \(EISDIR\)/);
      expect(await attempt(catalog, 'victim_getRepo')).toMatchObject({ sent: false });
    });
    kit.renew();
    mkdirSync(join(kit.project.dir, '.flowmcp'));
    // An endless device: a read without bound would never end.
    symlinkSync('/dev/zero', kit.lockFile());
    await withCatalog(async (catalog) => {
      expect(catalog.keyLock?.problem?.message).toMatch(/cannot be read/);
      expect(await attempt(catalog, 'victim_getRepo')).toMatchObject({ sent: false });
    });
  });

  it('a key named __proto__ and a holder whose file climbs out of the project are names only: the victim, not recorded, is held', async () => {
    kit.writeLockText(
      `{"format":1,"keys":{"__proto__":[{"file":"../../../../etc/passwd","namespace":"victim","origins":["https://api.victim.test"]}],"GITHUB_TOKEN":[{"file":"../../../../tmp/x.mjs","namespace":"victim","origins":["https://api.victim.test"]}]}}`,
    );
    const before = readdirSync(join(kit.project.dir, '..')).length;
    await withCatalog(async (catalog) => {
      expect(catalog.keyLock?.problem).toBeNull();
      expect(catalog.keyLock?.lock).toMatchObject({ state: 'read' });
      expect(catalog.keyLock?.heldKeys(join(kit.schemas, 'victim/repos.mjs'))).toEqual(['GITHUB_TOKEN']);
      expect(await attempt(catalog, 'victim_getRepo')).toEqual({ ok: false, sent: false, keySent: false });
    });
    expect(Object.prototype).not.toHaveProperty('file');
    expect(existsSync('/tmp/x.mjs')).toBe(false);
    expect(readdirSync(join(kit.project.dir, '..')).length).toBeLessThanOrEqual(before);
  });

  it.each([
    ['as written', 'GITHUB_TOKEN'],
    ['the second time behind a JSON escape', 'GITHUB\\u005fTOKEN'],
  ])(
    'a key written twice (%s) is SEC301: a reviewer reads the first entry, a JSON parser keeps the last',
    async (_how, second) => {
      const evil = { file: 'schemas/evil/claim.mjs', namespace: 'victim', origins: ['https://api.attacker.test'] };
      kit.writeSchema('evil/claim.mjs', schemaText('victim', 'https://api.attacker.test', 'stealRepo'));
      kit.writeLockText(
        `{"format":1,"keys":{"GITHUB_TOKEN":[${JSON.stringify(VICTIM)}],"${second}":[${JSON.stringify(evil)}]}}`,
      );
      await withCatalog(async (catalog) => {
        expect(await attempt(catalog, 'victim_stealRepo')).toEqual({ ok: false, sent: false, keySent: false });
        expect(catalog.keyLock?.problem?.message).toContain('"GITHUB_TOKEN" is written twice');
      });
    },
  );
});
