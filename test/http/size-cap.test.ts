// The size interceptors alone (sizeCap, byteBudget), on a plain undici Agent against loopback
// servers: a declared length over the cap, a body that grows past it, one that trickles a byte at
// a time (slowloris), and a budget several requests share, redirect hops included.

import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../src/http/errors.js';
import type { PolicyMaker } from '../../src/http/interceptors/policy-chain.js';
import { redirect } from '../../src/http/interceptors/redirect.js';
import { byteBudget, sizeCap, type ByteBudget } from '../../src/http/interceptors/size-cap.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { composed, dispatchThrough, settle } from './dispatch-kit.js';

const CAP = 1_000;
let server: Upstream;
/** Bytes the server wrote per request path, for what the client read before hanging up. */
const written = new Map<string, number>();

/** Writes `total` bytes `size` at a time, one write per turn of the event loop, until done or the client hangs up. */
function trickle(res: ServerResponse, path: string, total: number, size: number): void {
  written.set(path, 0);
  const pump = (): void => {
    const sent = written.get(path) ?? 0;
    if (res.destroyed || sent >= total) return void res.end();
    written.set(path, sent + size);
    res.write(Buffer.alloc(size, 0x61));
    setImmediate(pump);
  };
  pump();
}

beforeAll(async () => {
  server = await startUpstream((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    switch (path) {
      case '/exact':
        return void res.writeHead(200, { 'content-length': String(CAP) }).end(Buffer.alloc(CAP, 0x61));
      case '/one-more':
        return void res.writeHead(200).end(Buffer.alloc(CAP + 1, 0x61));
      case '/declared':
        // Declares more than the cap, then sends nothing: the cap must not wait for a body.
        return void res.writeHead(200, { 'content-length': String(CAP * 10) }).flushHeaders();
      case '/chunked':
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return trickle(res, path, 1_000_000, 100);
      case '/slowloris':
        res.writeHead(200, { 'content-type': 'text/plain' });
        return trickle(res, path, 5_000, 1);
      case '/redirect':
        return void res.writeHead(302, { location: '/six-hundred' }).end(Buffer.alloc(600, 0x62));
      case '/six-hundred':
        return void res.writeHead(200).end(Buffer.alloc(600, 0x61));
      default:
        return void res.writeHead(404).end();
    }
  });
});

afterAll(() => server.close());

async function through(interceptors: PolicyMaker[], path: string, extra: Record<string, unknown> = {}) {
  const chain = composed(interceptors);
  try {
    const outcome = await dispatchThrough(chain.dispatcher, { origin: server.origin, path, ...extra });
    await settle();
    return outcome;
  } finally {
    await chain.close();
  }
}

describe('sizeCap', () => {
  it('hands on a body of exactly the cap and refuses one byte more', async () => {
    const exact = await through([sizeCap(CAP)], '/exact');
    expect([exact.error, exact.body.length]).toEqual([null, CAP]);
    const over = await through([sizeCap(CAP)], '/one-more');
    expect((over.error as HttpError).kind).toBe('too-large');
    expect(over.error?.message).toBe(`response body larger than ${CAP} bytes (maxResponseBytes)`);
    expect(over.late).toEqual([]);
  });

  it('refuses a declared Content-Length over the cap before any of the body', async () => {
    const outcome = await through([sizeCap(CAP)], '/declared');
    expect((outcome.error as HttpError).kind).toBe('too-large');
    expect(outcome.status).toBe(0);
  });

  it('stops reading a body that grows past the cap and drops the connection', async () => {
    const outcome = await through([sizeCap(CAP)], '/chunked');
    expect((outcome.error as HttpError).kind).toBe('too-large');
    expect(outcome.body.length).toBeLessThanOrEqual(CAP);
    expect(written.get('/chunked')).toBeLessThan(1_000_000);
  });

  it('a body trickling a byte at a time is refused at the byte past the cap', async () => {
    const outcome = await through([sizeCap(100)], '/slowloris');
    expect((outcome.error as HttpError).kind).toBe('too-large');
    expect(outcome.body.length).toBe(100);
    expect(written.get('/slowloris')).toBeLessThan(5_000);
  });
});

describe('byteBudget', () => {
  /** A budget as the bridge keeps one per call: every chunk taken, refused once the sum passes `max`. */
  function budget(max: number): ByteBudget & { read: number } {
    return {
      read: 0,
      take(bytes) {
        this.read += bytes;
        return this.read > max ? `the call read more than ${max} bytes` : null;
      },
    };
  }

  it('two requests share one budget: the second fails when the sum passes it', async () => {
    const shared = budget(CAP + 500);
    const first = await through([byteBudget()], '/exact', { budget: shared });
    expect(first.error).toBeNull();
    const second = await through([byteBudget()], '/exact', { budget: shared });
    expect((second.error as HttpError).kind).toBe('too-large');
    expect(second.error?.message).toBe(`the call read more than ${CAP + 500} bytes`);
  });

  it('counts the bytes of a redirect hop too', async () => {
    const shared = budget(1_000);
    const outcome = await through([byteBudget(), redirect(5)], '/redirect', { budget: shared });
    expect((outcome.error as HttpError).kind).toBe('too-large');
    expect(shared.read).toBeGreaterThan(1_000);
  });

  it('a request without a budget passes through untouched', async () => {
    const outcome = await through([byteBudget()], '/one-more');
    expect([outcome.error, outcome.body.length]).toEqual([null, CAP + 1]);
  });
});
