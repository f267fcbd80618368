// The bundles in dist/bundle/ (built by `npm test`'s pretest) keep what only some runs need out
// of every start: Redis, metrics and the OpenAPI parser are in chunks that load on first use. A
// bundle without code splitting hoists their imports to its top, and every command pays for them.

import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BUNDLE = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/bundle');
const ON_FIRST_USE = ['ioredis', 'prom-client', '@readme/openapi-parser'];

/** Every module specifier a bundle file imports statically, following its own chunks. */
function staticImports(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return new Set();
  seen.add(file);
  const found = new Set<string>();
  // esbuild starts each import statement on a line of its own: `import {\n  a\n} from "x";` or `import "x";`.
  for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/^import\s(?:[^'";]*?\sfrom\s*)?["']([^"']+)["'];?$/gm)) {
    if (specifier === undefined) continue;
    if (specifier.startsWith('.')) for (const inner of staticImports(join(dirname(file), specifier), seen)) found.add(inner);
    else found.add(specifier);
  }
  return found;
}

describe('the bundles', () => {
  for (const entry of ['cli.js', 'index.js']) {
    it(`${entry} imports ${ON_FIRST_USE.join(', ')} only when they are used`, () => {
      const imports = staticImports(join(BUNDLE, entry));
      // The check itself must see the bundle's imports, or it proves nothing.
      expect(imports).toContain('deep-freeze-strict');
      for (const name of ON_FIRST_USE) expect([...imports].filter((specifier) => specifier === name || specifier.startsWith(`${name}/`))).toEqual([]);
    });
  }
});
