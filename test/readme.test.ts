// The README documents every finding code, command and flag; this keeps it in step with the code.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { Command } from 'commander';
import { createProgram } from '../src/cli/program.js';
import { CONFIG_SHAPE } from '../src/config/config-shape.js';
import { CODES } from '../src/report/findings.js';

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

it('documents every command and every flag of each', () => {
  const undocumented: string[] = [];
  const visit = (command: Command, prefix: string) => {
    for (const sub of command.commands) {
      const name = `${prefix} ${sub.name()}`;
      if (!readme.includes(`\`${name}`)) undocumented.push(name);
      for (const option of sub.options) {
        if (option.long && !readme.includes(`\`${option.long}`) && !readme.includes(`[${option.long}`)) undocumented.push(`${name} ${option.long}`);
      }
      visit(sub, name);
    }
  };
  const program = createProgram();
  visit(program, 'flowguard');
  for (const option of program.options) if (option.long && !readme.includes(`\`flowguard ${option.long}\``)) undocumented.push(`flowguard ${option.long}`);
  expect(undocumented).toEqual([]);
});

it('documents every key of .flowmcp/config.json in its table', () => {
  const keys = Object.entries(CONFIG_SHAPE.properties).flatMap(([section, shape]) =>
    'properties' in shape ? Object.keys(shape.properties).map((key) => `${section}.${key}`) : [section],
  );
  expect(keys.length).toBeGreaterThan(8);
  expect(keys.filter((key) => !new RegExp(`^\\| \`${key.replace('.', '\\.')}\` \\|`, 'm').test(readme))).toEqual([]);
});

it('names, for every promise of the security model, test files that exist', () => {
  const section = readme.split('\n## Security model\n')[1]?.split('\n## ')[0] ?? '';
  const promises = section.split(/\n(?=\d+\. \*\*)/).filter((part) => /^\d+\. \*\*/.test(part));
  expect(promises.length).toBeGreaterThanOrEqual(8);
  for (const promise of promises) {
    const files = [...promise.matchAll(/`(test\/[\w/.-]+\.test\.ts)`/g)].map((m) => m[1] as string);
    expect(files.length, promise.slice(0, 60)).toBeGreaterThan(0);
    for (const file of files) expect(existsSync(join(import.meta.dirname, '..', file)), file).toBe(true);
  }
});

it('names every kind of tool error a client can meet, output-mismatch among them', () => {
  const pipeline = readFileSync(join(import.meta.dirname, '..', 'src', 'call', 'outcome.ts'), 'utf8');
  const kinds = [...(/type ToolErrorKind = ([^;]+);/.exec(pipeline)?.[1] ?? '').matchAll(/'([a-z-]+)'/g)].map((m) => m[1] as string);
  expect(kinds.length).toBeGreaterThan(8);
  for (const kind of [...kinds, 'output-mismatch']) expect(readme, kind).toContain(`\`${kind}\``);
});
