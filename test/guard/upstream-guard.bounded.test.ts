// The upstream guard's table of routes (pause scope and limits per namespace and origin) is
// bounded, and dropping a route loses nothing a limit promises (docs/security.md, promise 8). The
// guard is asked as a handler's bridged request reaches it (src/http/interceptors/upstream-gate.ts:
// `admit(origin, namespace, signal)`, then `release`, then `observe` with the answer's status):
// - the attack: a schema whose reach has a wildcard origin asks for 100,000 distinct origins; the
//   guard holds at most its bound of routes, and the heap it keeps stays small (on the base, the
//   two caches kept every pair: 35 MB more for 100,000 origins, against 1.3 MB with the bound);
// - a pool at its limit keeps queuing first come first served, and holds its limit, while an
//   eviction storm drops and rebuilds its route;
// - a pause, a rate bucket and the waiters a pause stops all survive their route being dropped.

import { runInNewContext } from 'node:vm';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Admission } from '../../src/http/client.js';
import { LimitTable } from '../../src/guard/limits.js';
import { UpstreamGuard } from '../../src/guard/upstream-guard.js';
import { MemoryState } from '../../src/state/memory-state.js';

/** A fixed clock: pauses are measured against it, and no test reads the real one. */
const NOW = Date.parse('2026-11-27T12:00:00Z');
const now = () => NOW;
const TARGET = 'https://api.target.test';
const wild = (i: number) => `https://h${i}.wild.test`;

afterEach(() => vi.restoreAllMocks());

/** Lets every promise chain that can settle now settle (a turn of the event loop; no clock). */
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** An admission as the gate takes it: at once or by promise. */
const settle = (admission: Admission | Promise<Admission>) => Promise.resolve(admission);

/** A bridged request to `origin` that is admitted, answered 200 and released: what a handler's fetch costs the guard. */
async function request(guard: UpstreamGuard, origin: string, namespace: string): Promise<void> {
  const admission = await settle(guard.admit(origin, namespace, undefined));
  if (!admission.ok) throw new Error(`refused: ${admission.refusal.message}`);
  admission.release();
  await guard.observe(admission.scope, 200, undefined);
}

/** A storm of one-off origins, enough to go round a small table many times. */
async function storm(guard: UpstreamGuard, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) await request(guard, wild(i), 'wild');
}

/** How often the guard worked out the limits of `namespace` to `origin`: more than once means its route was dropped and rebuilt. */
function resolutionsOf(spy: ReturnType<typeof spyOnResolve>, namespace: string, origin: string): number {
  return spy.mock.calls.filter(([ns, at]) => ns === namespace && at === origin).length;
}
const spyOnResolve = () => vi.spyOn(LimitTable.prototype, 'resolve');

/** The heap in use after a full collection (the isolate's own: unit files run in worker threads). */
function heapUsed(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  return getHeapStatistics().used_heap_size;
}

describe('the attack: a wildcard reach asks for 100,000 distinct origins', () => {
  it('the guard keeps at most its bound of routes, and the heap it holds stays small', async () => {
    const guard = new UpstreamGuard({}, new MemoryState({ now }), { now });
    await request(guard, TARGET, 'wild');
    const before = heapUsed();
    await storm(guard, 100_000);
    const grown = heapUsed() - before;
    // At most 4,096 routes of a few hundred bytes (1.3 MB measured); unbounded, 100,000 pairs took 35 MB.
    expect(grown).toBeLessThan(8 * 2 ** 20);
    expect(guard.routesHeld).toBeGreaterThan(0);
    expect(guard.routesHeld).toBeLessThanOrEqual(4096);
  });

  it('a small bound holds after every request, and an origin in steady use keeps its route', async () => {
    const spy = spyOnResolve();
    const guard = new UpstreamGuard({}, new MemoryState({ now }), { now, maxRoutes: 16 });
    for (let i = 0; i < 2_000; i += 1) {
      await request(guard, wild(i), 'wild');
      // The schema's own origin, asked once for every few one-off ones, is never dropped.
      if (i % 4 === 0) await request(guard, TARGET, 'own');
      expect(guard.routesHeld).toBeLessThanOrEqual(16);
    }
    expect(resolutionsOf(spy, 'own', TARGET)).toBe(1);
    // The one-off origins were dropped: the first is worked out again when it comes back.
    await request(guard, wild(0), 'wild');
    expect(resolutionsOf(spy, 'wild', wild(0))).toBe(2);
  });
});

