// An outside reviewer's attacks on promises 3, 5 and 9 along the core's own path, through a whole
// call (arguments → request → keys → override → the client's interceptors → decode): the upstream
// answers with redirects that try to carry the key to another origin or a private address, in the
// spellings a Location can take, and with bodies that inflate past the cap. The interceptors are
// tested alone in redirect.test.ts and content-decoding.test.ts; here their order inside the
// client, behind an upstream override (whose base may be private), is what is attacked.
//
// Real parts: a catalog loaded from a schema file with a granted key, the real HTTP client, and
// loopback servers: `api` behind the schema's origin (an `upstreams` override), `elsewhere` a
// private address nothing may reach.

import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/runtime/catalog.js';
import { loadProjectCatalog, type ProjectCatalog } from '../kit/catalog.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const KEY = 'rdr-key-value-5772156649';

const SCHEMA = `export const main = {
    namespace: 'redir', name: 'Redir', description: 'An API that redirects.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.redir.test',
    requiredServerParams: ['REDIR_KEY'],
    headers: { 'x-api-key': '{{REDIR_KEY}}' },
    routes: {
        get: { method: 'GET', path: '/go', description: 'Follows where the API sends it.', parameters: [
            { position: { key: 'to', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: [] } },
            { position: { key: 'k', value: '{{REDIR_KEY}}', location: 'query' }, z: { primitive: 'string()', options: [] } }
        ], tests: [{ _description: 'a', to: '/' }] },
        post: { method: 'POST', path: '/go', description: 'Posts the key, then follows.', parameters: [
            { position: { key: 'to', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: [] } },
            { position: { key: 'secret', value: '{{REDIR_KEY}}', location: 'body' }, z: { primitive: 'string()', options: [] } }
        ], tests: [{ _description: 'a', to: '/' }] }
    }
};
`;

/** 64 MiB of zeros as about 64 kB of gzip, and a small body that stays under the cap. */
const BOMB = gzipSync(Buffer.alloc(64 * 1024 * 1024));
const SMALL = gzipSync(JSON.stringify({ fine: 'x'.repeat(100_000) }));

let api: Upstream;
let elsewhere: Upstream;
let loaded: ProjectCatalog | undefined;
let catalog: Catalog;

beforeAll(async () => {
  api = await startUpstream((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const to = url.searchParams.get('to') ?? '';
    if (url.pathname === '/go' && to === 'bomb')
      return void res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(BOMB);
    if (url.pathname === '/go' && to === 'small')
      return void res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(SMALL);
    if (url.pathname === '/go') {
      const status = req.method === 'POST' ? 307 : 302;
      return void res
        .writeHead(status, { location: to.replaceAll('ELSEWHERE', elsewhere.origin).replaceAll('API', api.origin) })
        .end();
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ at: url.pathname }));
  });
  elsewhere = await startUpstream();
  loaded = await loadProjectCatalog(
    { schemas: { 'redir.mjs': SCHEMA } },
    { keys: { REDIR_KEY: KEY }, upstreams: { 'https://api.redir.test': api.origin } },
  );
  catalog = loaded.catalog;
  expect(catalog.findings().filter((finding) => finding.severity === 'error')).toEqual([]);
});
afterAll(async () => {
  await loaded?.close();
  await Promise.all([api?.close(), elsewhere?.close()]);
});

/** The call's outcome, and how many requests and connections each server saw meanwhile. */
async function follow(route: 'get' | 'post', to: string) {
  const before = { api: api.hits(), elsewhere: elsewhere.hits() + elsewhere.connections() };
  const result = await catalog.call(`redir_${route}`, { to });
  return {
    result,
    api: api.hits() - before.api,
    elsewhere: elsewhere.hits() + elsewhere.connections() - before.elsewhere,
  };
}

describe('a redirect on the core path never carries the key elsewhere', () => {
  it('the control: a same-origin redirect is followed, with the key, to the same server', async () => {
    const mark = api.records.length;
    const { result, api: hops } = await follow('get', 'API/landed');
    expect(result).toMatchObject({ ok: true, content: { value: { at: '/landed' } } });
    expect(hops).toBe(2);
    expect(api.records[mark + 1]?.headers['x-api-key']).toBe(KEY);
  });

  it.each([
    ['a private address', 'ELSEWHERE/steal'],
    ['a private address, protocol-relative', `//127.0.0.1:PORT/steal`],
    ['the same server under another name', 'http://localhost:APIPORT/steal'],
    ['the same server with userinfo', 'http://user:pass@127.0.0.1:APIPORT/steal'],
    ['the schema’s origin as written, over http', 'http://api.redir.test/steal'],
    ['a metadata address', 'http://169.254.169.254/latest/meta-data/'],
    ['a non-HTTP scheme', 'file:///etc/passwd'],
  ])('to %s: refused; nothing reaches it, and the key does not come back', async (_name, to) => {
    const location = to.replace('APIPORT', String(api.port)).replace('PORT', String(elsewhere.port));
    for (const route of ['get', 'post'] as const) {
      const { result, api: hops, elsewhere: touched } = await follow(route, location);
      expect(result.ok).toBe(false);
      expect(JSON.stringify(result)).toMatch(/redirect/i);
      expect(JSON.stringify(result)).not.toContain(KEY);
      expect(hops).toBe(1);
      expect(touched).toBe(0);
    }
  });

  it('a chain that turns away after a same-origin hop is refused at the turn', async () => {
    const turn = `API/go?to=${encodeURIComponent('ELSEWHERE/steal')}`;
    const { result, api: hops, elsewhere: touched } = await follow('get', turn);
    expect(result.ok).toBe(false);
    expect(hops).toBe(2);
    expect(touched).toBe(0);
  });
});

describe('decompression on the core path stays under the cap', () => {
  it('a gzip bomb is a clean too-large error; a small gzip body decodes (the control)', async () => {
    const bomb = await catalog.call('redir_get', { to: 'bomb' });
    expect(bomb).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/larger than \d+ bytes once decoded/) },
    });
    expect(await catalog.call('redir_get', { to: 'small' })).toMatchObject({
      ok: true,
      content: { value: { fine: expect.any(String) } },
    });
  });
});
