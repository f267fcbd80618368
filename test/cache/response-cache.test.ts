// Issue 16, point 6: the response cache, with real parts. Schemas on disk loaded into real
// catalogs, a loopback upstream that counts the requests it receives (through an `upstreams`
// override), the real MemoryState as the store, and the call records the catalog publishes.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CallRecord } from '../../src/call/record.js';
import { Catalog } from '../../src/runtime/catalog.js';
import { MemoryState } from '../../src/state/memory-state.js';
import type { SharedState } from '../../src/state/shared-state.js';
import { tempProject } from '../kit/project.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { callRecordsDelivered } from '../support/wait.js';

const KEY = 'quotes-key-value-0123456789';
const OTHER_KEY = 'quotes-key-value-9876543210';

/** The answer's extra headers by request path prefix: `/nostore/` says no-store, and so on. */
const CACHE_CONTROL: Record<string, string | string[]> = {
  nostore: 'no-store',
  // Two header lines, the second forbidding: a client that kept one line would store it.
  twolines: ['max-age=60', 'no-store'],
  nocache: 'max-age=60, No-Cache',
  private: 'private, max-age=60',
  quoted: 'private="x, no-store, y"',
};

let upstream: Upstream;
/** Answers with a counter, so a hit is told from a fresh answer by its content too. */
let served = 0;

beforeAll(async () => {
  upstream = await startUpstream((req, res, entry) => {
    served += 1;
    if (entry.url.startsWith('/fail/')) return void res.writeHead(500, { 'content-type': 'text/plain' }).end('down');
    const control = CACHE_CONTROL[entry.url.split('/')[1] ?? ''];
    // setHeader writes an array as one line each (writeHead's header object types allow only one).
    if (control) res.setHeader('cache-control', control);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ served, method: req.method, url: entry.url }));
  });
});
afterAll(() => upstream.close());

const QUOTE_PARAMS = `[
        { position: { key: 'symbol', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: ['min(1)'] } },
        { position: { key: 'currency', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'enum(usd,eur)', options: ['default(usd)'] } }
      ]`;

/** A 4.x `meta` saying read-only or not. */
const meta = (readOnly: boolean) =>
  `meta: { isReadOnly: ${readOnly}, isConcurrencySafe: true, isDestructive: false, searchHint: 'quotes', aliases: [], alwaysLoad: false },`;

function route(method: string, path: string, extra = ''): string {
  return `{ method: '${method}', path: '${path}', description: 'A quote.', parameters: ${QUOTE_PARAMS}, ${extra} tests: [{ _description: 'eth', symbol: 'eth' }] }`;
}

/** The quotes schema: `tags` on main, and routes by name. */
function quotesSchema(tags: string[], routes: Record<string, string>): string {
  return `export const main = {
  namespace: 'quotes', name: 'Quotes', description: 'Quotes for the cache tests.', version: '4.0.0',
  root: 'https://api.quotes.test', tags: ${JSON.stringify(tags)},
  requiredServerParams: ['QUOTES_KEY'],
  headers: { 'x-api-key': '{{QUOTES_KEY}}' },
  tools: {
${Object.entries(routes)
  .map(([name, text]) => `    ${name}: ${text}`)
  .join(',\n')}
  }
};
`;
}

const STANDARD_ROUTES = {
  getQuote: route('GET', '/quote/{{symbol}}'),
  getUncached: route('GET', '/nostore/{{symbol}}'),
  getNoCache: route('GET', '/nocache/{{symbol}}'),
  getPrivate: route('GET', '/private/{{symbol}}'),
  getQuoted: route('GET', '/quoted/{{symbol}}'),
  getFailing: route('GET', '/fail/{{symbol}}'),
  postQuote: route('POST', '/quote/{{symbol}}'),
  searchQuotes: route('POST', '/search/{{symbol}}', meta(true)),
};

interface Loaded {
  catalog: Catalog;
  records: CallRecord[];
  remove: () => void;
}

const open: Loaded[] = [];
afterEach(async () => {
  for (const loaded of open.splice(0)) {
    await loaded.catalog.close();
    loaded.remove();
  }
});

/** A project with the quotes schema (and `config`), loaded against the upstream; records kept. */
async function load({
  tags = ['cacheTtlDaily'],
  routes = STANDARD_ROUTES,
  config,
  key = KEY,
  state,
}: {
  tags?: string[];
  routes?: Record<string, string>;
  config?: unknown;
  key?: string;
  state?: SharedState;
} = {}): Promise<Loaded> {
  const project = tempProject({ config });
  mkdirSync(join(project.dir, 'schemas'));
  writeFileSync(join(project.dir, 'schemas', 'quotes.mjs'), quotesSchema(tags, routes));
  const catalog = await Catalog.load({
    schemas: join(project.dir, 'schemas'),
    project: project.dir,
    env: {},
    keys: { QUOTES_KEY: key },
    upstreams: { '*': upstream.origin },
    state,
  });
  const records: CallRecord[] = [];
  catalog.onCall((record) => records.push(record));
  const loaded = { catalog, records, remove: project.remove };
  open.push(loaded);
  return loaded;
}