describe('a dropped route loses nothing a limit promises', () => {
  it('a pool at its limit keeps queuing first come first served across an eviction storm, and never runs more than its limit', async () => {
    const spy = spyOnResolve();
    const config = { origins: { [TARGET]: { concurrency: 2 } } };
    const guard = new UpstreamGuard(config, new MemoryState({ now }), { now, maxRoutes: 8 });
    const running: Array<{ name: string; release: () => void }> = [];
    const order: string[] = [];
    /** A request to the target, listed as running once admitted. */
    const ask = (name: string) =>
      settle(guard.admit(TARGET, 'pooled', undefined)).then((admission) => {
        if (!admission.ok) throw new Error(`${name} refused: ${admission.refusal.message}`);
        order.push(name);
        running.push({ name, release: admission.release });
      });
    const asked = [ask('a'), ask('b'), ask('c'), ask('d')];
    await Promise.all(asked.slice(0, 2));
    expect(order).toEqual(['a', 'b']);

    await storm(guard, 500);
    // The target's route was dropped by the storm; the next request works it out again and meets
    // the same pool, still full: it waits behind c and d.
    asked.push(ask('e'));
    expect(resolutionsOf(spy, 'pooled', TARGET)).toBe(2);
    await storm(guard, 500);
    expect(order).toEqual(['a', 'b']);

    // Each release hands its slot to the next in line, in the order they asked, never to more than 2 at once.
    for (const expected of [
      ['a', 'b', 'c'],
      ['a', 'b', 'c', 'd'],
      ['a', 'b', 'c', 'd', 'e'],
    ]) {
      (running.shift() as { release: () => void }).release();
      await turn();
      expect(order).toEqual(expected);
      expect(running.length).toBe(2);
      await storm(guard, 100);
    }
    await Promise.all(asked);
    for (const { release } of running) release();
  });

  it('a pause survives its route being dropped: the next request is refused, and it ends when the pause does', async () => {
    const spy = spyOnResolve();
    let clock = NOW;
    const stepped = () => clock;
    const guard = new UpstreamGuard({}, new MemoryState({ now: stepped }), { now: stepped, maxRoutes: 8 });
    const admitted = await settle(guard.admit(TARGET, 'paused', undefined));
    if (!admitted.ok) throw new Error('the first request is admitted');
    admitted.release();
    await guard.observe(admitted.scope, 429, '30');

    await storm(guard, 500);
    const refused = await settle(guard.admit(TARGET, 'paused', undefined));
    expect(resolutionsOf(spy, 'paused', TARGET)).toBe(2);
    expect(refused).toMatchObject({ ok: false, refusal: { retryAfterSeconds: 30 } });
    // Another namespace at the same origin was never paused.
    expect(await settle(guard.admit(TARGET, 'other', undefined))).toMatchObject({ ok: true });

    clock += 30_001;
    await storm(guard, 500);
    expect(await settle(guard.admit(TARGET, 'paused', undefined))).toMatchObject({ ok: true });
  });

  it('a pause that begins after a storm dropped the route stops the requests that were waiting for a slot', async () => {
    const spy = spyOnResolve();
    const config = { origins: { [TARGET]: { concurrency: 1 } } };
    const guard = new UpstreamGuard(config, new MemoryState({ now }), { now, maxRoutes: 8 });
    const holder = await settle(guard.admit(TARGET, 'waits', undefined));
    if (!holder.ok) throw new Error('the first request is admitted');
    const waiting = settle(guard.admit(TARGET, 'waits', undefined));
    await storm(guard, 500);
    // The holder's answer is a 429: its scope pauses, and the request waiting meanwhile is refused at once.
    holder.release();
    await guard.observe(holder.scope, 429, '30');
    expect(await waiting).toMatchObject({ ok: false, refusal: { retryAfterSeconds: 30 } });
    expect(await settle(guard.admit(TARGET, 'waits', undefined))).toMatchObject({ ok: false });
    expect(resolutionsOf(spy, 'waits', TARGET)).toBe(2);
  });

  it('a rate bucket survives its route being dropped: the request past the burst is still refused', async () => {
    const spy = spyOnResolve();
    const config = { origins: { [TARGET]: { requestsPerSecond: 1, burst: 2 } } };
    const guard = new UpstreamGuard(config, new MemoryState({ now }), { now, maxRoutes: 8 });
    await request(guard, TARGET, 'rated');
    await storm(guard, 500);
    await request(guard, TARGET, 'rated');
    await storm(guard, 500);
    expect(await settle(guard.admit(TARGET, 'rated', undefined))).toMatchObject({
      ok: false,
      refusal: { message: expect.stringContaining('rate limit') },
    });
    expect(resolutionsOf(spy, 'rated', TARGET)).toBe(3);
  });
});
