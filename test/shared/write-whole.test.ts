// writeWhole (src/shared/write-whole.ts): the key lock, groups.json, the check cache and a schema
// file's new output schema are written through it, whole or not at all, on real files.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeWhole } from '../../src/shared/write-whole.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'flowguard-write-whole-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writeWhole', () => {
  it('writes a new file, making its folder, and leaves nothing beside it', () => {
    const file = join(dir, 'a', 'b', 'groups.json');
    writeWhole(file, '{}\n');
    expect(readFileSync(file, 'utf8')).toBe('{}\n');
    expect(readdirSync(join(dir, 'a', 'b'))).toEqual(['groups.json']);
  });

  it('replaces a file with the new text and the mode asked for', () => {
    const file = join(dir, 'keys.lock.json');
    writeFileSync(file, 'old', { mode: 0o600 });
    writeWhole(file, 'new', 0o644);
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(statSync(file).mode & 0o777).toBe(0o644 & ~process.umask());
    expect(readdirSync(dir)).toEqual(['keys.lock.json']);
  });

  it('throws the file system error when the rename cannot happen, and leaves no temporary file', () => {
    // A folder with a file in it at the file's place: no rename replaces it.
    const file = join(dir, 'keys.lock.json');
    mkdirSync(file);
    writeFileSync(join(file, 'taken'), 'x');
    expect(() => writeWhole(file, 'new')).toThrow(expect.objectContaining({ code: 'EISDIR' }));
    expect(readdirSync(dir)).toEqual(['keys.lock.json']);
    expect(readdirSync(file)).toEqual(['taken']);
  });
});
