// A schema or list file swapped for a FIFO after its folder was listed (a `serve --watch` reload
// lists, then reads each file) must not wedge the server: opening a FIFO for reading waits for a
// writer, and a synchronous open would hold the whole process, every call and every client, for
// as long as none comes. The listing skips FIFOs; these attack the read itself, with a real FIFO,
// in a child process (the built reader), so that a reader that waits cannot hold the test run.
// Also a character device (/dev/zero, endless): no regular file is ever read as a schema.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readSourceFile } from '../../src/scan/source-file.js';

const ROOT = join(import.meta.dirname, '..', '..');
const READER = join(ROOT, 'dist', 'src', 'scan', 'source-file.js');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'flowguard-source-fifo-'));
  writeFileSync(join(dir, 'real.mjs'), 'export const main = {};\n');
  const made = spawnSync('mkfifo', [join(dir, 'swapped.mjs')], { encoding: 'utf8' });
  expect(made.status, made.stderr).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the built reader makes of `file` in a child process, or null when it has not answered in 10 s. */
function readInChild(file: string): { text?: string; codes?: string[]; messages?: string[] } | null {
  const script = `
    const { readSourceFile } = await import(${JSON.stringify(READER)});
    const { text, sink } = readSourceFile(${JSON.stringify(file)}, undefined, 'SEC020');
    process.stdout.write(JSON.stringify({ text, codes: sink?.findings.map((f) => f.code), messages: sink?.findings.map((f) => f.message) }));
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  return child.status === 0 ? JSON.parse(child.stdout) : null;
}

it('reads a regular file in the child (the control)', () => {
  expect(readInChild(join(dir, 'real.mjs'))).toEqual({ text: 'export const main = {};\n' });
  // The same as in this process: the child runs the reader this suite is about.
  expect(readSourceFile(join(dir, 'real.mjs'), undefined, 'SEC020').text).toBe('export const main = {};\n');
});

it.each([
  ['a FIFO no one writes to', () => join(dir, 'swapped.mjs')],
  ['a character device', () => '/dev/zero'],
])('refuses %s at once with VAL009, without waiting on it', (_what, file) => {
  const read = readInChild(file());
  expect(read, 'the reader waited on it: a reload would hold the server').not.toBeNull();
  expect(read).toEqual({ codes: ['VAL009'], messages: [expect.stringMatching(/no regular file/)] });
});
