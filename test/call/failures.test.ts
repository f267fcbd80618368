// What a client is told to wait after an upstream's 429 or 503 (src/call/failures.ts,
// statusFailure) against the pause the upstream guard enforces (src/guard/upstream-guard.ts):
// through whole calls to a real loopback upstream, the told `retryAfter` is the guard's pause in
// whole seconds (capped, an HTTP-date read, a hostile value ignored), never the header's text, and
// the next call is refused for as long. Before, the raw header was passed on: `999999999`, a date,
// `-5` or any text an upstream wrote.

import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallResult } from '../../src/call/outcome.js';
import type { Catalog } from '../../src/runtime/catalog.js';
import { loadProjectCatalog, type ProjectCatalog } from '../kit/catalog.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const MAX_PAUSE_SECONDS = 120;
const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toUTCString();

/** Each case its own namespace (a pause is per namespace and origin): the status and Retry-After it answers. */
const CASES: Record<string, { status: number; retryAfter?: () => string }> = {
  seconds: { status: 429, retryAfter: () => '7' },
  date: { status: 429, retryAfter: () => inSeconds(40) },
  huge: { status: 429, retryAfter: () => '999999999' },
  negative: { status: 429, retryAfter: () => '-5' },
  garbage: { status: 503, retryAfter: () => 'soon <b>call 555-0100</b>' },
  missing: { status: 429 },
  gone: { status: 503, retryAfter: () => inSeconds(-60) },
  outage: { status: 503 },
  held: { status: 429, retryAfter: () => '60' },
};

const schema = (ns: string) => `export const main = {
    namespace: '${ns}', name: '${ns}', description: 'An API that is busy.', version: '2.0.0',
    docs: [], tags: [], root: 'https://api.${ns}.test',
    routes: {
        get: { method: 'GET', path: '/${ns}/{{id}}', description: 'x', parameters: [{ position: { key: 'id', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: [] } }], tests: [{ _description: 'a', id: 'a' }] }
    }
};
`;

let api: Upstream;
let loaded: ProjectCatalog | undefined;
let catalog: Catalog;
/** Answers held back by the upstream until the test lets them go. */
const held = new Map<string, () => void>();

function answer(res: ServerResponse, url: string): void {
  const [, ns = '', id = ''] = url.split('/');
  const spec = CASES[ns];
  if (!spec) return void res.writeHead(404).end();
  const send = (retryAfter = spec.retryAfter?.()) => {
    res.writeHead(spec.status, { 'content-type': 'text/plain', ...(retryAfter ? { 'retry-after': retryAfter } : {}) });
    res.end('busy');
  };
  if (ns === 'held' && id === 'later') return void held.set(id, () => send('5'));
  send();
}

beforeAll(async () => {
  api = await startUpstream((req, res) => answer(res, req.url ?? ''));
  loaded = await loadProjectCatalog(
    {
      schemas: Object.fromEntries(Object.keys(CASES).map((ns) => [`${ns}.mjs`, schema(ns)])),
      config: { upstreamLimits: { maxPauseSeconds: MAX_PAUSE_SECONDS } },
    },
    { upstreams: Object.fromEntries(Object.keys(CASES).map((ns) => [`https://api.${ns}.test`, api.origin])) },
  );
  catalog = loaded.catalog;
  expect(catalog.findings().filter((finding) => finding.severity === 'error')).toEqual([]);
});
afterAll(async () => {
  await loaded?.close();
  await api?.close();
});

const failed = (result: CallResult) => {
  expect(result.ok).toBe(false);
  return (result as Extract<CallResult, { ok: false }>).error;
};

/** What a call of case `ns` is told, and what the next call of it (refused by the guard, or sent) hears. */
async function toldAndNext(ns: string) {
  const told = failed(await catalog.call(`${ns}_get`, { id: 'a' }));
  const sent = api.hits();
  const next = failed(await catalog.call(`${ns}_get`, { id: 'b' }));
  return { told, next, nextSent: api.hits() > sent };
}

describe("the Retry-After a client is told is the guard's pause", () => {
  it.each([
    ['seconds', 7],
    ['huge', MAX_PAUSE_SECONDS],
    ['negative', 1],
    ['garbage', 1],
    ['missing', 1],
  ])('%s: told %i s, the pause in force; no text of the header', async (ns, seconds) => {
    const { told, next, nextSent } = await toldAndNext(ns);
    expect(told).toMatchObject({ kind: 'upstream-status', retryAfter: String(seconds) });
    expect(told.message).toMatch(new RegExp(`\\(retry after ${seconds} s\\)$`));
    expect(told.message).not.toMatch(/soon|555|999999999|-5/);
    // The guard holds the next call back for what the first was told (a second may have begun).
    expect(nextSent).toBe(false);
    expect(next.kind).toBe('rate-limited');
    expect(Number(next.retryAfter)).toBeLessThanOrEqual(seconds);
  });

  it('an HTTP-date is told as the seconds until it, as the guard reads it', async () => {
    const { told, next, nextSent } = await toldAndNext('date');
    // The date has whole seconds: 39 or 40 s remain.
    expect(['39', '40']).toContain(told.retryAfter);
    expect(told.message).not.toContain('GMT');
    expect(nextSent).toBe(false);
    expect(Number(next.retryAfter)).toBeLessThanOrEqual(Number(told.retryAfter));
  });

  it('a date in the past, or a 503 without Retry-After, pauses nothing and tells no wait', async () => {
    for (const ns of ['gone', 'outage']) {
      const { told, next, nextSent } = await toldAndNext(ns);
      expect(told.retryAfter).toBeUndefined();
      expect(told.message).toBe('upstream answered 503: busy');
      expect(nextSent).toBe(true);
      expect(next.kind).toBe('upstream-status');
    }
  });

  it('an answer whose own pause is shorter than the one in force is told the one in force', async () => {
    // `later` is on the wire while `first` pauses the namespace for 60 s; its own 429 says 5.
    const later = catalog.call('held_get', { id: 'later' });
    await expect.poll(() => held.has('later')).toBe(true);
    const first = failed(await catalog.call('held_get', { id: 'first' }));
    expect(first.retryAfter).toBe('60');
    held.get('later')?.();
    const second = failed(await later);
    expect(second).toMatchObject({ kind: 'upstream-status', status: 429 });
    expect(Number(second.retryAfter)).toBeGreaterThan(5);
    const next = failed(await catalog.call('held_get', { id: 'next' }));
    expect(next.kind).toBe('rate-limited');
    expect(Number(next.retryAfter)).toBeLessThanOrEqual(Number(second.retryAfter));
  });
});
