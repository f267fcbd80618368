// The reference pages generated from the code (scripts/generate-docs.ts) are checked in so that
// they can be read on GitHub; this regenerates each in memory and fails when the checked-in page
// differs, as the generated validators are checked (test/scripts/generate.test.ts).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configKeys, documentedCodes, GENERATED_PAGES } from '../../scripts/generate-docs.js';
import { CONFIG_DOCS } from '../../src/config/config-docs.js';
import { CODES, type Code } from '../../src/report/codes.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('generated reference pages', () => {
  it.each(GENERATED_PAGES.map((page) => [page.file, page] as const))('%s is generated from the current code (after a change: npm run generate)', (file, page) => {
    expect(readFileSync(join(ROOT, file), 'utf8')).toBe(page.source());
  });
});

it('gives every finding code a why and a fix, and describes no code that does not exist', () => {
  const documented = documentedCodes();
  expect((Object.keys(CODES) as Code[]).filter((code) => !documented.get(code)?.why || !documented.get(code)?.fix)).toEqual([]);
  expect([...documented.keys()].filter((code) => !(code in CODES))).toEqual([]);
});

it('says what every key of the config does, and nothing of keys it does not have', () => {
  const keys = configKeys().map(({ key }) => key);
  expect(keys.length).toBeGreaterThan(30);
  expect(keys.filter((key) => !CONFIG_DOCS[key]?.meaning)).toEqual([]);
  expect(Object.keys(CONFIG_DOCS).filter((key) => !keys.includes(key))).toEqual([]);
});

it('lists every command and every option of the command tree on the CLI page', () => {
  const page = readFileSync(join(ROOT, 'docs', 'reference', 'cli.md'), 'utf8');
  for (const flag of ['--dry-run', '--update-output', '--transport <stdio\\|http>', '--watch', '--tools <auto\\|search\\|all>']) expect(page).toContain(flag);
  for (const command of ['## `flowguard serve`', '## `flowguard group create <name>`', '## `flowguard keys accept [keys...]`', '## `flowguard import openapi <spec>`']) expect(page).toContain(command);
});

it('gives every ERR code a row on the hand-written errors page, with the exit code the code table says', () => {
  const page = readFileSync(join(ROOT, 'docs', 'reference', 'errors-and-exit-codes.md'), 'utf8');
  const rows = new Map([...page.matchAll(/^\| (ERR\d{3}) \| ([\d-]+) \|/gm)].map((row) => [row[1], row[2]]));
  const errors = Object.entries(CODES).filter(([code]) => code.startsWith('ERR'));
  expect(errors.length).toBeGreaterThan(10);
  // "-" marks a code that never ends a command (it is part of an answer); any other row gives the exit code.
  const exitOf = (entry: object) => String('exit' in entry ? entry.exit : 1);
  const wrong = errors.filter(([code, entry]) => !rows.has(code) || (rows.get(code) !== '-' && rows.get(code) !== exitOf(entry)));
  expect(wrong.map(([code]) => code)).toEqual([]);
});
