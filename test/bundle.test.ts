// The bundles in dist/bundle/ (built by `npm test`'s pretest, scripts/bundle.mjs) keep what only
// some runs need out of every start: Redis, metrics, the OpenAPI parser and jose (OAuth tokens) are
// in chunks that load on first use. A bundle without code splitting hoists their imports to its top, and every command
// pays for them. The MCP SDK and zod are bundled (they load in half the time) into a chunk that
// only a server loads.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript of the build, without types (scripts/bundle.mjs bundles it in the SDK provider's place).
import { AjvJsonSchemaValidator as StandIn } from '../scripts/sdk-ajv-provider.mjs';

const BUNDLE = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/bundle');
const ON_FIRST_USE = ['ioredis', 'prom-client', '@readme/openapi-parser', 'jose'];

/** Every module specifier a bundle file imports statically, following its own chunks. */
function staticImports(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return new Set();
  seen.add(file);
  const found = new Set<string>();
  // esbuild starts each import statement on a line of its own: `import {\n  a\n} from "x";` or `import "x";`.
  for (const [, specifier] of readFileSync(file, 'utf8').matchAll(
    /^import\s(?:[^'";]*?\sfrom\s*)?["']([^"']+)["'];?$/gm,
  )) {
    if (specifier === undefined) continue;
    if (specifier.startsWith('.'))
      for (const inner of staticImports(join(dirname(file), specifier), seen)) found.add(inner);
    else found.add(specifier);
  }
  return found;
}

/** The bundle files an entry point loads before it runs: itself and the chunks it imports statically, transitively. */
function staticFiles(file: string, seen = new Set<string>()): Set<string> {
  staticImports(file, seen);
  return seen;
}

/** Every file of the bundle folder: the entry points and their chunks. */
function bundleFiles(): string[] {
  return readdirSync(BUNDLE, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.js'))
    .map((name) => join(BUNDLE, name));
}

describe('the bundles', () => {
  for (const entry of ['cli.js', 'index.js']) {
    it(`${entry} imports ${ON_FIRST_USE.join(', ')} only when they are used`, () => {
      const imports = staticImports(join(BUNDLE, entry));
      // The check itself must see the bundle's imports, or it proves nothing.
      expect(imports).toContain('deep-freeze-strict');
      for (const name of ON_FIRST_USE)
        expect([...imports].filter((specifier) => specifier === name || specifier.startsWith(`${name}/`))).toEqual([]);
    });
  }

  it('carry the MCP SDK and zod themselves, in a chunk that only a server loads', () => {
    const files = bundleFiles();
    // Any import of them, static or dynamic, from any bundle file, would load them from node_modules.
    const fromNodeModules =
      /^(?:import|export)\s(?:[^'";]*?\sfrom\s*)?"(?:@modelcontextprotocol\/sdk|zod)[/"]|\bimport\("(?:@modelcontextprotocol\/sdk|zod)[/"]/m;
    expect(files.filter((file) => fromNodeModules.test(readFileSync(file, 'utf8')))).toEqual([]);
    const sdkChunks = files.filter((file) => readFileSync(file, 'utf8').includes('"notifications/initialized"'));
    expect(sdkChunks).toHaveLength(1);
    const loadedByEveryStart = staticFiles(join(BUNDLE, 'cli.js'));
    expect(loadedByEveryStart).not.toContain(sdkChunks[0]);
  });

  it("load the SDK's Ajv provider (ajv, ajv-formats) on first use only, not with the server", () => {
    const sdkChunk = bundleFiles().find((file) => readFileSync(file, 'utf8').includes('"notifications/initialized"'));
    const imports = staticImports(sdkChunk as string);
    // The check itself must see the chunk's imports (node's modules, the chunks it shares), or it proves nothing.
    expect(imports.size).toBeGreaterThan(0);
    expect([...imports].filter((specifier) => specifier === 'ajv' || specifier === 'ajv-formats')).toEqual([]);
  });
});

describe("the stand-in for the SDK's Ajv provider", () => {
  it('answers as the SDK provider does, formats included', () => {
    const schema = {
      type: 'object',
      properties: { mail: { type: 'string', format: 'email' }, n: { type: 'integer' } },
      required: ['mail'],
    } as const;
    const sdk = new AjvJsonSchemaValidator().getValidator(schema);
    const standIn = (new StandIn() as AjvJsonSchemaValidator).getValidator(schema);
    for (const value of [{ mail: 'a@b.example' }, { mail: 'not a mail' }, { n: 1 }, { mail: 'a@b.example', n: 1.5 }])
      expect(standIn(value)).toEqual(sdk(value));
    expect(standIn({ mail: 'not a mail' }).valid).toBe(false);
  });
});