describe('a cacheable route', () => {
  it('answers a second identical call from the cache, sending nothing upstream', async () => {
    const { catalog, records } = await load();
    const before = upstream.hits();
    const first = await catalog.call('quotes_getQuote', { symbol: 'eth' });
    const second = await catalog.call('quotes_getQuote', { symbol: 'eth' });
    expect(upstream.hits() - before).toBe(1);
    if (!first.ok || !('content' in first)) throw new Error(`the first call failed: ${JSON.stringify(first)}`);
    expect(second).toEqual({ ok: true, status: 200, content: first.content });
    await callRecordsDelivered();
    expect(records.map((record) => record.cache)).toEqual(['miss', 'hit']);
    // A hit sent nothing: its record lists no request.
    await callRecordsDelivered();
    expect(records[1]?.requests).toEqual([]);
    await callRecordsDelivered();
    expect(records[1]?.outcome).toBe('ok');
  });

  it('keys on the checked arguments: a default written out and another key order are the same call', async () => {
    const { catalog, records } = await load();
    const before = upstream.hits();
    await catalog.call('quotes_getQuote', { symbol: 'btc' });
    await catalog.call('quotes_getQuote', { currency: 'usd', symbol: 'btc' });
    expect(upstream.hits() - before).toBe(1);
    await callRecordsDelivered();
    expect(records.map((record) => record.cache)).toEqual(['miss', 'hit']);
  });

  it('misses for different arguments, and for the same call by its reference only where the tool is the same', async () => {
    const { catalog, records } = await load();
    const before = upstream.hits();
    await catalog.call('quotes_getQuote', { symbol: 'eth' });
    await catalog.call('quotes_getQuote', { symbol: 'eth', currency: 'eur' });
    await catalog.call('quotes_getQuote', { symbol: 'sol' });
    await catalog.call('quotes/quotes.mjs::getQuote', { symbol: 'sol' });
    expect(upstream.hits() - before).toBe(3);
    await callRecordsDelivered();
    expect(records.map((record) => record.cache)).toEqual(['miss', 'miss', 'miss', 'hit']);
  });

  it('never serves an answer fetched with one key value to a call made with another, even through one shared store', async () => {
    const state = new MemoryState();
    const stored: Array<[string, string]> = [];
    const recording: SharedState = Object.assign(Object.create(state) as SharedState, {
      cacheSet: (key: string, value: string, ttlMs: number) => {
        stored.push([key, value]);
        return state.cacheSet(key, value, ttlMs);
      },
    });
    try {
      const first = await load({ state: recording });
      const other = await load({ state: recording, key: OTHER_KEY });
      const same = await load({ state: recording });
      const before = upstream.hits();
      await first.catalog.call('quotes_getQuote', { symbol: 'eth' });
      await other.catalog.call('quotes_getQuote', { symbol: 'eth' });
      await same.catalog.call('quotes_getQuote', { symbol: 'eth' });
      // The second catalog's key differs: its own request. The third's is the first's: a hit.
      expect(upstream.hits() - before).toBe(2);
      await callRecordsDelivered();
      expect([first, other, same].map(({ records }) => records[0]?.cache)).toEqual(['miss', 'miss', 'hit']);
      // The upstream saw each key once; the store never saw either, in its keys or its values.
      expect(upstream.records.slice(-2).map((entry) => entry.headers['x-api-key'])).toEqual([KEY, OTHER_KEY]);
      expect(stored).toHaveLength(2);
      for (const [key, value] of stored) {
        for (const secret of [KEY, OTHER_KEY]) {
          expect(key).not.toContain(secret);
          expect(value).not.toContain(secret);
        }
        expect(key).toMatch(/^flowguard:response:[0-9a-f]{64}$/);
      }
    } finally {
      await state.close();
    }
  });

  it('expires an entry after its lifetime (an override of 1 second; the wait is bounded)', async () => {
    const { catalog, records } = await load({ config: { cache: { overrides: { quotes: 1 } } } });
    const before = upstream.hits();
    await catalog.call('quotes_getQuote', { symbol: 'ada' });
    await catalog.call('quotes_getQuote', { symbol: 'ada' });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await catalog.call('quotes_getQuote', { symbol: 'ada' });
    await callRecordsDelivered();
    expect(records.map((record) => record.cache)).toEqual(['miss', 'hit', 'miss']);
    expect(upstream.hits() - before).toBe(2);
  });
});

