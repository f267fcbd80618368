// Issue 16, point 5: the upstream guard through Catalog.load and call, against a real loopback
// upstream (an `upstreams` override stands for the schema's origin). A 429 with Retry-After
// pauses the origin: calls meanwhile answer at once with a 'rate-limited' error saying when to
// retry, and the upstream sees no request until the pause is over. Rate and concurrency limits
// from the config, for the core's own requests and for executeRequest's bridged ones.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import type { CallResult, ToolError } from '../../src/call/outcome.js';
import { retryAfterUntil } from '../../src/guard/retry-after.js';
import { UpstreamGuard } from '../../src/guard/upstream-guard.js';
import { MemoryState } from '../../src/state/memory-state.js';
import { tempProject } from '../kit/project.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { waitFor } from '../support/wait.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ORIGIN = 'https://api.guarded.test';
const SCHEMA = `export const main = {
  namespace: 'guarded', name: 'Guarded', description: 'An API that rate limits.', version: '2.0.0',
  root: '${ORIGIN}',
  routes: {
    get: { method: 'GET', path: '/things/{{mode}}', description: 'One thing.', parameters: [{ position: { key: 'mode', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: [] } }], tests: [{ _description: 'a', mode: 'ok' }] },
    bridged: { method: 'GET', path: '/things/ok', description: 'Fetches through the core.', parameters: [], tests: [{ _description: 'a' }] }
  }
};
export const handlers = () => ({
  bridged: {
    executeRequest: async ({ struct, payload }) => {
      const answer = await fetch(payload.url);
      struct.data = await answer.json();
      return { struct };
    }
  }
});
`;

/** What the upstream answers by the path's last segment: `busy` a 429 with Retry-After 2, `unavailable` a 503 without, `slow` when the test lets it; else 200. */
let upstream: Upstream;
let inFlight = 0;
let mostInFlight = 0;
const held: Array<() => void> = [];

beforeAll(async () => {
  upstream = await startUpstream((req, res) => {
    const mode = req.url?.split('/').pop();
    if (mode === 'busy') {
      res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '2' }).end('slow down');
      return;
    }
    if (mode === 'unavailable') {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('down');
      return;
    }
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    const answer = () => {
      inFlight--;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    };
    if (mode === 'slow') held.push(answer);
    else answer();
  });
});

const open: Array<{ catalog: Catalog; remove: () => void }> = [];
afterEach(async () => {
  for (const { catalog, remove } of open.splice(0)) {
    await catalog.close();
    remove();
  }
});
afterAll(() => upstream.close());

async function load(config: unknown = {}): Promise<Catalog> {
  const project = tempProject({ config });
  mkdirSync(join(project.dir, 'schemas'));
  writeFileSync(join(project.dir, 'schemas', 'guarded.mjs'), SCHEMA);
  const catalog = await Catalog.load({
    schemas: join(project.dir, 'schemas'),
    project: project.dir,
    env: {},
    upstreams: { '*': upstream.origin },
    sandbox: { size: 1 },
  });
  open.push({ catalog, remove: project.remove });
  return catalog;
}

function refusal(result: CallResult): ToolError {
  expect(result.ok).toBe(false);
  if (result.ok) throw new Error('expected a failure');
  return result.error;
}

const get = (catalog: Catalog, mode: string) => catalog.call('guarded_get', { mode });

