// The upstream gate (its admission around the policy chain, its answer policy in it), on a plain
// undici Agent against a loopback server, with a gate the test controls (what it admits, when,
// and what it does with an answer); then the real
// UpstreamGuard as the gate of an HttpClient: a 429 with Retry-After pauses what follows, and
// the time a request waits for its turn is not taken from its total deadline.

import type { Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamGuard } from '../../src/guard/upstream-guard.js';
import { HttpClient } from '../../src/http/client.js';
import { HttpError, RefusedError } from '../../src/http/errors.js';
import {
  gateAnswer,
  GateFailure,
  upstreamGate,
  type Admission,
  type UpstreamGate,
} from '../../src/http/interceptors/upstream-gate.js';
import { MemoryState } from '../../src/state/memory-state.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { waitFor } from '../support/wait.js';
import { composed, dispatchThrough } from './dispatch-kit.js';

let server: Upstream;
const chain = composed([gateAnswer()], {}, upstreamGate());

beforeAll(async () => {
  server = await startUpstream((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/busy')
      return void res.writeHead(429, { 'retry-after': '120', 'content-type': 'text/plain' }).end('slow down');
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
});

afterAll(async () => {
  await chain.close();
  await server.close();
});

/** A gate that admits or refuses as told, counts releases, and records what it observed. */
function testGate(
  admit: () => Admission | Promise<Admission>,
): UpstreamGate & { released: number; observed: Array<[string, number, string | undefined]> } {
  const gate = {
    released: 0,
    observed: [] as Array<[string, number, string | undefined]>,
    admit,
    observe: (scope: string, status: number, retryAfter: string | undefined) => {
      gate.observed.push([scope, status, retryAfter]);
      return null;
    },
  };
  return gate;
}
const admitted = (gate: { released: number }): Promise<Admission> =>
  Promise.resolve({ ok: true, scope: 'scope-1', release: () => void gate.released++ });
const gated = (by: UpstreamGate, path: string, signal?: AbortSignal) =>
  dispatchThrough(chain.dispatcher, {
    origin: server.origin,
    path,
    gate: { by, origin: 'https://api.example.com', namespace: 'ns', signal },
  });

describe('upstreamGate', () => {
  it('a refused request sends nothing and fails with the refusal', async () => {
    const before = server.hits();
    const gate = testGate(() =>
      Promise.resolve({ ok: false, refusal: { message: 'paused; retry after 3 s', retryAfterSeconds: 3 } }),
    );
    const outcome = await gated(gate, '/');
    expect(outcome.error).toBeInstanceOf(RefusedError);
    expect((outcome.error as RefusedError).refusal).toEqual({
      message: 'paused; retry after 3 s',
      retryAfterSeconds: 3,
    });
    expect((outcome.error as HttpError).kind).toBe('rate-limited');
    expect(server.hits()).toBe(before);
  });

  it('an admitted request is released once, after its answer, which the gate reads', async () => {
    const gate = testGate(() => admitted(gate));
    const outcome = await gated(gate, '/busy');
    expect(outcome.status).toBe(429);
    expect(gate.released).toBe(1);
    expect(gate.observed).toEqual([['scope-1', 429, '120']]);
  });

  it('a failed exchange is released too', async () => {
    const gate = testGate(() => admitted(gate));
    const outcome = await dispatchThrough(chain.dispatcher, {
      origin: 'http://127.0.0.1:1',
      path: '/',
      gate: { by: gate, origin: 'https://api.example.com', namespace: 'ns', signal: undefined },
    });
    expect(outcome.error).not.toBeNull();
    expect(gate.released).toBe(1);
  });

  it('the caller hears the answer only once the gate has recorded what it says', async () => {
    const order: string[] = [];
    let recorded: (() => void) | undefined;
    const gate: UpstreamGate = {
      admit: () => Promise.resolve({ ok: true, scope: 's', release: () => undefined }),
      observe: () =>
        new Promise<number | null>((resolve) => (recorded = () => (order.push('recorded'), resolve(null)))),
    };
    const answer = gated(gate, '/busy').then((outcome) => (order.push('heard'), outcome));
    // The answer is complete (the gate is reading it), and still the caller waits for the gate.
    expect(await waitFor(() => recorded !== undefined)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]);
    recorded?.();
    expect((await answer).status).toBe(429);
    expect(order).toEqual(['recorded', 'heard']);
  });

  it('a caller that gave up while the request waited its turn sends nothing', async () => {
    const before = server.hits();
    const controller = new AbortController();
    let letGo: () => void = () => undefined;
    const gate = testGate(
      () =>
        new Promise<Admission>(
          (resolve) => (letGo = () => resolve({ ok: true, scope: 's', release: () => void gate.released++ })),
        ),
    );
    const outcome = gated(gate, '/', controller.signal);
    controller.abort();
    letGo();
    expect((await outcome).error?.message).toBe('request aborted by the caller');
    expect(gate.released).toBe(1);
    expect(server.hits()).toBe(before);
  });

  it('a gate that answers at once lets the request go in the same turn', () => {
    const sent: string[] = [];
    const dispatch = upstreamGate()((options) => (sent.push(options.path), true));
    const gate = testGate(() => ({ ok: true, scope: 's', release: () => undefined }));
    dispatch(
      {
        origin: server.origin,
        path: '/now',
        method: 'GET',
        gate: { by: gate, origin: 'https://api.example.com', namespace: 'ns', signal: undefined },
      } as Dispatcher.DispatchOptions,
      {},
    );
    expect(sent).toEqual(['/now']);
  });

  it('a request a gate admitted at once is released once, after its answer, which the gate reads', async () => {
    const gate = testGate(() => ({ ok: true, scope: 'scope-1', release: () => void gate.released++ }));
    const outcome = await gated(gate, '/busy');
    expect(outcome.status).toBe(429);
    expect(gate.released).toBe(1);
    expect(gate.observed).toEqual([['scope-1', 429, '120']]);
  });

  it('a gate that refuses at once sends nothing and fails with the refusal', async () => {
    const before = server.hits();
    const gate = testGate(() => ({ ok: false, refusal: { message: 'paused; retry after 2 s', retryAfterSeconds: 2 } }));
    const outcome = await gated(gate, '/');
    expect(outcome.error).toBeInstanceOf(RefusedError);
    expect((outcome.error as RefusedError).refusal.retryAfterSeconds).toBe(2);
    expect(server.hits()).toBe(before);
  });

  it('a gate that throws sends nothing, and the caller hears the failure of the gate', async () => {
    const before = server.hits();
    const cause = new Error('state unreachable');
    const gate = testGate(() => {
      throw cause;
    });
    const outcome = await gated(gate, '/');
    expect(outcome.error).toBeInstanceOf(GateFailure);
    expect((outcome.error as GateFailure).failure).toBe(cause);
    expect(server.hits()).toBe(before);
  });

  it('a request without a gate passes through', async () => {
    const outcome = await dispatchThrough(chain.dispatcher, { origin: server.origin, path: '/' });
    expect(outcome.body.toString()).toBe('ok');
  });
});

describe('the UpstreamGuard as the gate of an HttpClient', () => {
  it('a 429 with Retry-After pauses the next request of the same namespace and origin, not another namespace', async () => {
    const guard = new UpstreamGuard({}, new MemoryState());
    const client = new HttpClient({}, { allowPrivate: true });
    const origin = 'https://api.example.com';
    try {
      const busy = await client.request(
        { method: 'GET', url: `${server.origin}/busy`, headers: {} },
        { origin, guard: { by: guard, namespace: 'a' } },
      );
      expect(busy.status).toBe(429);
      const before = server.hits();
      const refused = await client
        .request(
          { method: 'GET', url: `${server.origin}/`, headers: {} },
          { origin, guard: { by: guard, namespace: 'a' } },
        )
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(RefusedError);
      expect((refused as RefusedError).refusal.message).toMatch(
        /^https:\/\/api\.example\.com asked for a pause \(429 or 503 with Retry-After\) until .*; nothing was sent; retry after 1[12]\d s$/,
      );
      expect(server.hits()).toBe(before);
      const other = await client.request(
        { method: 'GET', url: `${server.origin}/`, headers: {} },
        { origin, guard: { by: guard, namespace: 'b' } },
      );
      expect(other.status).toBe(200);
    } finally {
      await client.close();
    }
  });

  it('the total deadline starts when the gate lets a request go, not while it waits its turn', async () => {
    const gate = testGate(
      () =>
        new Promise<Admission>((resolve) =>
          setTimeout(() => resolve({ ok: true, scope: 's', release: () => void gate.released++ }), 600),
        ),
    );
    const client = new HttpClient({ totalTimeoutMs: 300 }, { allowPrivate: true });
    try {
      const answer = await client.request(
        { method: 'GET', url: `${server.origin}/`, headers: {} },
        { origin: 'https://api.example.com', guard: { by: gate, namespace: 'a' } },
      );
      expect(answer.body.toString()).toBe('ok');
      expect(gate.released).toBe(1);
    } finally {
      await client.close();
    }
  });
});
