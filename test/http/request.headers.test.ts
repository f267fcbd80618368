// A seventh reviewer's attack on the plan's headers sent as buildRequest made them (request.ts,
// 82faa9f: no second pass of one-per-name when no preRequest ran) and on where a key's token is
// filled (secrets.ts, promise 3). Real parts: a schema file whose `main.headers` writes one name
// in several spellings (the key in one of them), a preRequest handler in the real sandbox that
// renames the key's header, copies its token into a header and a query the schema gave no key,
// and adds spellings of its own; a loopback upstream records the raw header lines on the wire.

import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Catalog } from '../../src/runtime/catalog.js';
import { loadProjectCatalog, type ProjectCatalog } from '../kit/catalog.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const KEY = 'hdr-key-canary-2718281828';

const SCHEMA = `export const main = {
    namespace: 'hdr', name: 'Hdr', description: 'Headers in several spellings.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.hdr.test', requiredServerParams: ['HDR_KEY'],
    headers: { 'X-Api-Key': 'schema-first', 'ACCEPT': 'text/first', 'x-api-key': '{{HDR_KEY}}', 'Accept': 'application/json' },
    routes: {
        plain: { method: 'GET', path: '/plain', description: 'x', parameters: [], tests: [{ _description: 'a' }] },
        posted: { method: 'POST', path: '/posted', description: 'x', parameters: [], tests: [{ _description: 'a' }] },
        moved: { method: 'GET', path: '/moved', description: 'x', parameters: [], tests: [{ _description: 'a' }] }
    }
};
export const handlers = ({ sharedLists, libraries }) => ({
    moved: {
        preRequest: async ({ struct }) => {
            const token = struct.headers['x-api-key'];
            delete struct.headers['x-api-key'];
            struct.headers['X-API-KEY'] = token;
            struct.headers['x-copy'] = token;
            struct.headers['X-Api-Key '.trim()] = token;
            struct.url += '?leak=' + token;
            return { struct };
        }
    }
});
`;

let api: Upstream;
let loaded: ProjectCatalog | undefined;
let catalog: Catalog;

beforeAll(async () => {
  api = await startUpstream();
  loaded = await loadProjectCatalog(
    { schemas: { 'hdr.mjs': SCHEMA } },
    { keys: { HDR_KEY: KEY }, upstreams: { '*': api.origin }, sandbox: { size: 1 } },
  );
  catalog = loaded.catalog;
  expect(catalog.findings().filter((finding) => finding.severity === 'error')).toEqual([]);
}, 30_000);
afterAll(async () => {
  await loaded?.close();
  await api?.close();
});

/** The raw header lines of the one request a call sent, by lower-cased name. */
async function wire(route: string): Promise<{ lines: Map<string, string[]>; url: string }> {
  const mark = api.records.length;
  const result = await catalog.call(`hdr_${route}`, {});
  expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
  const sent = api.records.slice(mark);
  expect(sent).toHaveLength(1);
  const lines = new Map<string, string[]>();
  const raw = sent[0]?.rawHeaders ?? [];
  for (let at = 0; at < raw.length; at += 2) {
    const name = (raw[at] as string).toLowerCase();
    lines.set(name, [...(lines.get(name) ?? []), raw[at + 1] as string]);
  }
  return { lines, url: sent[0]?.url ?? '' };
}

it('without a preRequest: one line per header name, the last spelling the schema wrote, the key in its slot', async () => {
  for (const route of ['plain', 'posted']) {
    const { lines } = await wire(route);
    expect(lines.get('x-api-key'), route).toEqual([KEY]);
    expect(lines.get('accept'), route).toEqual(['application/json']);
    expect(lines.get('content-type'), route).toEqual(route === 'posted' ? ['application/json'] : undefined);
  }
});

it("a preRequest that renames the key's header keeps the key in it, and its copies elsewhere carry only the token", async () => {
  const { lines, url } = await wire('moved');
  expect(lines.get('x-api-key')).toEqual([KEY]);
  const copy = lines.get('x-copy') ?? [];
  expect(copy).toHaveLength(1);
  expect(copy[0]).toMatch(/^__secret_HDR_KEY_[0-9a-f]{32}__$/);
  expect(url).toBe(`/moved?leak=${copy[0]}`);
  expect(JSON.stringify([...lines].filter(([name]) => name !== 'x-api-key'))).not.toContain(KEY);
}, 30_000);
