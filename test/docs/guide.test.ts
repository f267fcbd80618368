// The authors' guide (docs/authors/) is tested: every fenced example marked as a schema is written into
// a fresh project and validated, and dry-run where it says so; an example that shows a mistake
// names the codes it must produce. docs/authors/README.md describes the markers:
//
//   ```js schema [dry-run] [info=CODE] [expect=CODE,CODE]   a whole schema file
//   ```js list                                              a shared-list file for the page's schema examples
//
// An example without `expect=` gets no finding at all, not even information, except the `info=`
// codes the page says it shows: what the guide teaches is what flowguard reads without comment.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { effectiveAllowlist } from '../../src/libraries/allowlist.js';
import { loadListRegistry } from '../../src/lists/registry.js';
import { checkSchemaFile } from '../../src/project/check-file.js';
import type { Finding } from '../../src/report/findings.js';

const DOCS = join(import.meta.dirname, '..', '..', 'docs', 'authors');
const FENCE = /^```js (schema|list)([^\n]*)\n([\s\S]*?)^```$/gm;
const work = mkdtempSync(join(tmpdir(), 'flowguard-guide-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Example {
  kind: 'schema' | 'list';
  dryRun: boolean;
  expected: string[];
  /** Information the page says the example shows (`info=VAL096`). */
  info: string[];
  text: string;
  line: number;
}

function examplesOf(page: string): Example[] {
  const source = readFileSync(join(DOCS, page), 'utf8');
  return [...source.matchAll(FENCE)].map((match) => {
    const words = (match[2] ?? '').trim().split(/\s+/).filter(Boolean);
    const listed = (prefix: string) => words.find((word) => word.startsWith(prefix))?.slice(prefix.length).split(',') ?? [];
    return {
      kind: match[1] as Example['kind'],
      dryRun: words.includes('dry-run'),
      expected: listed('expect='),
      info: listed('info='),
      text: match[3] ?? '',
      line: source.slice(0, match.index).split('\n').length,
    };
  });
}

/** `evmChains` → `evm-chains`: a list file is named after its list (LST013). */
function listFileName(text: string): string {
  const name = /name:\s*'([A-Za-z0-9]+)'/.exec(text)?.[1] ?? 'list';
  return `${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}.mjs`;
}

/** A fresh project with the page's lists and one schema file. */
function project(example: Example, lists: Example[], index: string): { dir: string; file: string } {
  const dir = join(work, index);
  mkdirSync(join(dir, 'schemas'), { recursive: true });
  mkdirSync(join(dir, 'shared-lists'));
  for (const list of lists) writeFileSync(join(dir, 'shared-lists', listFileName(list.text)), list.text);
  const file = join(dir, 'schemas', 'example.mjs');
  writeFileSync(file, example.text);
  return { dir, file };
}

const describeFinding = (f: Finding) => `${f.code} ${f.severity} ${f.path ?? ''}: ${f.message}`;

const pages = readdirSync(DOCS).filter((name) => name.endsWith('.md'));

it('the guide has schema examples, some dry-run and some showing a finding', () => {
  const all = pages.flatMap(examplesOf).filter((example) => example.kind === 'schema');
  expect(all.length).toBeGreaterThan(8);
  expect(all.some((example) => example.dryRun)).toBe(true);
  expect(all.some((example) => example.expected.length > 0)).toBe(true);
});

// flowguard is not on the npm registry: a bare `npx flowguard` outside an install fetches someone
// else's package. The guide runs the command an install gives, and says how to install it.
it('runs the installed flowguard command, never a bare npx flowguard, and says how to install it', () => {
  for (const page of pages) {
    const text = readFileSync(join(DOCS, page), 'utf8');
    expect(text.match(/npx (?!--no )flowguard[^\n]*/g) ?? [], page).toEqual([]);
  }
  const index = readFileSync(join(DOCS, 'README.md'), 'utf8');
  expect(index).toMatch(/npm install --global \.\/flowguard-[\d.]+\.tgz/);
  expect(index).toMatch(/npm install --save-dev \.\/flowguard-[\d.]+\.tgz/);
});

// Pages without a schema example (the index) have nothing to run here.
const pagesWithSchemas = pages.filter((page) => examplesOf(page).some((example) => example.kind === 'schema'));

describe.each(pagesWithSchemas)('docs/%s', (page) => {
  const examples = examplesOf(page);
  const lists = examples.filter((example) => example.kind === 'list');
  const schemas = examples.filter((example) => example.kind === 'schema');

  it.each(schemas.map((example) => [example.line, example] as const))('the schema example at line %i validates as it says', async (line, example) => {
    const { dir, file } = project(example, lists, `${page}-${line}`);
    const registry = loadListRegistry(join(dir, 'shared-lists'), {});
    expect(registry.findings.filter((f) => f.severity !== 'info').map(describeFinding), 'the page\'s lists').toEqual([]);
    const findings = checkSchemaFile(file, { allowedLibraries: effectiveAllowlist([]), lists: registry }).findings;
    const problems = findings.filter((f) => !(f.severity === 'info' && example.info.includes(f.code)));
    if (example.expected.length === 0) expect(problems.map(describeFinding)).toEqual([]);
    for (const code of example.expected) expect(findings.map((f) => f.code), `${code} expected`).toContain(code);
    for (const code of example.info) expect(findings.map((f) => f.code), `${code} shown`).toContain(code);
    if (!example.dryRun) return;

    const keys = Object.fromEntries([...example.text.matchAll(/'([A-Z][A-Z0-9_]*_KEY)'/g)].map((m) => [m[1], 'guide-test-key-value']));
    const catalog = await Catalog.load({ schemas: join(dir, 'schemas'), lists: join(dir, 'shared-lists'), project: dir, env: {}, keys, sandbox: { size: 1, deadlineMs: 5000, memoryMb: 128 } });
    try {
      const tools = catalog.visibleTools();
      expect(tools.length, 'every route served').toBe(catalog.schemas.reduce((n, s) => n + s.schema.routes.length, 0));
      expect(tools.length).toBeGreaterThan(0);
      for (const tool of tools) {
        const { _description: _, ...args } = tool.route.tests[0] ?? {};
        const result = await catalog.call(tool.name, args, { dryRun: true });
        expect(result, `${tool.name} dry run`).toMatchObject({ ok: true, dryRun: { method: tool.method } });
      }
    } finally {
      await catalog.close();
    }
  }, 30_000);
});

// The guide speaks to authors: a rule is named by its finding code, never by a design decision's
// number or a document outside the repository.
it('refers to no document outside the repository and to no decision by its number', () => {
  for (const file of pages) {
    const text = readFileSync(join(DOCS, file), 'utf8');
    expect(text, file).not.toMatch(/RULINGS|SPEC-NOTES|\brule \d|\bchapter \d|\bR\d{1,2}\b/);
  }
});