describe('a 429 with Retry-After pauses its origin', () => {
  it('calls meanwhile answer at once with when to retry, and the upstream sees no request until the pause is over', async () => {
    const catalog = await load();
    const first = refusal(await get(catalog, 'busy'));
    expect(first).toMatchObject({ kind: 'upstream-status', status: 429, retryAfter: '2' });
    const seen = upstream.hits();
    const paused = refusal(await get(catalog, 'ok'));
    expect(paused.kind).toBe('rate-limited');
    expect(paused.message).toContain(`${ORIGIN} asked for a pause`);
    expect(paused.message).toContain('nothing was sent');
    expect(Number(paused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(paused.retryAfter)).toBeLessThanOrEqual(2);
    // executeRequest's requests to the paused origin are held back too, and the call says so.
    const bridged = refusal(await catalog.call('guarded_bridged', {}));
    expect(bridged.kind).toBe('rate-limited');
    expect(upstream.hits()).toBe(seen);
    // Calls until the pause is over reach nothing; then the next one goes out (bounded: the pause is 2 s).
    const until = Date.now() + 10_000;
    let result: CallResult;
    do {
      await new Promise((resolve) => setTimeout(resolve, 100));
      result = await get(catalog, 'ok');
      if (!result.ok) expect(upstream.hits()).toBe(seen);
    } while (!result.ok && Date.now() < until);
    expect(result.ok).toBe(true);
    expect(upstream.hits()).toBe(seen + 1);
  });

  it('a Retry-After past upstreamLimits.maxPauseSeconds is capped; 0 never pauses; a 503 without Retry-After does not pause', async () => {
    const capped = await load({ upstreamLimits: { maxPauseSeconds: 1 } });
    refusal(await capped.call('guarded_get', { mode: 'busy' }));
    // The fake asks for 2 s; the config caps the pause at 1.
    expect(refusal(await get(capped, 'ok')).retryAfter).toBe('1');

    const never = await load({ upstreamLimits: { maxPauseSeconds: 0 } });
    refusal(await get(never, 'busy'));
    expect((await get(never, 'ok')).ok).toBe(true);

    const plain = await load();
    expect(refusal(await get(plain, 'unavailable'))).toMatchObject({ kind: 'upstream-status', status: 503 });
    expect((await get(plain, 'ok')).ok).toBe(true);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterUntil('120', now)).toBe(now + 120_000);
    expect(retryAfterUntil('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(now + 30_000);
    expect(retryAfterUntil('soon', now)).toBeNull();
    expect(retryAfterUntil(undefined, now)).toBeNull();
  });
});

describe('rate limits', () => {
  it('an origin entry: the burst goes out, the next call is refused with when to retry and sends nothing', async () => {
    const catalog = await load({ upstreamLimits: { origins: { [ORIGIN]: { requestsPerSecond: 0.2, burst: 2 } } } });
    const before = upstream.hits();
    expect((await get(catalog, 'ok')).ok).toBe(true);
    expect((await get(catalog, 'ok')).ok).toBe(true);
    const refused = refusal(await get(catalog, 'ok'));
    expect(refused.kind).toBe('rate-limited');
    expect(refused.message).toContain(`upstreamLimits.origins["${ORIGIN}"]`);
    expect(refused.retryAfter).toBe('5');
    // Bridged requests count in the same bucket.
    expect(refusal(await catalog.call('guarded_bridged', {})).kind).toBe('rate-limited');
    expect(upstream.hits() - before).toBe(2);
  });

  it('a namespace entry applies where no origin entry does; the default entry to the rest', async () => {
    const byNamespace = await load({
      upstreamLimits: { namespaces: { guarded: { requestsPerSecond: 0.5, burst: 1 } } },
    });
    expect((await get(byNamespace, 'ok')).ok).toBe(true);
    expect(refusal(await get(byNamespace, 'ok')).message).toContain('upstreamLimits.namespaces.guarded');
    const byDefault = await load({
      upstreamLimits: {
        default: { requestsPerSecond: 0.5, burst: 1 },
        namespaces: { other: { requestsPerSecond: 100 } },
      },
    });
    expect((await get(byDefault, 'ok')).ok).toBe(true);
    expect(refusal(await get(byDefault, 'ok')).message).toContain('upstreamLimits.default');
  });
});

describe('concurrency limits', () => {
  it('requests beyond the limit wait their turn: the upstream never has more at once, and every call is answered', async () => {
    const catalog = await load({ upstreamLimits: { origins: { [ORIGIN]: { concurrency: 2 } } } });
    mostInFlight = 0;
    const calls = Array.from({ length: 5 }, () => get(catalog, 'slow'));
    for (let answered = 0; answered < 5; answered++) {
      expect(await waitFor(() => held.length > 0, 10_000)).toBe(true);
      held.shift()?.();
    }
    const results = await Promise.all(calls);
    expect(results.every((result) => result.ok)).toBe(true);
    expect(mostInFlight).toBe(2);
  });
});

describe('admission without waiting a turn', () => {
  const origin = 'https://api.example.com';
  /** The memory state seen as a store that answers only by promise (as Redis does). */
  const remoteLike = (state: MemoryState) => ({
    take: state.take.bind(state),
    pause: state.pause.bind(state),
    pausedUntil: state.pausedUntil.bind(state),
    cacheGet: state.cacheGet.bind(state),
    cacheSet: state.cacheSet.bind(state),
    sessions: null,
    close: state.close.bind(state),
  });

  it('with the state in memory, a request nothing holds back is admitted at once, and a paused scope refused at once', async () => {
    const state = new MemoryState();
    const guard = new UpstreamGuard({}, state);
    const admission = guard.admit(origin, 'ns', undefined);
    expect(admission).not.toBeInstanceOf(Promise);
    expect(admission).toMatchObject({ ok: true, scope: `${origin} namespace:ns` });
    if (!(admission instanceof Promise) && admission.ok) admission.release();
    await guard.observe(`${origin} namespace:ns`, 429, '30');
    const paused = guard.admit(origin, 'ns', undefined);
    expect(paused).not.toBeInstanceOf(Promise);
    expect(paused).toMatchObject({ ok: false, refusal: { retryAfterSeconds: 30 } });
  });

  // Retry-After forms no sensible server sends: each pause is bounded by maxPauseSeconds (default
  // 300 s); a header that is no form pauses 1 s; one in the past pauses nothing.
  it.each([
    ['400 digits', '9'.repeat(400), 300],
    ['a date in the year 9999', 'Fri, 31 Dec 9999 23:59:59 GMT', 300],
    ['a negative number', '-5', 1],
    ['seconds with a fraction', '1.5', 1],
    ['a date in the past', 'Thu, 01 Jan 1970 00:00:00 GMT', null],
  ])('Retry-After of %s pauses a bounded time', async (_name, header, seconds) => {
    const guard = new UpstreamGuard({}, new MemoryState());
    await guard.observe(`${origin} namespace:ns`, 429, header);
    const admission = guard.admit(origin, 'ns', undefined);
    if (seconds === null) expect(admission).toMatchObject({ ok: true });
    else expect(admission).toMatchObject({ ok: false, refusal: { retryAfterSeconds: seconds } });
  });

  it('a state that answers by promise, a rate limit or a full pool: the admission is a promise, with the same answers', async () => {
    const remote = new UpstreamGuard({}, remoteLike(new MemoryState()));
    const byPromise = remote.admit(origin, 'ns', undefined);
    expect(byPromise).toBeInstanceOf(Promise);
    expect(await byPromise).toMatchObject({ ok: true, scope: `${origin} namespace:ns` });
    const rated = new UpstreamGuard({ default: { requestsPerSecond: 1, burst: 1 } }, new MemoryState());
    expect(rated.admit(origin, 'ns', undefined)).toBeInstanceOf(Promise);
    expect(await rated.admit(origin, 'ns', undefined)).toMatchObject({ ok: false });
    const single = new UpstreamGuard({ default: { concurrency: 1 } }, new MemoryState());
    const first = single.admit(origin, 'ns', undefined);
    expect(first).toMatchObject({ ok: true });
    const second = single.admit(origin, 'ns', undefined);
    expect(second).toBeInstanceOf(Promise);
    if (!(first instanceof Promise) && first.ok) first.release();
    expect(await second).toMatchObject({ ok: true });
  });
});
