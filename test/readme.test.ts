// The README documents every finding code; this keeps its table in step with src/findings.ts.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CODES } from '../src/findings.js';

const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');

it('documents every code with its severity and meaning', () => {
  const rows = new Map([...readme.matchAll(/^\| ([A-Z]{3}\d{3}) \| (\w+) \| (.*) \|$/gm)].map((m) => [m[1], `${m[2]} | ${m[3]}`]));
  for (const [code, entry] of Object.entries(CODES)) {
    expect(rows.get(code), code).toBe(`${entry.severity} | ${entry.meaning.replace(/\|/g, '\\|')}`);
  }
  expect([...rows.keys()].filter((code) => code === undefined || !(code in CODES))).toEqual([]);
});

it('starts with the set-up, main-job and test commands', () => {
  const firstBlock = readme.split('```')[1] ?? '';
  expect(firstBlock).toContain('npm start');
  expect(firstBlock).toContain('npm test');
});
