// The project checker (src/project/checker.ts) that `validate` and the catalog both stand on:
// one config, one lists folder with its default, lists read on request or all of them, list
// files kept apart from schema files, and a file checked as the catalog loads it.

import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { ConfigError } from '../../src/config/project.js';
import { loadListRegistry } from '../../src/lists/registry.js';
import { listsFolderOf, ProjectChecker } from '../../src/project/checker.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CODES = join(ROOT, 'test', 'fixtures', 'codes');
const work = mkdtempSync(join(tmpdir(), 'flowguard-project-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The bundled etherscan schema (it reaches the evmChains list) with the bundled lists, and a broken list file beside them. */
function project(name: string): string {
  const dir = join(work, name);
  cpSync(join(ROOT, 'schemas', 'etherscan'), join(dir, 'schemas', 'etherscan'), { recursive: true });
  cpSync(join(ROOT, 'shared-lists'), join(dir, 'shared-lists'), { recursive: true });
  writeFileSync(join(dir, 'shared-lists', 'broken.mjs'), 'export const list = {');
  return dir;
}

describe('ProjectChecker', () => {
  it('takes `shared-lists` in the project folder unless a lists folder is given', () => {
    expect(listsFolderOf({})).toBe('shared-lists');
    expect(listsFolderOf({ project: '/srv/p' })).toBe(join('/srv/p', 'shared-lists'));
    expect(listsFolderOf({ project: '/srv/p', lists: '/srv/lists' })).toBe('/srv/lists');
    const dir = project('default-lists');
    expect(ProjectChecker.open({ project: dir }).listsFolder).toBe(join(dir, 'shared-lists'));
  });

  it('reads a list file only when a schema reaches its list, and every one when asked', () => {
    const dir = project('on-request');
    const checker = ProjectChecker.open({ project: dir });
    const lists = join(dir, 'shared-lists');
    expect(checker.lists.folderFiles).toHaveLength(4);
    expect(checker.listReports()).toEqual([]);
    const check = checker.checkFile(join(dir, 'schemas', 'etherscan', 'accounts.mjs'));
    expect(check.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(checker.listReports()).toEqual([{ file: join(lists, 'evm-chains.mjs'), findings: [] }]);

    checker.checkEveryList();
    const registry = loadListRegistry(lists);
    expect(checker.listReports().map((report) => report.file)).toEqual(registry.files);
    expect(checker.listReports().flatMap((report) => report.findings)).toEqual(registry.findings);
    expect(
      checker
        .listReports()
        .find((report) => report.file.endsWith('broken.mjs'))
        ?.findings.map((f) => f.code),
    ).toEqual(['SEC016']);
  });

  it('tells list files from schema files by the lists folder, wherever it sits', () => {
    const checker = ProjectChecker.open({ project: work, lists: join(work, 'schemas', '_lists') });
    expect(checker.isListFile(join(work, 'schemas', '_lists', 'colors.mjs'))).toBe(true);
    expect(checker.isListFile(join(work, 'schemas', 'colors.mjs'))).toBe(false);
    expect(checker.isListFile(join(work, 'schemas', '_lists'))).toBe(false);
  });

  it("checks with the config's allowlist and file size limit", () => {
    const dir = join(work, 'configured');
    mkdirSync(join(dir, '.flowmcp'), { recursive: true });
    writeFileSync(
      join(dir, '.flowmcp', 'config.json'),
      JSON.stringify({ security: { allowedLibraries: ['left-pad'] }, limits: { maxFileBytes: 1024 } }),
    );
    const checker = ProjectChecker.open({ project: dir });
    expect(checker.allowedLibraries.has('left-pad')).toBe(true);
    const codes = (file: string) => checker.checkFile(file).findings.map((f) => f.code);
    expect(codes(join(CODES, 'SEC013', 'trigger.mjs'))).not.toContain('SEC013');
    expect(codes(join(ROOT, 'schemas', 'etherscan', 'accounts.mjs'))).toEqual(['SEC020']);
  });

  it('refuses a malformed config before anything else is read', () => {
    const dir = join(work, 'bad-config');
    mkdirSync(join(dir, '.flowmcp'), { recursive: true });
    writeFileSync(join(dir, '.flowmcp', 'config.json'), '{ "limits": { "maxFileBytes": "big" } }');
    expect(() => ProjectChecker.open({ project: dir })).toThrow(ConfigError);
  });
});

describe('a catalog on the project checker', () => {
  it('returns the schema reports and the reports of the list files it read apart, with the folder it read them from', async () => {
    const dir = project('catalog');
    // A lists folder inside the schema folder: its files are lists, never schemas.
    cpSync(join(dir, 'shared-lists'), join(dir, 'schemas', '_lists'), { recursive: true });
    const catalog = await Catalog.load({
      schemas: join(dir, 'schemas'),
      lists: join(dir, 'schemas', '_lists'),
      project: dir,
      env: {},
    });
    try {
      expect(catalog.schemaReports.map((report) => report.file)).toEqual([
        join(dir, 'schemas', 'etherscan', 'accounts.mjs'),
      ]);
      expect(catalog.listReports).toEqual([{ file: join(dir, 'schemas', '_lists', 'evm-chains.mjs'), findings: [] }]);
      expect(catalog.listsFolder).toEqual({ path: join(dir, 'schemas', '_lists'), files: expect.any(Array) });
      expect(catalog.listsFolder.files).toHaveLength(4);
      expect(catalog.reports).toEqual([...catalog.schemaReports, ...catalog.listReports]);
    } finally {
      await catalog.close();
    }
  });

  it('keeps the libraries a file names when it is rejected for one that is not installed (SEC103)', async () => {
    const dir = join(work, 'missing-library');
    mkdirSync(join(dir, 'schemas'), { recursive: true });
    cpSync(join(CODES, 'SEC103', 'trigger.mjs'), join(dir, 'schemas', 'uses-ccxt.mjs'));
    const catalog = await Catalog.load({ schemas: join(dir, 'schemas'), project: dir, env: {} });
    try {
      const [report] = catalog.schemaReports;
      expect(report?.findings.map((f) => f.code)).toContain('SEC103');
      expect(report?.requiredLibraries).toEqual(['ccxt']);
      expect(report?.findings.find((f) => f.code === 'SEC103')?.hint).toBe(
        `install it into the project: npm install --prefix ${dir} ccxt`,
      );
      expect(catalog.schemas).toEqual([]);
    } finally {
      await catalog.close();
    }
  });
});
