// The response cache and executeRequest handlers (decision R12), with the real sandbox: a route
// whose handler reads through the core's bridge is cached like any GET route; one whose handler
// sends anything but GET is never kept, nor one whose bridged answer said no-store, nor one
// whose handler made an answer of a request that failed (an error status the handler read as
// data, a request refused that it caught): the core's own path never keeps an error, and a
// handler's call kept for a day would pin the upstream's passing failure. A loopback upstream
// counts what reaches it.

import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CallRecord } from '../../src/call/record.js';
import type { Catalog } from '../../src/runtime/catalog.js';
import { loadProjectCatalog, type ProjectCatalog } from '../kit/catalog.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { callRecordsDelivered } from '../support/wait.js';

const ROUTE = (name: string) =>
  `${name}: { method: 'GET', path: '/${name}', description: 'Through the handler.', parameters: [], tests: [{ _description: 'once' }] }`;

const SCHEMA = `export const main = {
  namespace: 'relay', name: 'Relay', description: 'Requests made by handlers.', version: '2.0.0',
  root: 'https://api.relay.test', tags: ['cacheTtlDaily'],
  routes: { ${['readByGet', 'writeByPost', 'readNoStore', 'readFailing', 'readMissing', 'readRefused'].map(ROUTE).join(', ')} }
};

export const handlers = () => {
  const send = (path, init) => async ({ struct }) => {
    const answer = await fetch('https://api.relay.test' + path, init);
    struct.data = await answer.json();
    return { struct };
  };
  return {
    readByGet: { executeRequest: send('/data') },
    writeByPost: { executeRequest: send('/orders', { method: 'POST', body: '{}' }) },
    readNoStore: { executeRequest: send('/private-data') },
    readFailing: { executeRequest: send('/overloaded') },
    readMissing: { executeRequest: send('/missing') },
    // A request outside the reach (an origin the file does not write out) is refused; the handler answers anyway.
    readRefused: { executeRequest: async ({ struct }) => {
      struct.data = await fetch(['https:', '', 'elsewhere.example', 'data'].join('/')).then(() => 'sent', () => 'refused');
      return { struct };
    } }
  };
};
`;

/** The upstream's error statuses by path: a 503 without Retry-After pauses nothing. */
const FAILING: Record<string, number> = { '/overloaded': 503, '/missing': 404 };

let upstream: Upstream;
let loaded: ProjectCatalog | undefined;
let catalog: Catalog;
const records: CallRecord[] = [];

beforeAll(async () => {
  upstream = await startUpstream((_req, res, entry) => {
    const failed = FAILING[entry.url];
    if (failed) return void res.writeHead(failed, { 'content-type': 'application/json' }).end('{"error":"try later"}');
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(entry.url === '/private-data' ? { 'cache-control': 'no-store' } : {}),
    });
    res.end(JSON.stringify({ method: entry.method, url: entry.url }));
  });
  loaded = await loadProjectCatalog({ schemas: { 'relay.mjs': SCHEMA } }, { upstreams: { '*': upstream.origin } });
  catalog = loaded.catalog;
  catalog.onCall((record) => records.push(record));
}, 30_000);

afterAll(async () => {
  await loaded?.close();
  await upstream?.close();
});

it.each([
  ['readByGet', 1, ['miss', 'hit']],
  ['writeByPost', 2, ['miss', 'miss']],
  ['readNoStore', 2, ['miss', 'miss']],
  ['readFailing', 2, ['miss', 'miss']],
  ['readMissing', 2, ['miss', 'miss']],
  ['readRefused', 0, ['miss', 'miss']],
])(
  '%s: reaches the upstream %i time(s) in two calls',
  async (tool, requests, outcomes) => {
    const mark = records.length;
    const before = upstream.hits();
    const results = [await catalog.call(`relay_${tool}`, {}), await catalog.call(`relay_${tool}`, {})];
    expect(
      results.map((result) => result.ok),
      JSON.stringify(results[0]),
    ).toEqual([true, true]);
    expect(upstream.hits() - before).toBe(requests);
    await callRecordsDelivered();
    expect(records.slice(mark).map((record) => record.cache)).toEqual(outcomes);
  },
  30_000,
);
