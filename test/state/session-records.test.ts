// Issue 28, point 4: the session records replicas share (SharedState.sessions) in a real Redis.
// Two RedisState clients (two replicas' connections) see one record; touching says whether it is
// still there; a dropped or expired record is gone for both. Behind ResilientState a Redis that
// does not answer never fails a request: a record is not stored, not found, and one already
// shared counts as live (unknown), so a session held by a replica is not ended by an outage.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryState } from '../../src/state/memory-state.js';
import { RedisState } from '../../src/state/redis-state.js';
import { ResilientState } from '../../src/state/resilient-state.js';
import { waitFor } from '../support/wait.js';
import { REDIS_INSTALLED, REDIS_MISSING, startRedis, type RedisServer } from './redis-server.js';

if (!REDIS_INSTALLED) console.warn(REDIS_MISSING);

it("a process's own memory shares no session records: its sessions are in its own table", () => {
  expect(new MemoryState().sessions).toBeNull();
});

describe.skipIf(!REDIS_INSTALLED)('session records in a real redis-server', () => {
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
    const state = new RedisState(redis.url, { keyPrefix: prefix, commandTimeoutMs: 2000 });
    opened.push(state);
    await state.connect(5000);
    return state;
  }

  it('one record for both replicas: stored by one, read and touched by the other, gone for both once dropped', async () => {
    const [a, b] = [await connected('s1:'), await connected('s1:')];
    expect(await a.sessions.put('id-1', '{"record":1}', 60_000)).toBe(true);
    expect(await b.sessions.get('id-1')).toBe('{"record":1}');
    expect(await b.sessions.touch('id-1', 60_000)).toBe('live');
    await b.sessions.drop('id-1');
    expect(await a.sessions.get('id-1')).toBeNull();
    expect(await a.sessions.touch('id-1', 60_000)).toBe('gone');
    // Another prefix is another deployment.
    await a.sessions.put('id-2', 'x', 60_000);
    expect(await (await connected('s2:')).sessions.get('id-2')).toBeNull();
  });

  it('a record expires unless touched, and a touch keeps it', async () => {
    const state = await connected('s3:');
    await state.sessions.put('brief', 'r', 300);
    await state.sessions.put('kept', 'r', 300);
    expect(await state.sessions.touch('kept', 60_000)).toBe('live');
    expect(await waitFor(async () => (await state.sessions.get('brief')) === null, 5000, 50)).toBe(true);
    expect(await state.sessions.get('kept')).toBe('r');
  });

  it('behind ResilientState, a Redis that does not answer fails nothing: not stored, not found, liveness unknown', async () => {
    const inner = new RedisState(redis.url, { keyPrefix: 's4:', commandTimeoutMs: 2000 });
    const state = new ResilientState(inner);
    opened.push(state);
    await inner.connect(5000);
    expect(await state.sessions.put('id', 'r', 60_000)).toBe(true);
    expect(await state.sessions.touch('id', 60_000)).toBe('live');
    await redis.kill();
    expect(await state.sessions.put('new', 'r', 60_000)).toBe(false);
    expect(await state.sessions.get('id')).toBeNull();
    expect(await state.sessions.touch('id', 60_000)).toBe('unknown');
    await expect(state.sessions.drop('id')).resolves.toBeUndefined();
  });
});
