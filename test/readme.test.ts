// The README is the front door: short, with the two commands that set everything up first, and
// nothing in it a user cannot act on. The reference it used to hold lives in docs/ (checked by
// test/docs/); the security model's promises, kept in docs/security.md, are checked here.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

it('starts with the set-up, main-job and test commands', () => {
  const firstBlock = readme.split('```')[1] ?? '';
  expect(firstBlock).toContain('npm install && npm start');
  expect(firstBlock).toContain('npm install && npm test');
  const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
  expect(scripts.start).toMatch(/^node bin\/flowguard\.js serve\b/);
  expect(scripts.test).toBe('vitest run');
});

it('is at most 250 lines', () => {
  expect(readme.split('\n').length).toBeLessThanOrEqual(250);
});

// Source paths and internal names mean nothing to a user; a test folder appears only in a
// command the user runs. Issue numbers and the old rulings document are not the user's either.
it('names no source file, no test file outside a command, no issue and no ruling', () => {
  expect(readme.match(/\bsrc\/[\w/.-]*/g) ?? []).toEqual([]);
  const testPaths = readme.split('\n').filter((line) => /\btest\/[\w/.-]*/.test(line) && !/`npx vitest run test\/[\w/.-]*`/.test(line));
  expect(testPaths).toEqual([]);
  expect(readme).not.toMatch(/\bissue \d+|RULINGS|\bR\d{1,2}\b/);
});

it('reaches install, serve, writing a schema, granting a key and deploying from its documentation map', () => {
  const map = readme.split('\n## Documentation\n')[1]?.split('\n## ')[0] ?? '';
  const targets = [...map.matchAll(/\]\(([^)#]+)(#[^)]*)?\)/g)].map((m) => m[1] as string);
  for (const page of ['docs/authors/README.md', 'docs/operators/serving.md', 'docs/operators/access.md', 'docs/operators/deploying.md', 'docs/reference/cli.md', 'docs/reference/configuration.md', 'docs/reference/findings.md', 'docs/security.md', 'CHANGELOG.md']) {
    expect(targets, page).toContain(page);
  }
  expect(map).toContain('(#installing-flowguard-for-your-own-folder)');
});

it('names, for every promise of the security model, test files that exist', () => {
  const page = read('docs/security.md');
  const promises = page.split(/\n(?=\d+\. \*\*)/).filter((part) => /^\d+\. \*\*/.test(part));
  expect(promises.length).toBeGreaterThanOrEqual(8);
  for (const promise of promises) {
    const files = [...promise.matchAll(/`(test\/[\w/.-]+\.test\.ts)`/g)].map((m) => m[1] as string);
    expect(files.length, promise.slice(0, 60)).toBeGreaterThan(0);
    for (const file of files) expect(existsSync(join(ROOT, file)), file).toBe(true);
  }
});

it('names every kind of tool error a client can meet, output-mismatch among them', () => {
  const pipeline = read('src/catalog/call-pipeline.ts');
  const kinds = [...(/type ToolErrorKind = ([^;]+);/.exec(pipeline)?.[1] ?? '').matchAll(/'([a-z-]+)'/g)].map((m) => m[1] as string);
  expect(kinds.length).toBeGreaterThan(8);
  const pages = read('docs/reference/commands.md') + read('docs/operators/serving.md');
  for (const kind of [...kinds, 'output-mismatch']) expect(pages, kind).toContain(`\`${kind}\``);
});
