// Where an allowlisted library is found: the project's node_modules first (where a maintainer
// installs what they allowlisted), then flowguard's own dependencies.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveLibrary } from '../../src/libraries/resolve.js';

const project = mkdtempSync(join(tmpdir(), 'flowguard-resolve-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));
const PACKAGE = join(project, 'node_modules', 'fakelib');
mkdirSync(PACKAGE, { recursive: true });
writeFileSync(join(project, 'package.json'), '{ "name": "project", "private": true }');
writeFileSync(join(PACKAGE, 'package.json'), '{ "name": "fakelib", "version": "1.0.0", "main": "index.js" }');
writeFileSync(join(PACKAGE, 'index.js'), 'module.exports = 42;');

describe('resolveLibrary', () => {
  it.each([
    ['an absolute project folder', project],
    ['a project folder relative to the working directory (the default --project .)', relative(process.cwd(), project)],
  ])('finds a library installed in %s', (_case, dir) => {
    const found = resolveLibrary('fakelib', dir);
    expect(found && fileURLToPath(found.url)).toBe(join(PACKAGE, 'index.js'));
    expect(found?.format).toBe('commonjs');
  });

  it("falls back to flowguard's own dependencies, and says null for a package nowhere installed", () => {
    expect(resolveLibrary('ethers', project)?.name).toBe('ethers');
    expect(resolveLibrary('no-such-package-anywhere', project)).toBeNull();
  });
});
