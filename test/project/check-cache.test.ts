import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckCache } from '../../src/project/check-cache.js';
import { Catalog } from '../../src/runtime/catalog.js';
import { checkSchemaFile } from '../../src/project/check-file.js';
import { effectiveAllowlist } from '../../src/libraries/allowlist.js';
import { loadListRegistry } from '../../src/lists/registry.js';

const project = mkdtempSync(join(tmpdir(), 'flowguard-cache-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));
const ROOT = join(import.meta.dirname, '..', '..');
const SCHEMA = join(ROOT, 'schemas', 'etherscan', 'accounts.mjs');
const options = { allowedLibraries: effectiveAllowlist([]), lists: loadListRegistry(join(ROOT, 'shared-lists')) };

describe('CheckCache', () => {
  it('returns a stored check for the same text and inputs, also after a reload from disk', () => {
    const cache = CheckCache.open(project, { inputs: 1 });
    const fresh = checkSchemaFile(SCHEMA, options, cache);
    cache.save();
    const reopened = CheckCache.open(project, { inputs: 1 });
    let parsed = 0;
    const cached = checkSchemaFile(
      SCHEMA,
      {
        ...options,
        get allowedLibraries() {
          parsed += 1;
          return options.allowedLibraries;
        },
      },
      reopened,
    );
    expect(parsed).toBe(0);
    expect(cached).toEqual(JSON.parse(JSON.stringify(fresh)));
  });

  it('hands shared lists out frozen, as a fresh check does', () => {
    const cache = CheckCache.open(project, { inputs: 1 });
    const cached = checkSchemaFile(SCHEMA, options, cache);
    const entries = cached.schema?.resolvedLists.evmChains;
    expect(entries && entries.length).toBeGreaterThan(0);
    expect(Object.isFrozen(entries) && Object.isFrozen(entries?.[0])).toBe(true);
  });

  it('misses when the text or any other input changed', () => {
    const file = join(project, 'copy.mjs');
    writeFileSync(file, 'export const main = {}');
    const cache = CheckCache.open(project, { inputs: 1 });
    cache.store(file, 'export const main = {}', { file, findings: [], schema: null });
    expect(cache.lookup(file, 'export const main = {}')).toBeDefined();
    expect(cache.lookup(file, 'export const main = { }')).toBeUndefined();
    cache.save();
    expect(CheckCache.open(project, { inputs: 2 }).lookup(file, 'export const main = {}')).toBeUndefined();
  });

  it('starts empty from an unreadable cache file', () => {
    writeFileSync(join(project, '.flowmcp', 'cache', 'checks.json'), '{ not json');
    expect(CheckCache.open(project, { inputs: 1 }).lookup(SCHEMA, 'x')).toBeUndefined();
  });

  // An entry under the right key whose check is not one (edited by hand, or written by a build of
  // the same version whose checks had another shape): a miss, checked afresh and written over.
  it('checks afresh where an entry under the right key holds no check', () => {
    const file = join(project, 'damaged.mjs');
    const text = 'export const main = {}';
    writeFileSync(file, text);
    const cacheFile = join(project, '.flowmcp', 'cache', 'checks.json');
    const damaged = [
      null,
      'x',
      7,
      [],
      {},
      { file, findings: 'none', schema: null },
      { file, findings: [], schema: 'x' },
    ];
    for (const check of damaged) {
      const cache = CheckCache.open(project, { inputs: 1 });
      cache.store(file, text, { file, findings: [], schema: null });
      cache.save();
      const stored = JSON.parse(readFileSync(cacheFile, 'utf8'));
      stored.entries[file].check = check;
      writeFileSync(cacheFile, JSON.stringify(stored));
      const reopened = CheckCache.open(project, { inputs: 1 });
      expect(reopened.lookup(file, text), JSON.stringify(check)).toBeUndefined();
      const fresh = checkSchemaFile(file, options, reopened);
      expect(fresh.findings.length).toBeGreaterThan(0);
      expect(fresh.schema).toBeNull();
    }
  });

  it('is written by a catalog that loaded with it, at close at the latest', async () => {
    const served = mkdtempSync(join(tmpdir(), 'flowguard-cache-served-'));
    try {
      mkdirSync(join(served, 'schemas'));
      copyFileSync(SCHEMA, join(served, 'schemas', 'accounts.mjs'));
      const catalog = await Catalog.load({
        schemas: join(served, 'schemas'),
        lists: join(ROOT, 'shared-lists'),
        project: served,
        cache: true,
      });
      await catalog.close();
      expect(existsSync(join(served, '.flowmcp', 'cache', 'checks.json'))).toBe(true);
    } finally {
      rmSync(served, { recursive: true, force: true });
    }
  });
});
