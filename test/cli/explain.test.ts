// `flowguard explain` as an author runs it after `validate` printed a code: the command run
// in-process (test/kit/cli.ts). Its text is the code table's, its links name files of this
// installation that exist, and a code it does not know is refused with the nearest one.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CODES } from '../../src/report/codes.js';
import { CODE_SECTIONS } from '../../src/report/code-docs.js';
import { runFlowguard } from '../kit/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');

it('is a command of the tree, named with the documentation under the help', async () => {
  const help = await runFlowguard(['--help']);
  expect(help.stdout).toMatch(/^ {2}explain <codes\.\.\.> +say why a finding code exists/m);
  const docs = /^Documentation: (.+)$/m.exec(help.stdout)?.[1] ?? '';
  expect(docs).toBe(join(ROOT, 'docs', 'README.md'));
  expect(existsSync(docs)).toBe(true);
  expect(help.stdout).toContain("A finding's code explained: flowguard explain CODE");
});

it("prints a code's severity, meaning, why and fix from the code table, whatever its case", async () => {
  const { code, stdout } = await runFlowguard(['explain', 'val032']);
  expect(code).toBe(0);
  const doc = CODE_SECTIONS.flatMap((section) => Object.entries(section.codes)).find(
    ([name]) => name === 'VAL032',
  )?.[1];
  expect(stdout).toContain(`VAL032 (error): ${CODES.VAL032.meaning}`);
  expect(stdout).toContain(`  why: ${doc?.why}`);
  expect(stdout).toContain(`  fix: ${doc?.fix}`);
  expect(stdout).toContain(`  more: ${join(ROOT, 'docs', 'reference', 'findings.md')}`);
});

it('explains every code of the table, naming only files of this installation that exist', async () => {
  const codes = Object.keys(CODES);
  const { code, stdout } = await runFlowguard(['explain', ...codes]);
  expect(code).toBe(0);
  for (const name of codes) expect(stdout).toContain(`${name} (`);
  // No Markdown is left, and every path a link became opens.
  expect(stdout).not.toMatch(/\]\(/);
  const paths = [...stdout.matchAll(/(\/[^\s#)]+\.md)/g)].map((match) => match[1] as string);
  expect(paths.length).toBeGreaterThan(codes.length);
  expect(paths.filter((path) => !existsSync(path))).toEqual([]);
});

it('refuses a code it does not know, exit 2, offering the nearest one and the page of every code', async () => {
  const { code, stderr } = await runFlowguard(['explain', 'VAL03']);
  expect(code).toBe(2);
  expect(stderr).toContain(
    `ERR001 no finding code "VAL03"; did you mean 'VAL003'? every code: ${join(ROOT, 'docs', 'reference', 'findings.md')}`,
  );
  const nothingNear = await runFlowguard(['explain', 'nonsense']);
  expect(nothingNear.code).toBe(2);
  expect(nothingNear.stderr).not.toContain('did you mean');
});
