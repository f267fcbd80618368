// The test tiers stay what CONTRIBUTING.md says: test/tiers.ts names existing files, each in one
// tier; no unit test reads the clock; every unit test below the top of test/ is named after the
// module it tests and imports it (test/<room>/<module>.test.ts tests src/<room>/<module>.ts). That a unit test starts no
// process and no server is checked as it runs (test/kit/unit-guard.ts and its test).

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../vitest.config.js';
import { namedModules, ROOT, testedModule, testFiles, unitFiles } from './kit/tiers.js';
import { DIST, INTEGRATION } from './tiers.js';

describe('test/tiers.ts', () => {
  it('names only test files that exist, each once and in one tier', () => {
    const listed = [...INTEGRATION, ...DIST];
    expect(listed.filter((path) => !existsSync(join(ROOT, path)) || !path.endsWith('.test.ts'))).toEqual([]);
    expect(listed.filter((path, index) => listed.indexOf(path) !== index)).toEqual([]);
  });

  it('is what vitest runs: the unit project takes every file not listed, with the guard as its setup', () => {
    const projects = (config.test?.projects ?? []) as Array<{
      test: { name: string; include: string[]; exclude?: string[]; setupFiles?: string[] };
    }>;
    const byName = Object.fromEntries(projects.map((project) => [project.test.name, project.test]));
    expect(Object.keys(byName).sort()).toEqual(['dist', 'integration', 'unit']);
    expect(byName.unit).toMatchObject({
      include: ['test/**/*.test.ts'],
      exclude: [...INTEGRATION, ...DIST],
      setupFiles: ['test/kit/unit-guard.ts'],
    });
    expect(byName.integration?.include).toEqual(INTEGRATION);
    expect(byName.dist?.include).toEqual(DIST);
  });

  it('leaves the unit tier most of the suite, and the top-level checks in it', () => {
    const unit = unitFiles();
    expect(unit.length + INTEGRATION.length + DIST.length).toBe(testFiles().length);
    expect(unit).toEqual(
      expect.arrayContaining(['test/architecture.test.ts', 'test/tiers.test.ts', 'test/kit/unit-guard.test.ts']),
    );
  });
});

describe('a unit test reads no clock', () => {
  // A bound on elapsed time fails on a loaded machine; speed is measured in bench/, against a baseline.
  it.each(unitFiles())('%s', (path) => {
    const text = readFileSync(join(ROOT, path), 'utf8');
    expect(text.match(/performance\.now\(|Date\.now\(|process\.hrtime/g) ?? []).toEqual([]);
  });
});

describe('a unit test names the module it tests', () => {
  it('reads the rule as written: room and module from the path, an aspect after a dot, a folder of tests for one module', () => {
    expect(namedModules('test/http/redact.test.ts')[0]).toBe('src/http/redact.ts');
    expect(namedModules('test/http/redact.forms.test.ts')[0]).toBe('src/http/redact.ts');
    expect(namedModules('test/schema/params/codes.test.ts')).toContain('src/schema/params.ts');
    expect(namedModules('test/scripts/generate.test.ts')).toContain('scripts/generate.ts');
    expect(namedModules('test/architecture.test.ts')).toEqual([]);
  });

  it('finds a misnamed or non-importing test', () => {
    expect(testedModule('test/http/no-such-module.test.ts')).toEqual({
      problem:
        'names no module (looked for src/http/no-such-module.ts, http/no-such-module.ts, test/http/no-such-module.ts)',
    });
    expect(testedModule('test/kit/unit-guard.test.ts')).toEqual({ module: 'test/kit/unit-guard.ts' });
  });

  it.each(unitFiles().filter((path) => namedModules(path).length > 0))('%s', (path) => {
    expect(testedModule(path)).toHaveProperty('module');
  });
});
