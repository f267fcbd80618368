// A schema or list file is read only as the file it is: never through a symbolic link. A folder's
// listing already skips links; these attack the read itself, which a file swapped for a link after
// the listing (a --watch reload) would reach, with a link to a file holding a secret.

import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSourceFile } from '../../src/scan/source-file.js';
import { selectSchemaFiles } from '../../src/scan/files.js';

const SECRET = 'GITHUB_TOKEN=ghp_canary_0123456789';
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'flowguard-source-file-'));
  writeFileSync(join(dir, '.env'), `${SECRET}\n`);
  writeFileSync(join(dir, 'real.mjs'), 'export const main = {};\n');
  symlinkSync(join(dir, '.env'), join(dir, 'swapped.mjs'));
  symlinkSync(join(dir, 'real.mjs'), join(dir, 'named.mjs'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readSourceFile', () => {
  it('reads a regular file (the control)', () => {
    expect(readSourceFile(join(dir, 'real.mjs'), undefined, 'SEC020').text).toBe('export const main = {};\n');
  });

  it('refuses a symbolic link with VAL009, and nothing of what it points at is read', () => {
    const { text, sink } = readSourceFile(join(dir, 'swapped.mjs'), undefined, 'SEC020');
    expect(text).toBeUndefined();
    const [finding] = sink?.findings ?? [];
    expect(finding?.code).toBe('VAL009');
    expect(finding?.message).toMatch(/symbolic link/);
    expect(JSON.stringify(sink?.findings)).not.toContain('ghp_canary');
  });
});

describe('selectSchemaFiles', () => {
  it('lists no link in a folder, and reads a link the operator names as the file it points at', () => {
    expect(selectSchemaFiles([dir]).files).toEqual([join(dir, 'real.mjs')]);
    const named = selectSchemaFiles([join(dir, 'named.mjs')]).files;
    expect(named).toEqual([join(dir, 'real.mjs')]);
    expect(readSourceFile(named[0] as string, undefined, 'SEC020').text).toBe('export const main = {};\n');
  });
});
