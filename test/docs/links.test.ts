// Every relative link of the README, the top-level Markdown files and docs/ points at a file that
// exists in the repository and, where it names an #anchor, at a heading of that file (GitHub's anchors: the heading
// lowercased, punctuation dropped, spaces as hyphens, repeats numbered). A page moved or a heading
// renamed without its links fails here.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, markdownLinks } from './markdown.js';

const ROOT = join(import.meta.dirname, '..', '..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

// Pages other changes of this release write (the errors reference, the architecture): a link to
// one passes while it is missing; once it exists it is checked like any other.
const WRITTEN_ELSEWHERE = new Set(['docs/reference/errors-and-exit-codes.md', 'docs/internals/architecture.md']);

const pages = [...['README.md', 'CHANGELOG.md', 'CONTRIBUTING.md', 'SECURITY.md'].map((name) => join(ROOT, name)), ...markdownFiles(join(ROOT, 'docs'))];

it('checks the README, the docs and every top-level page', () => {
  expect(pages.length).toBeGreaterThan(25);
  for (const page of pages) expect(existsSync(page), page).toBe(true);
});

describe.each(pages.map((page) => [relative(ROOT, page), page] as const))('%s', (_, page) => {
  it('links only to files and headings that exist', () => {
    const text = readFileSync(page, 'utf8');
    const broken: string[] = [];
    for (const { target, line } of markdownLinks(text)) {
      if (/^[a-z]+:/i.test(target)) continue;
      const [path = '', anchor] = target.split('#');
      const file = path === '' ? page : join(dirname(page), decodeURIComponent(path));
      if (!existsSync(file) && WRITTEN_ELSEWHERE.has(relative(ROOT, file))) continue;
      // A file outside the checkout exists only on the machine that wrote the link.
      if (relative(ROOT, file).startsWith('..')) broken.push(`line ${line}: ${target} (outside the repository)`);
      else if (!existsSync(file)) broken.push(`line ${line}: ${target} (no such file)`);
      else if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) broken.push(`line ${line}: ${target} (no such heading)`);
    }
    expect(broken).toEqual([]);
  });
});
