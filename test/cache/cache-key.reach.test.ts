// A cached answer and the reach it was fetched within (src/cache/cache-key.ts): an answer an
// executeRequest handler fetched while its origin was allowed is not served after the operator
// denies that origin (`network.deny`) and the catalog reloads. A reload loads a new catalog beside
// the old one on the same shared state (cache entries survive it); before, the new catalog served
// the old answer from that state, so the denied origin's data went on reaching clients for the
// entry's lifetime. Real parts: two catalogs loaded from one project folder, its config rewritten
// between them as an operator would, one MemoryState, the real sandbox, a loopback upstream.

import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CallRecord } from '../../src/call/record.js';
import { Catalog } from '../../src/runtime/catalog.js';
import { MemoryState } from '../../src/state/memory-state.js';
import { tempProject, type TempProject } from '../kit/project.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { callRecordsDelivered } from '../support/wait.js';

const SCHEMA = `export const main = {
  namespace: 'feed', name: 'Feed', description: 'Data a handler fetches from another origin.', version: '2.0.0',
  root: 'https://api.feed.test', tags: ['cacheTtlDaily'],
  routes: { latest: { method: 'GET', path: '/latest', description: 'Through the handler.', parameters: [], tests: [{ _description: 'once' }] } }
};

export const handlers = () => ({
  latest: { executeRequest: async ({ struct }) => {
    struct.data = await fetch('https://data.feed.test/latest').then((answer) => answer.json(), () => 'refused');
    return { struct };
  } }
});
`;

let upstream: Upstream;
let project: TempProject;
const state = new MemoryState();
const opened: Catalog[] = [];

async function load(network: unknown): Promise<{ catalog: Catalog; records: CallRecord[] }> {
  project.write('.flowmcp/config.json', JSON.stringify({ network }));
  const catalog = await Catalog.load({
    schemas: project.schemas,
    project: project.dir,
    env: {},
    state,
    upstreams: { '*': upstream.origin },
  });
  opened.push(catalog);
  const records: CallRecord[] = [];
  catalog.onCall((record) => records.push(record));
  return { catalog, records };
}

beforeAll(async () => {
  upstream = await startUpstream(
    (_req, res, entry) =>
      void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ from: entry.url })),
  );
  project = tempProject({ schemas: { 'feed.mjs': SCHEMA } });
}, 30_000);

afterAll(async () => {
  for (const catalog of opened) await catalog.close();
  await state.close();
  project?.remove();
  await upstream?.close();
});

it('an answer cached while an origin was allowed is not served once network.deny names it', async () => {
  const before = await load({});
  const first = [await before.catalog.call('feed_latest', {}), await before.catalog.call('feed_latest', {})];
  expect(first.map((result) => result.ok && 'content' in result && result.content)).toEqual([
    { kind: 'json', value: { from: '/latest' } },
    { kind: 'json', value: { from: '/latest' } },
  ]);
  await callRecordsDelivered();
  expect(before.records.map((record) => record.cache)).toEqual(['miss', 'hit']);

  // The operator denies the origin; the reload loads the catalog again on the same state.
  const after = await load({ deny: { feed: ['https://data.feed.test'] } });
  const hits = upstream.hits();
  const denied = await after.catalog.call('feed_latest', {});
  expect(denied.ok && 'content' in denied && denied.content).toEqual({ kind: 'text', value: 'refused' });
  expect(upstream.hits()).toBe(hits);
  await callRecordsDelivered();
  expect(after.records.map((record) => record.cache)).toEqual(['miss']);

  // The same reach as before finds its entries again: nothing else about the key changed.
  const again = await load({});
  await again.catalog.call('feed_latest', {});
  await callRecordsDelivered();
  expect(again.records.map((record) => record.cache)).toEqual(['hit']);
}, 30_000);
