import { describe, expect, it } from 'vitest';
import { MemoryState } from '../../src/state/memory-state.js';
import { takeToken } from '../../src/state/shared-state.js';

describe('MemoryState', () => {
  it('a bucket gives its capacity at once, then says how long until the next token', async () => {
    let now = 1_000_000;
    const state = new MemoryState({ now: () => now });
    for (let i = 0; i < 3; i++) expect(await state.take('b', 3, 2)).toEqual({ ok: true });
    expect(await state.take('b', 3, 2)).toEqual({ ok: false, retryAfterMs: 500 });
    now += 250;
    expect(await state.take('b', 3, 2)).toEqual({ ok: false, retryAfterMs: 250 });
    now += 250;
    expect(await state.take('b', 3, 2)).toEqual({ ok: true });
    // Refill stops at capacity however long the bucket rests.
    now += 3_600_000;
    for (let i = 0; i < 3; i++) expect(await state.take('b', 3, 2)).toEqual({ ok: true });
    expect((await state.take('b', 3, 2)).ok).toBe(false);
    // Buckets are apart.
    expect(await state.take('other', 3, 2)).toEqual({ ok: true });
  });

  it('a bucket that never refills never promises a token', () => {
    const first = takeToken(undefined, 1, 0, 0);
    expect(first.result).toEqual({ ok: true });
    const second = takeToken(first.level, 1, 0, 10_000);
    expect(second.result.ok).toBe(false);
  });

  it('the later of two pauses wins, and a pause ends by itself', async () => {
    let now = 5_000;
    const state = new MemoryState({ now: () => now });
    expect(await state.pausedUntil('https://a.example')).toBeNull();
    expect(await state.pause('https://a.example', 9_000)).toBe(9_000);
    expect(await state.pause('https://a.example', 7_000)).toBe(9_000);
    expect(await state.pausedUntil('https://a.example')).toBe(9_000);
    expect(await state.pausedUntil('https://b.example')).toBeNull();
    now = 9_000;
    expect(await state.pausedUntil('https://a.example')).toBeNull();
  });

  it('the cache keeps a value for its time to live, and drops the least recently used past its bounds', async () => {
    const state = new MemoryState({ maxCacheEntries: 2 });
    await state.cacheSet('a', 'A', 60_000);
    await state.cacheSet('b', 'B', 60_000);
    expect(await state.cacheGet('a')).toBe('A');
    await state.cacheSet('c', 'C', 60_000);
    expect(await state.cacheGet('b')).toBeNull();
    expect(await state.cacheGet('a')).toBe('A');
    await state.cacheSet('z', 'Z', 0);
    expect(await state.cacheGet('z')).toBeNull();
    await state.cacheSet('short', 'S', 30);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await state.cacheGet('short')).toBeNull();
    const small = new MemoryState({ maxCacheBytes: 10 });
    await small.cacheSet('big', 'x'.repeat(11), 60_000);
    expect(await small.cacheGet('big')).toBeNull();
  });
});
