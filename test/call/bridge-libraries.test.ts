// Issue 14, point 4: a library's own use of the global `fetch` (yahoo-finance2 and pinata work
// this way) goes through the core's bridge for the executeRequest call that runs it, with that
// schema's reach and keys; outside an executeRequest call it is a network attempt (SEC100). The
// library is written into a temporary project's node_modules; a loopback server is the upstream.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/runtime/catalog.js';
import { loadProjectCatalog, type ProjectCatalog } from '../kit/catalog.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const SCHEMA = `export const main = {
    namespace: 'quotes', name: 'Quotes', description: 'A library that fetches by itself.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.quotes.test',
    requiredLibraries: ['fetching-lib', 'default-lib', 'compiled-lib'],
    routes: {
        quote: { method: 'GET', path: '/quote', description: 'A quote through the library.', parameters: [{ position: { key: 'url', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: [] } }], tests: [{ _description: 'a', url: 'x' }] },
        early: { method: 'GET', path: '/quote', description: 'The library called from preRequest.', parameters: [], tests: [{ _description: 'a' }] },
        greet: { method: 'GET', path: '/quote', description: 'Libraries whose only export is a default class.', parameters: [], tests: [{ _description: 'a' }] }
    }
};
export const handlers = ({ sharedLists, libraries }) => ({
    quote: { executeRequest: async ({ struct, payload }) => ({ response: await libraries['fetching-lib'].getJson(payload.userParams.url) }) },
    greet: { executeRequest: async () => ({ response: [new libraries['default-lib']().hello(), new libraries['compiled-lib']().hello()] }) },
    early: { preRequest: async ({ struct }) => { await libraries['fetching-lib'].getJson('https://api.quotes.test/quote'); return { struct }; } }
});
`;

let upstream: Upstream;
let loaded: ProjectCatalog | undefined;
let catalog: Catalog;

beforeAll(async () => {
  upstream = await startUpstream((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ price: 42, path: req.url }));
  });
  loaded = await loadProjectCatalog(
    {
      config: { security: { allowedLibraries: ['fetching-lib', 'default-lib', 'compiled-lib'] } },
      schemas: { 'quotes.mjs': SCHEMA },
      files: {
        // An ES module and a compiled CommonJS module (\`__esModule\`) whose only export is a default class, as yahoo-finance2.
        ...packageFiles('default-lib', 'module', 'export default class Greeter { hello() { return "esm"; } }\n'),
        ...packageFiles(
          'compiled-lib',
          'commonjs',
          'Object.defineProperty(exports, "__esModule", { value: true });\nexports.default = class Greeter { hello() { return "cjs"; } };\n',
        ),
        ...packageFiles(
          'fetching-lib',
          'module',
          'export async function getJson(url) { const answer = await fetch(url); return answer.json(); }\n',
        ),
      },
    },
    { upstreams: { 'https://api.quotes.test': upstream.origin }, sandbox: { size: 1 } },
  );
  catalog = loaded.catalog;
});
afterAll(async () => {
  await loaded?.close();
  await upstream?.close();
});

/** An installed package's files, by path relative to the project. */
function packageFiles(name: string, type: 'module' | 'commonjs', code: string): Record<string, string> {
  return {
    [`node_modules/${name}/package.json`]: JSON.stringify({ name, version: '1.0.0', type, main: 'index.js' }),
    [`node_modules/${name}/index.js`]: code,
  };
}

describe('a library whose only export is a default', () => {
  it('is handed over as that default (an ES module, and a compiled CommonJS one)', async () => {
    expect(await catalog.call('quotes_greet', {})).toMatchObject({ ok: true, content: { value: ['esm', 'cjs'] } });
  });
});

describe('a library’s global fetch', () => {
  it('goes through the core within the schema’s reach, and is recorded', async () => {
    const mark = upstream.records.length;
    const result = await catalog.call('quotes_quote', { url: 'https://api.quotes.test/quote?s=abc' });
    expect(result).toMatchObject({
      ok: true,
      content: { value: { price: 42, path: '/quote?s=abc' } },
      requests: [{ origin: 'https://api.quotes.test', method: 'GET', status: 200 }],
    });
    expect(upstream.records.length).toBe(mark + 1);
  });

  it('is refused outside the reach, nothing sent', async () => {
    const mark = upstream.records.length;
    const result = await catalog.call('quotes_quote', { url: 'https://evil.test/steal' });
    expect(result).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('HOST_NOT_ALLOWED: https://evil.test is not in the reach of quotes') },
    });
    expect(upstream.records.length).toBe(mark);
  });

  it('is a network attempt (SEC100) outside an executeRequest call', async () => {
    const mark = upstream.records.length;
    const result = await catalog.call('quotes_early', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'SEC100' } });
    expect(upstream.records.length).toBe(mark);
  });
});
