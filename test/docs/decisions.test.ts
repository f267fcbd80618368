// The code and the docs cite design decisions as "decision R12".
// Each cited number must have its heading in docs/internals/decisions.md, so that a citation
// always leads somewhere inside the repository.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function files(dir: string, extensions: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path, extensions);
    return extensions.test(name) ? [path] : [];
  });
}

const decisions = readFileSync(join(ROOT, 'docs', 'internals', 'decisions.md'), 'utf8');
const headed = new Set([...decisions.matchAll(/^## (R\d+)\. \S/gm)].map((m) => m[1] as string));

it('has a heading for every decision cited in src/ and docs/', () => {
  const cited = new Map<string, string>();
  for (const file of [...files(join(ROOT, 'src'), /\.ts$/), ...files(join(ROOT, 'docs'), /\.md$/), join(ROOT, 'CONTRIBUTING.md')]) {
    for (const match of readFileSync(file, 'utf8').matchAll(/\bR(\d{1,3})\b/g)) cited.set(`R${match[1]}`, relative(ROOT, file));
  }
  expect(cited.size).toBeGreaterThan(8);
  expect([...cited].filter(([number]) => !headed.has(number)).map(([number, file]) => `${number} (cited in ${file})`)).toEqual([]);
});

it('cites no document that is not in the repository', () => {
  const pages = [...files(join(ROOT, 'docs'), /\.md$/), ...['README.md', 'CONTRIBUTING.md', 'SECURITY.md', 'CHANGELOG.md'].map((name) => join(ROOT, name))];
  const outside = pages.filter((page) => /RULINGS|SPEC-NOTES|DESIGN\.md/.test(readFileSync(page, 'utf8'))).map((page) => relative(ROOT, page));
  expect(outside).toEqual([]);
});
