// The response cache's entries in a real Redis, read back as a hostile peer or a damaged store
// leaves them: the standard the pause keys got (test/state/redis-state.test.ts). A real catalog
// over ResilientState(RedisState), as `serve --redis` opens it, a loopback upstream that counts
// what it serves, and a second Redis connection standing for the peer that rewrites the entry
// the first call stored. Whatever the entry holds: the call is answered by the upstream, the
// replica keeps its shared state in Redis (no "redis is not answering" switch to memory, which
// would unshare pauses and rate buckets), and the next answer writes over the entry.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CallRecord } from '../../src/call/record.js';
import { Catalog } from '../../src/runtime/catalog.js';
import { startHttpServer } from '../../src/edge/http.js';
import type { CallResult } from '../../src/call/outcome.js';
import { MemoryState } from '../../src/state/memory-state.js';
import { RedisState } from '../../src/state/redis-state.js';
import { ResilientState } from '../../src/state/resilient-state.js';
import { connectHttp } from '../kit/mcp.js';
import { tempProject } from '../kit/project.js';
import { REDIS_INSTALLED, REDIS_MISSING, startRedis, type RedisServer } from '../state/redis-server.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { callRecordsDelivered } from '../support/wait.js';

if (!REDIS_INSTALLED) console.warn(REDIS_MISSING);

const SCHEMA = `export const main = {
  namespace: 'quotes', name: 'Quotes', description: 'Quotes for the cache tests.', version: '4.0.0',
  root: 'https://api.quotes.test', tags: ['cacheTtlDaily'],
  requiredServerParams: ['QUOTES_KEY'],
  headers: { 'x-api-key': '{{QUOTES_KEY}}' },
  tools: {
    getQuote: { method: 'GET', path: '/quote/{{symbol}}', description: 'A quote.',
      parameters: [{ position: { key: 'symbol', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: ['min(1)'] } }],
      tests: [{ _description: 'eth', symbol: 'eth' }] }
  }
};
`;

/** What a peer writes over the entry, by the Redis commands that write it. */
type Damage = (redis: Redis, key: string) => Promise<unknown>;

/** An answer decoding could have made, padded with JSON white space to `bytes`: valid whatever its size. */
function paddedAnswer(bytes: number): string {
  const answer = JSON.stringify({ status: 200, content: { kind: 'text', value: 'planted' } });
  return answer + ' '.repeat(Math.max(0, bytes - answer.length));
}

/** What a call answered (a hit lists no requests, so results are compared by this). */
function contentOf(result: CallResult): unknown {
  return result.ok ? result.content : result.error;
}

/** The bound of one entry the test's RedisState reads (the default is 64 MiB; a smaller one keeps the test light). */
const ENTRY_BOUND = 256 * 1024;

