// The route table's bound attacked through a handler (Catalog.load and call, the real sandbox and
// bridge, a loopback upstream standing for every origin through an `upstreams` override): a
// schema whose text writes `https://${label}.wild.test` has every such origin in its reach, and
// its executeRequest handler fetches 8,300 distinct ones, twice what the guard keeps (4,096). The
// guard holds at most its bound, and a pause one of the dropped origins received still holds:
// the request after the storm is refused and nothing is sent (docs/security.md, promise 12).

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Catalog } from '../../src/runtime/catalog.js';
import { LimitTable } from '../../src/guard/limits.js';
import { UpstreamGuard } from '../../src/guard/upstream-guard.js';
import { loadProjectCatalog, type ProjectCatalog } from '../kit/catalog.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

/** The guard's bound (MAX_ROUTES in src/guard/upstream-guard.ts). */
const BOUND = 4096;
/** Requests per call: network.maxRequestsPerCall's default. */
const PER_CALL = 20;
/** Two rounds of the clock's hand and some: the paused origin, asked twice, is kept one round more than a one-off. */
const CALLS = Math.ceil((2 * BOUND + 100) / PER_CALL);
const PAUSED = 'https://paused.wild.test';

const SCHEMA = `export const main = {
  namespace: 'wild', name: 'Wild', description: 'Fetches from any node.', version: '2.0.0',
  root: 'https://api.wild.test',
  routes: {
    sweep: { method: 'GET', path: '/x', description: 'Fetches 20 nodes from the one numbered from.', parameters: [{ position: { key: 'from', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: [] } }], tests: [{ _description: 'a', from: '0' }] },
    one: { method: 'GET', path: '/x', description: 'Fetches a path of one node.', parameters: [{ position: { key: 'label', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: [] } }, { position: { key: 'path', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: [] } }], tests: [{ _description: 'a', label: 'a', path: 'ok' }] }
  }
};
export const handlers = () => {
  const node = (label, path) => \`https://\${label}.wild.test/\${path}\`;
  return {
  sweep: {
    executeRequest: async ({ payload }) => {
      const from = Number(payload.userParams.from);
      const statuses = [];
      for (let i = 0; i < ${PER_CALL}; i += 1) statuses.push((await fetch(node('n' + (from + i), 'ok'))).status);
      return { response: statuses.join(',') };
    }
  },
  one: {
    executeRequest: async ({ payload }) => ({ response: String((await fetch(node(payload.userParams.label, payload.userParams.path))).status) })
  }
  };
};
`;

let upstream: Upstream;
let loaded: ProjectCatalog | undefined;
let catalog: Catalog;

beforeAll(async () => {
  upstream = await startUpstream((req, res) => {
    if (req.url?.endsWith('/busy')) res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '60' }).end('no');
    else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  loaded = await loadProjectCatalog(
    { schemas: { 'wild.mjs': SCHEMA } },
    { upstreams: { '*': upstream.origin }, sandbox: { size: 1 } },
  );
  catalog = loaded.catalog;
});

afterAll(async () => {
  vi.restoreAllMocks();
  await loaded?.close();
  await upstream?.close();
});

describe('a handler with a wildcard reach fetches more origins than the guard keeps', () => {
  it('the guard holds at most its bound, and a pause of an origin it dropped still refuses with nothing sent', async () => {
    const admit = vi.spyOn(UpstreamGuard.prototype, 'admit');
    const resolve = vi.spyOn(LimitTable.prototype, 'resolve');
    const one = (path: string) => catalog.call('wild_one', { label: 'paused', path });
    expect(await one('busy')).toMatchObject({ ok: true, content: { value: '429' } });
    const paused = await one('ok');
    expect(paused).toMatchObject({ ok: false, error: { kind: 'rate-limited' } });
    const guard = admit.mock.contexts[0] as UpstreamGuard;

    for (let call = 0; call < CALLS; call += 1) {
      const result = await catalog.call('wild_sweep', { from: String(call * PER_CALL) });
      expect(result).toMatchObject({ ok: true, content: { value: Array(PER_CALL).fill('200').join(',') } });
      expect(guard.routesHeld).toBeLessThanOrEqual(BOUND);
    }
    expect(guard.routesHeld).toBe(BOUND);

    // The paused origin's route was dropped (it is worked out again now); its pause was not.
    const sent = upstream.records.length;
    expect(await one('ok')).toMatchObject({ ok: false, error: { kind: 'rate-limited' } });
    expect(upstream.records.length).toBe(sent);
    expect(resolve.mock.calls.filter(([ns, origin]) => ns === 'wild' && origin === PAUSED).length).toBe(2);
    expect(admit.mock.contexts.every((context) => context === guard)).toBe(true);
  });
});