describe('answers that are not kept', () => {
  it.each([
    ['no-store', 'quotes_getUncached'],
    ['no-cache (in any case, among other directives)', 'quotes_getNoCache'],
  ])('an upstream answer with Cache-Control %s is not stored', async (_label, tool) => {
    const { catalog, records } = await load();
    const before = upstream.hits();
    await catalog.call(tool, { symbol: 'eth' });
    await catalog.call(tool, { symbol: 'eth' });
    expect(upstream.hits() - before).toBe(2);
    await callRecordsDelivered();
    expect(records.map((record) => record.cache)).toEqual(['miss', 'miss']);
  });

  it('an answer whose no-store is on the second of two Cache-Control lines is not stored', async () => {
    const { catalog, records } = await load({ routes: { getTwoLines: route('GET', '/twolines/{{symbol}}') } });
    const before = upstream.hits();
    await catalog.call('quotes_getTwoLines', { symbol: 'eth' });
    await catalog.call('quotes_getTwoLines', { symbol: 'eth' });
    expect(upstream.hits() - before).toBe(2);
    await callRecordsDelivered();
    expect(records.map((record) => record.cache)).toEqual(['miss', 'miss']);
  });

  it('keeps a private answer (bound to its key), and reads a quoted argument as one directive', async () => {
    const { catalog } = await load();
    const before = upstream.hits();
    for (const tool of ['quotes_getPrivate', 'quotes_getQuoted']) {
      const first = await catalog.call(tool, { symbol: 'eth' });
      await catalog.call(tool, { symbol: 'eth' });
      // The upstream's Cache-Control is the cache's business, never part of the result.
      expect(first.ok && !('cacheControl' in first)).toBe(true);
    }
    expect(upstream.hits() - before).toBe(2);
  });

  it('does not keep a failed call', async () => {
    const { catalog, records } = await load();
    const first = await catalog.call('quotes_getFailing', { symbol: 'eth' });
    await catalog.call('quotes_getFailing', { symbol: 'eth' });
    expect(first.ok).toBe(false);
    await callRecordsDelivered();
    expect(records.map((record) => [record.outcome, record.cache])).toEqual([
      ['upstream-status', 'miss'],
      ['upstream-status', 'miss'],
    ]);
  });

  it('never caches a route that writes; a route that declares itself read-only in meta is cached whatever its method', async () => {
    const { catalog, records } = await load();
    const before = upstream.hits();
    for (const tool of ['quotes_postQuote', 'quotes_postQuote', 'quotes_searchQuotes', 'quotes_searchQuotes'])
      await catalog.call(tool, { symbol: 'eth' });
    expect(upstream.hits() - before).toBe(3);
    await callRecordsDelivered();
    expect(records.map((record) => record.cache)).toEqual(['none', 'none', 'miss', 'hit']);
  });

  it('a GET route whose meta says it is not read-only is never cached', async () => {
    const { catalog, records } = await load({ routes: { getQuote: route('GET', '/quote/{{symbol}}', meta(false)) } });
    await catalog.call('quotes_getQuote', { symbol: 'eth' });
    await catalog.call('quotes_getQuote', { symbol: 'eth' });
    await callRecordsDelivered();
    expect(records.map((record) => record.cache)).toEqual(['none', 'none']);
  });

  it('a dry run and a call with bad arguments take no part', async () => {
    const { catalog, records } = await load();
    const before = upstream.hits();
    const dry = await catalog.call('quotes_getQuote', { symbol: 'eth' }, { dryRun: true });
    const bad = await catalog.call('quotes_getQuote', { symbol: 'eth', currency: 'gbp' });
    expect(dry.ok && 'dryRun' in dry).toBe(true);
    expect(bad.ok ? null : bad.error.kind).toBe('arguments');
    expect(upstream.hits() - before).toBe(0);
    await callRecordsDelivered();
    expect(records.map((record) => record.cache)).toEqual(['none', 'none']);
  });
});