describe.skipIf(!REDIS_INSTALLED)('response-cache entries in Redis written by a hostile peer', () => {
  let redis: RedisServer;
  let peer: Redis;
  let upstream: Upstream;
  let served = 0;
  /** The upstream answers 503, an answer no cache keeps, while set. */
  let failing = false;
  const open: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    redis = await startRedis();
    peer = new Redis(redis.url);
    upstream = await startUpstream((_req, res, entry) => {
      if (failing) return void res.writeHead(503, { 'content-type': 'application/json' }).end('{"busy":true}');
      served += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ served, url: entry.url }));
    });
  });
  afterEach(async () => {
    for (const close of open.splice(0)) await close();
    await peer.flushall();
  });
  afterAll(async () => {
    peer.disconnect();
    await upstream.close();
    await redis.kill();
  });

  /** A catalog over Redis as `serve --redis` opens it; its warnings and call records kept. */
  async function load(): Promise<{ catalog: Catalog; records: CallRecord[]; warnings: string[] }> {
    const warnings: string[] = [];
    const logger = pino(
      { level: 'warn' },
      new Writable({ write: (chunk: Buffer, _encoding, done) => void (warnings.push(chunk.toString()), done()) }),
    );
    const store = new RedisState(redis.url, { commandTimeoutMs: 2000, maxCacheEntryBytes: ENTRY_BOUND });
    await store.connect(5000);
    const state = new ResilientState(store, new MemoryState(), logger);
    const project = tempProject();
    mkdirSync(join(project.dir, 'schemas'));
    writeFileSync(join(project.dir, 'schemas', 'quotes.mjs'), SCHEMA);
    const catalog = await Catalog.load({
      schemas: join(project.dir, 'schemas'),
      project: project.dir,
      env: {},
      keys: { QUOTES_KEY: 'quotes-key-value-0123456789' },
      upstreams: { '*': upstream.origin },
      state,
    });
    const records: CallRecord[] = [];
    catalog.onCall((record) => records.push(record));
    open.push(async () => {
      await catalog.close();
      await state.close();
      project.remove();
    });
    return { catalog, records, warnings };
  }

  /** The one response-cache entry in Redis (the first call stored it). */
  async function entryKey(): Promise<string> {
    const keys = await peer.keys('*cache:*');
    expect(keys).toHaveLength(1);
    return keys[0] as string;
  }

  it.each<[string, Damage]>([
    ['a hash', (r, key) => r.del(key).then(() => r.hset(key, 'status', '200'))],
    ['a list', (r, key) => r.del(key).then(() => r.rpush(key, '{"status":200}'))],
    ['a set', (r, key) => r.del(key).then(() => r.sadd(key, 'x'))],
    ['a stream', (r, key) => r.del(key).then(() => r.xadd(key, '*', 'status', '200'))],
  ])(
    'an entry of another type (%s) is a miss: no switch to memory, and the next answer writes over it',
    async (_type, damage) => {
      const { catalog, records, warnings } = await load();
      await catalog.call('quotes_getQuote', { symbol: 'eth' });
      const key = await entryKey();
      await damage(peer, key);
      const second = await catalog.call('quotes_getQuote', { symbol: 'eth' });
      expect(second.ok).toBe(true);
      expect(JSON.stringify(second)).toContain('"served"');
      const third = await catalog.call('quotes_getQuote', { symbol: 'eth' });
      expect(contentOf(third)).toEqual(contentOf(second));
      expect(await peer.type(key)).toBe('string');
      await callRecordsDelivered();
      expect(records.map((record) => record.cache)).toEqual(['miss', 'miss', 'hit']);
      expect(warnings.join('')).not.toContain('redis is not answering');
    },
  );

  it('an entry past the bound of one entry is a miss, even when it is a valid answer, and the next answer writes over it', async () => {
    const { catalog, records, warnings } = await load();
    await catalog.call('quotes_getQuote', { symbol: 'eth' });
    const key = await entryKey();
    // Within the bound the planted answer is read (a peer with the store's password can write
    // answers: the store is trusted as the config is); past it, it is never read whole.
    await peer.set(key, paddedAnswer(ENTRY_BOUND), 'PX', 60_000);
    const planted = await catalog.call('quotes_getQuote', { symbol: 'eth' });
    expect(JSON.stringify(planted)).toContain('planted');
    await peer.set(key, paddedAnswer(ENTRY_BOUND + 1), 'PX', 60_000);
    const fresh = await catalog.call('quotes_getQuote', { symbol: 'eth' });
    expect(fresh.ok).toBe(true);
    expect(JSON.stringify(fresh)).not.toContain('planted');
    expect(JSON.stringify(fresh)).toContain('"served"');
    await callRecordsDelivered();
    expect(await peer.strlen(key)).toBeLessThan(1000);
    expect(records.map((record) => record.cache)).toEqual(['miss', 'hit', 'miss']);
    expect(warnings.join('')).not.toContain('redis is not answering');
  });

  // A seventh review: the bound holds when nothing writes over the entry (the upstream's answers
  // are errors, which no cache keeps): every lookup stays a miss, the planted answer never served.
  it('an entry past the bound stays a miss while no answer writes over it', async () => {
    const { catalog, records, warnings } = await load();
    await catalog.call('quotes_getQuote', { symbol: 'eth' });
    const key = await entryKey();
    await peer.set(key, paddedAnswer(ENTRY_BOUND + 1), 'PX', 60_000);
    failing = true;
    try {
      for (let round = 0; round < 3; round++) {
        const answer = await catalog.call('quotes_getQuote', { symbol: 'eth' });
        expect(answer.ok).toBe(false);
        expect(JSON.stringify(answer)).not.toContain('planted');
      }
    } finally {
      failing = false;
    }
    expect(await peer.strlen(key)).toBe(ENTRY_BOUND + 1);
    await callRecordsDelivered();
    expect(records.map((record) => record.cache)).toEqual(['miss', 'miss', 'miss', 'miss']);
    expect(warnings.join('')).not.toContain('redis is not answering');
  });

  // An eleventh review: an answer nested deeper than decoding reads any (http.maxJsonDepth, 256 by
  // default) is no answer decoding could have made. Served, it failed every call of these
  // arguments for the entry's lifetime: the MCP result, the call record's readers and anything
  // else that writes it out recurse through it and run out of stack (5,000 levels are enough).
  it('an entry nested deeper than decoding reads is a miss, over MCP too, and the next answer writes over it', async () => {
    const { catalog, records, warnings } = await load();
    const server = await startHttpServer(catalog, { port: 0, log: () => undefined });
    open.push(() => server.close());
    const { client } = await connectHttp(server.url);
    open.push(() => client.close());
    const call = () => client.callTool({ name: 'quotes_getQuote', arguments: { symbol: 'eth' } });
    await call();
    const key = await entryKey();
    const deep = `{"status":200,"content":{"kind":"json","value":${'['.repeat(5_000)}${']'.repeat(5_000)}}}`;
    await peer.set(key, deep, 'PX', 60_000);
    const second = await call();
    expect(second.isError, JSON.stringify(second).slice(0, 300)).toBeFalsy();
    expect(JSON.stringify(second.content)).toContain('served');
    expect(await peer.strlen(key)).toBeLessThan(1000);
    expect((await call()).content).toEqual(second.content);
    await callRecordsDelivered();
    expect(records.map((record) => record.cache)).toEqual(['miss', 'miss', 'hit']);
    expect(warnings.join('')).not.toContain('redis is not answering');
  });

  it.each([
    ['cut', '{"status":200,"content":{"kind":"te'],
    ['not JSON', '\u0000\u00ff garbage'],
    ['an error written as an answer', JSON.stringify({ ok: false, error: { kind: 'upstream-status', message: 'x' } })],
    ['empty', ''],
  ])('an entry that is %s is a miss, and the next answer writes over it', async (_name, text) => {
    const { catalog, records, warnings } = await load();
    await catalog.call('quotes_getQuote', { symbol: 'eth' });
    const key = await entryKey();
    await peer.set(key, text, 'PX', 60_000);
    const second = await catalog.call('quotes_getQuote', { symbol: 'eth' });
    expect(JSON.stringify(second)).toContain('"served"');
    await callRecordsDelivered();
    expect(contentOf(await catalog.call('quotes_getQuote', { symbol: 'eth' }))).toEqual(contentOf(second));
    await callRecordsDelivered();
    expect(records.map((record) => record.cache)).toEqual(['miss', 'miss', 'hit']);
    expect(warnings.join('')).not.toContain('redis is not answering');
  });
});
