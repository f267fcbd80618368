// migrateFile with a hostile 1.2.0 folder: the file is read as data, never run (its top-level
// code would write a canary file if it ran), and a symbolic link in the new
// file's place (dangling, or to a file outside) never carries the write out of the folder, with
// or without --force.

import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { besideLegacy, migrateFile } from '../../src/migrate/migrate-file.js';

const RELAY = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'migrate', 'relay.mjs'), 'utf8');

let root: string;
let legacyFile: string;
let outside: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'flowguard-migrate-file-'));
  legacyFile = join(root, 'relay.mjs');
  outside = join(root, 'outside.mjs');
  writeFileSync(legacyFile, RELAY);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('a hostile 1.2.0 file', () => {
  it('is read as data: its top-level code never runs', () => {
    const canary = join(root, 'ran.txt');
    const write = `globalThis.process.getBuiltinModule('node:fs').writeFileSync(${JSON.stringify(canary)}, 'ran')`;
    writeFileSync(legacyFile, `${write};\n${RELAY.replace('export', `${write};\nexport`)}`);
    const migrated = migrateFile(legacyFile, besideLegacy(legacyFile));
    expect(migrated.legacy).toBe(true);
    expect(migrated.written).toBe(true);
    expect(existsSync(canary)).toBe(false);
  });
});

describe('a symbolic link in the new file’s place', () => {
  for (const force of [false, true]) {
    it(`dangling, to a path outside: nothing is created there${force ? ' (--force)' : ''}`, () => {
      symlinkSync(outside, besideLegacy(legacyFile));
      const migrated = migrateFile(legacyFile, besideLegacy(legacyFile), { force });
      expect(migrated.written).toBe(false);
      expect(migrated.findings.map((finding) => finding.code)).toContain('MIG007');
      expect(existsSync(outside)).toBe(false);
    });

    it(`to a file outside: the file is unchanged${force ? ' (--force)' : ''}`, () => {
      writeFileSync(outside, 'the operator’s own file');
      symlinkSync(outside, besideLegacy(legacyFile));
      const migrated = migrateFile(legacyFile, besideLegacy(legacyFile), { force });
      expect(migrated.written).toBe(false);
      expect(readFileSync(outside, 'utf8')).toBe('the operator’s own file');
    });
  }

  it('a regular file there is still overwritten with --force, and kept without it', () => {
    writeFileSync(besideLegacy(legacyFile), 'old');
    expect(migrateFile(legacyFile, besideLegacy(legacyFile)).written).toBe(false);
    expect(readFileSync(besideLegacy(legacyFile), 'utf8')).toBe('old');
    expect(migrateFile(legacyFile, besideLegacy(legacyFile), { force: true }).written).toBe(true);
    expect(readFileSync(besideLegacy(legacyFile), 'utf8')).toContain('export const main');
  });
});