describe('lifetimes from the schema and the config', () => {
  const twice = async (loaded: Loaded, tool = 'quotes_getQuote') => {
    await loaded.catalog.call(tool, { symbol: 'eth' });
    await loaded.catalog.call(tool, { symbol: 'eth' });
    await callRecordsDelivered();
    return loaded.records.map((record) => record.cache);
  };

  it('a route with no hint is not cached by default; cache.ttlSeconds caches it', async () => {
    expect(await twice(await load({ tags: [] }))).toEqual(['none', 'none']);
    expect(await twice(await load({ tags: [], config: { cache: { ttlSeconds: 30 } } }))).toEqual(['miss', 'hit']);
  });

  it('a route preload with enabled: true caches it without any tag', async () => {
    const routes = { getQuote: route('GET', '/quote/{{symbol}}', `preload: { enabled: true, ttl: 604800 },`) };
    expect(await twice(await load({ tags: [], routes }))).toEqual(['miss', 'hit']);
  });

  it('cacheTtlRealtime caches nothing, and among several tags the shortest wins', async () => {
    expect(await twice(await load({ tags: ['cacheTtlRealtime'] }))).toEqual(['none', 'none']);
    expect(await twice(await load({ tags: ['cacheTtlStatic', 'cacheTtlRealtime'] }))).toEqual(['none', 'none']);
  });

  it('an override of 0 (by tool name, over its namespace) and cache.enabled false turn it off', async () => {
    expect(await twice(await load({ config: { cache: { overrides: { quotes: 60, quotes_getQuote: 0 } } } }))).toEqual([
      'none',
      'none',
    ]);
    expect(await twice(await load({ config: { cache: { enabled: false } } }))).toEqual(['none', 'none']);
  });
});

describe('bounds', () => {
  it('keeps at most cache.maxEntries answers in memory, the least recently used going first', async () => {
    const { catalog, records } = await load({ config: { cache: { maxEntries: 1 } } });
    for (const symbol of ['eth', 'btc', 'eth']) await catalog.call('quotes_getQuote', { symbol });
    await callRecordsDelivered();
    expect(records.map((record) => record.cache)).toEqual(['miss', 'miss', 'miss']);
  });
});

describe('a store that fails', () => {
  it('makes a miss, never a failed call', async () => {
    const broken: SharedState = Object.assign(new MemoryState(), {
      cacheGet: () => Promise.reject(new Error('store down')),
      cacheSet: () => Promise.reject(new Error('store down')),
    });
    const { catalog, records } = await load({ state: broken });
    const results = [
      await catalog.call('quotes_getQuote', { symbol: 'eth' }),
      await catalog.call('quotes_getQuote', { symbol: 'eth' }),
    ];
    expect(results.map((result) => result.ok)).toEqual([true, true]);
    await callRecordsDelivered();
    expect(records.map((record) => record.cache)).toEqual(['miss', 'miss']);
  });

  it('treats an entry it cannot read as a miss', async () => {
    const state = new MemoryState();
    const garbled: SharedState = Object.assign(Object.create(state) as SharedState, {
      cacheSet: (key: string, _value: string, ttlMs: number) => state.cacheSet(key, '{"status":"x"', ttlMs),
    });
    const { catalog, records } = await load({ state: garbled });
    await catalog.call('quotes_getQuote', { symbol: 'eth' });
    const second = await catalog.call('quotes_getQuote', { symbol: 'eth' });
    expect(second.ok).toBe(true);
    await callRecordsDelivered();
    expect(records.map((record) => record.cache)).toEqual(['miss', 'miss']);
    await state.close();
  });

  // Records a store may hold after a cut write, a hand edit or another version: each looks like
  // an entry at a glance, none is an answer the core decoded. Each is a miss, never handed on.
  it.each([
    ['a text without its value', { status: 200, content: { kind: 'text' } }],
    ['a text whose value is an object', { status: 200, content: { kind: 'text', value: { a: 1 } } }],
    ['JSON without its value', { status: 200, content: { kind: 'json' } }],
    ['an image without its bytes', { status: 200, content: { kind: 'image', mimeType: 'image/png' } }],
    ['binary whose bytes are a number', { status: 200, content: { kind: 'binary', mimeType: 'x/y', base64: 7 } }],
    ['a kind no decoder makes', { status: 200, content: { kind: 'script', value: 'x' } }],
    ['a status no answer has', { status: 1e9, content: { kind: 'empty' } }],
  ])('treats a record of %s as a miss', async (_name, record) => {
    const state = new MemoryState();
    const damaging: SharedState = Object.assign(Object.create(state) as SharedState, {
      cacheSet: (key: string, _value: string, ttlMs: number) => state.cacheSet(key, JSON.stringify(record), ttlMs),
    });
    const { catalog, records } = await load({ state: damaging });
    await catalog.call('quotes_getQuote', { symbol: 'eth' });
    const second = await catalog.call('quotes_getQuote', { symbol: 'eth' });
    expect(second.ok).toBe(true);
    expect(JSON.stringify(second)).toContain('"served"');
    await callRecordsDelivered();
    expect(records.map((entry) => entry.cache)).toEqual(['miss', 'miss']);
    await state.close();
  });
});
