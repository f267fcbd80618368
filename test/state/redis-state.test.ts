// Issue 16, point 8: SharedState in a real Redis. Two RedisState clients (two connections, as two
// replicas have) share one token bucket, pauses and cache entries; ResilientState goes on in
// memory with one warning when Redis is killed mid-run, and back to Redis when it answers again.

import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { UpstreamGuard } from '../../src/guard/upstream-guard.js';
import { RedisState } from '../../src/state/redis-state.js';
import { ResilientState } from '../../src/state/resilient-state.js';
import { waitFor } from '../support/wait.js';
import { REDIS_INSTALLED, REDIS_MISSING, startRedis, type RedisServer } from './redis-server.js';

if (!REDIS_INSTALLED) console.warn(REDIS_MISSING);

describe.skipIf(!REDIS_INSTALLED)('RedisState and ResilientState against a real redis-server', () => {
  let redis: RedisServer;
  const opened: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const state of opened) await state.close();
    await redis.kill();
  });

  async function connected(prefix: string): Promise<RedisState> {
    // Generous command timeout: this machine is shared; the fail-fast default is for production.
    const state = new RedisState(redis.url, { keyPrefix: prefix, commandTimeoutMs: 2000 });
    opened.push(state);
    await state.connect(5000);
    return state;
  }

  it('two clients share one bucket: its capacity in all, then how long until the next token', async () => {
    const [a, b] = [await connected('t1:'), await connected('t1:')];
    const takes = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).take('origin', 4, 0.5)));
    expect(takes.filter((take) => take.ok)).toHaveLength(4);
    const refused = takes.find((take) => !take.ok);
    expect(refused && !refused.ok && refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused && !refused.ok && refused.retryAfterMs).toBeLessThanOrEqual(2000);
    // Another prefix is another deployment.
    expect((await (await connected('t2:')).take('origin', 4, 0.5)).ok).toBe(true);
  });

  it('pauses: the later wins (each pause answers the one in force), seen by both, gone once over; cache entries expire', async () => {
    const [a, b] = [await connected('t3:'), await connected('t3:')];
    const now = Date.now();
    expect(await a.pause('https://api.example.test', now + 60_000)).toBe(now + 60_000);
    expect(await b.pause('https://api.example.test', now + 30_000)).toBe(now + 60_000);
    expect(await b.pausedUntil('https://api.example.test')).toBe(now + 60_000);
    await a.pause('https://short.example.test', now + 300);
    expect(await b.pausedUntil('https://short.example.test')).toBe(now + 300);
    expect(await waitFor(() => Date.now() > now + 400, 2000)).toBe(true);
    expect(await b.pausedUntil('https://short.example.test')).toBeNull();

    await a.cacheSet('k', 'value', 60_000);
    expect(await b.cacheGet('k')).toBe('value');
    await a.cacheSet('brief', 'v', 200);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await b.cacheGet('brief')).toBeNull();
  });

  // A pause key no replica wrote so (set by hand, by another version, without its expiry): before,
  // '9e15' and '1e300' made every admission to the origin throw (RangeError: Invalid time value)
  // and a value 31 years ahead refused it for 31 years; the upstream's next 429 did not replace any
  // of them (the later pause wins, and they never expire).
  it('a pause read back past any bound a guard sets is none, and the next 429 writes over it', async () => {
    const raw = new Redis(redis.url);
    const [a, b] = [await connected('t6:'), await connected('t6:')];
    const [writer, reader] = [new UpstreamGuard({}, a), new UpstreamGuard({}, b)];
    const origin = 'https://paused.example.test';
    const scope = `${origin} namespace:ns`;
    try {
      for (const value of ['garbage', '9e15', '1e300', String(Date.now() + 10 ** 12)]) {
        await raw.set(`t6:pause:${scope}`, value);
        expect(await reader.admit(origin, 'ns', undefined), value).toMatchObject({ ok: true });
        await writer.observe(scope, 429, '30');
        expect(await raw.pttl(`t6:pause:${scope}`), value).toBeGreaterThan(0);
        const refused = await reader.admit(origin, 'ns', undefined);
        expect(refused.ok, value).toBe(false);
        expect(!refused.ok && refused.refusal.retryAfterSeconds).toBeLessThanOrEqual(30);
        await raw.del(`t6:pause:${scope}`);
      }
    } finally {
      raw.disconnect();
    }
  });

  // A pause key of another type (a hash, a list, a set: damaged, or written by hand or by a hostile
  // client of the same Redis): before, reading it failed every admission to the origin with
  // WRONGTYPE (ResilientState then put the whole replica on memory for a second at a time, with a
  // warning each time), and the next 429 could not write over it, so no replica saw the pause.
  it('a pause key of another type is no pause, and the next 429 writes over it', async () => {
    const raw = new Redis(redis.url);
    const [a, b] = [await connected('t7:'), await connected('t7:')];
    const [writer, reader] = [new UpstreamGuard({}, a), new UpstreamGuard({}, b)];
    const origin = 'https://typed.example.test';
    const scope = `${origin} namespace:ns`;
    const key = `t7:pause:${scope}`;
    const damage: Record<string, () => Promise<unknown>> = {
      hash: () => raw.hset(key, 'until', String(Date.now() + 30_000)),
      list: () => raw.rpush(key, String(Date.now() + 30_000)),
      set: () => raw.sadd(key, String(Date.now() + 30_000)),
      'sorted set': () => raw.zadd(key, 1, String(Date.now() + 30_000)),
    };
    try {
      for (const [type, write] of Object.entries(damage)) {
        await write();
        expect(await reader.admit(origin, 'ns', undefined), type).toMatchObject({ ok: true });
        await writer.observe(scope, 429, '30');
        expect(await raw.type(key), type).toBe('string');
        expect(await raw.pttl(key), type).toBeGreaterThan(0);
        const refused = await reader.admit(origin, 'ns', undefined);
        expect(refused.ok, type).toBe(false);
        expect(!refused.ok && refused.refusal.retryAfterSeconds, type).toBeLessThanOrEqual(30);
        await raw.del(key);
      }
    } finally {
      raw.disconnect();
    }
  });

  // A rate bucket no take wrote: before, one of another type or without its time failed every take
  // (WRONGTYPE, or a Lua error), and tokens of -1e300 refused every request for longer than anyone
  // lives, the key's expiry set as far.
  it('a rate bucket read back damaged is a full bucket: takes go on, and a refusal waits only what the rate says', async () => {
    const raw = new Redis(redis.url);
    const state = await connected('t8:');
    const key = 't8:bucket:rate https://bucket.example.test';
    const damage: Record<string, () => Promise<unknown>> = {
      string: () => raw.set(key, '5'),
      list: () => raw.rpush(key, '5'),
      'hash without its time': () => raw.hset(key, 'tokens', '0'),
      'tokens far below empty': () => raw.hset(key, 'tokens', '-1e300', 'at', String(Date.now())),
      'tokens not a number': () => raw.hset(key, 'tokens', 'nan', 'at', 'soon'),
    };
    try {
      for (const [what, write] of Object.entries(damage)) {
        await write();
        const takes = [];
        for (let i = 0; i < 3; i++) takes.push(await state.take('rate https://bucket.example.test', 2, 1));
        expect(
          takes.map((take) => take.ok),
          what,
        ).toEqual([true, true, false]);
        const refused = takes[2];
        expect(refused && !refused.ok && refused.retryAfterMs, what).toBeLessThanOrEqual(1000);
        expect(await raw.pttl(key), what).toBeLessThanOrEqual(3000);
        await raw.del(key);
      }
    } finally {
      raw.disconnect();
    }
  });

  it('a Redis killed mid-run: operations go on in memory with one warning, and return to Redis when it answers', async () => {
    const lines: Array<{ level: number; msg: string }> = [];
    const logger = pino(
      { level: 'info' },
      new Writable({ write: (chunk, _encoding, done) => (lines.push(JSON.parse(String(chunk))), done()) }),
    );
    const inner = new RedisState(redis.url, { keyPrefix: 't4:', commandTimeoutMs: 2000 });
    const state = new ResilientState(inner, undefined, logger);
    opened.push(state);
    await inner.connect(5000);
    const peer = await connected('t4:');
    await state.cacheSet('shared', 'in redis', 60_000);
    expect(await peer.cacheGet('shared')).toBe('in redis');

    await redis.kill();
    for (let i = 0; i < 20; i++) {
      await state.cacheSet(`local${i}`, 'in memory', 60_000);
      expect(await state.cacheGet(`local${i}`)).toBe('in memory');
      expect((await state.take('bucket', 100, 1)).ok).toBe(true);
    }
    const warnings = () => lines.filter((line) => line.level === 40);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]?.msg).toContain('redis is not answering');

    // Back: the client reconnects by itself (at most a second apart); the next operation uses Redis again.
    await redis.restart();
    const until = Date.now() + 15_000;
    let seen: string | null = null;
    while (seen === null && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await state.cacheSet('after', 'in redis again', 60_000);
      seen = await peer.cacheGet('after').catch(() => null);
    }
    expect(seen).toBe('in redis again');
    expect(lines.some((line) => line.level === 30 && line.msg.includes('answers again'))).toBe(true);
    expect(warnings()).toHaveLength(1);
  });
});
