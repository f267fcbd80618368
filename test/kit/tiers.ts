// Which test files the unit tier holds, and the module each is named after: the rule that a
// unit test `test/<room>/<module>.test.ts` tests `src/<room>/<module>.ts` (test/tiers.test.ts).

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { DIST, INTEGRATION } from '../tiers.js';

export const ROOT = join(import.meta.dirname, '..', '..');

/** Every test file, as `test/...` paths. */
export function testFiles(): string[] {
  return (readdirSync(join(ROOT, 'test'), { recursive: true, withFileTypes: false }) as string[])
    .map((path) => `test/${path.split('\\').join('/')}`)
    .filter((path) => path.endsWith('.test.ts') && !path.startsWith('test/fixtures/'))
    .sort();
}

/** The test files of the unit tier: those listed under neither integration nor dist. */
export function unitFiles(): string[] {
  const elsewhere = new Set([...INTEGRATION, ...DIST]);
  return testFiles().filter((path) => !elsewhere.has(path));
}

/**
 * The modules a test file may be named after, most likely first: for `test/<room>/<name>.test.ts`
 * (or `<name>.<aspect>.test.ts`) `src/<room>/<name>.ts`, `<room>/<name>.ts` for the folders beside
 * src/ (bench/, scripts/) and `test/<room>/<name>.ts` for the test kit's own; for a folder of tests
 * `test/<room>/<module>/*.test.ts`, `src/<room>/<module>.ts`. None for the checks of the whole tree
 * at the top of test/.
 */
export function namedModules(testFile: string): string[] {
  const parts = testFile.split('/').slice(1);
  // The top of test/ and test/docs/ hold checks of the whole tree (the docs against the code), named after no module.
  if (parts.length < 2 || parts[0] === 'docs') return [];
  const folders = parts.slice(0, -1);
  const name = (parts.at(-1) as string).split('.')[0] as string;
  const candidates = [
    join('src', ...folders, `${name}.ts`),
    join(...folders, `${name}.ts`),
    join('test', ...folders, `${name}.ts`),
  ];
  if (folders.length > 1) candidates.push(join('src', ...folders.slice(0, -1), `${folders.at(-1) as string}.ts`));
  return candidates;
}

/** The module a test file is named after and imports, or why it has none. */
export function testedModule(testFile: string): { module: string } | { problem: string } {
  const candidates = namedModules(testFile);
  const existing = candidates.filter((candidate) => existsSync(join(ROOT, candidate)));
  if (existing.length === 0) return { problem: `names no module (looked for ${candidates.join(', ')})` };
  const imported = importedFiles(testFile);
  const module = existing.find((candidate) => imported.has(candidate));
  return module ? { module } : { problem: `does not import ${existing.join(' or ')}, the module it is named after` };
}

/**
 * The project files a test file imports for their values (`import type` tests nothing), directly
 * or through a helper module of the test folders; `.js` specifiers read as the `.ts` they name.
 */
function importedFiles(testFile: string): Set<string> {
  const direct = valueImports(testFile);
  const throughHelpers = [...direct]
    .filter((file) => file.startsWith('test/') && existsSync(join(ROOT, file)))
    .flatMap((helper) => [...valueImports(helper)]);
  return new Set([...direct, ...throughHelpers]);
}

function valueImports(file: string): Set<string> {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/import\s+type\s[^;]*;/g, '');
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*)['"](\.[^'"]+)['"]/g)].map(
    (match) => match[1] as string,
  );
  return new Set(
    specifiers.map((specifier) =>
      relative(ROOT, resolve(dirname(join(ROOT, file)), specifier)).replace(/\.js$/, '.ts'),
    ),
  );
}
