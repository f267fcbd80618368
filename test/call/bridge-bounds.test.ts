// Issue 23, guarantee 2: an executeRequest call's bounds count from admission. A request counts
// against network.maxRequestsPerCall when it is asked for, not when it has finished (200 fetches
// started at once all went out against a bound of 20), and every byte read counts against
// network.maxBytesPerCall as it arrives, shared by the call's requests in flight: past the bound,
// reading stops and the connections are dropped. The requests a call sends count against the same
// bound, on their own: a handler's requests are held in the host's memory while they are sent,
// and 20 bodies of several MB each, per call, would let one schema's calls exhaust it; so would
// 20 headers or URLs of several MB each (found by the thirteenth review: they did not count).
//
// Real parts: the real sandbox and a loopback upstream that counts what reaches it and whether
// each answer was read to its end.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/runtime/catalog.js';
import { loadProjectCatalog, type ProjectCatalog } from '../kit/catalog.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { waitFor } from '../support/wait.js';

const MAX_REQUESTS = 20;
const MAX_BYTES = 1_000_000;
/** Each big answer: most of the byte bound, so only one fits. */
const BIG_BYTES = 800_000;
const CHUNK_BYTES = 16_000;
/** Each body sent: three fit in the byte bound. */
const UPLOAD_BYTES = 300_000;
/** Requests a handler asks for one after another, most of them past the bound. */
const ASKED = 2_000;

const ROUTE = (name: string) =>
  `${name}: { method: 'GET', path: '/${name}', description: 'A route.', parameters: [], tests: [{ _description: 'a' }] }`;

const SCHEMA = `export const main = {
    namespace: 'greedy', name: 'Greedy', description: 'Starts many requests at once.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.greedy.test',
    routes: { ${[ROUTE('flood'), ROUTE('big'), ROUTE('upload'), ROUTE('headers'), ROUTE('urls'), ROUTE('asking')].join(', ')} }
};
export const handlers = () => {
    const settle = async (count, path, init) => {
        const outcomes = await Promise.allSettled(Array.from({ length: count }, async () => (await fetch('https://api.greedy.test' + path, init)).status));
        return outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : outcome.reason.message));
    };
    return {
        flood: { executeRequest: async () => ({ response: await settle(200, '/item') }) },
        big: { executeRequest: async () => ({ response: await settle(10, '/big') }) },
        upload: { executeRequest: async () => ({ response: await settle(10, '/upload', { method: 'POST', body: new Uint8Array(${UPLOAD_BYTES}) }) }) },
        headers: { executeRequest: async () => ({ response: await settle(10, '/headers', { headers: { 'x-pad': 'h'.repeat(${UPLOAD_BYTES}) } }) }) },
        urls: { executeRequest: async () => ({ response: await settle(10, '/urls?pad=' + 'u'.repeat(${UPLOAD_BYTES})) }) },
        asking: { executeRequest: async () => {
            const outcomes = [];
            for (let ask = 0; ask < ${ASKED}; ask += 1) {
                try { outcomes.push((await fetch('https://api.greedy.test/asked')).status); } catch (error) { outcomes.push(error.message); }
            }
            return { response: outcomes };
        } }
    };
};
`;

let upstream: Upstream;
let loaded: ProjectCatalog | undefined;
let catalog: Catalog;

/** Bytes that reached the upstream's sockets, whatever it made of them (a head this long is a 431 to node). */
let received = 0;

beforeAll(async () => {
  upstream = await startUpstream((req, res) => {
    if (req.url !== '/big') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    // Written a chunk at a time, so a reader that stops early is seen to hang up.
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(BIG_BYTES) });
    let sent = 0;
    const next = () => {
      if (res.destroyed) return;
      if (sent >= BIG_BYTES) return void res.end();
      sent += CHUNK_BYTES;
      res.write(Buffer.alloc(CHUNK_BYTES, 1), () => setTimeout(next, 2));
    };
    next();
  });
  upstream.server.on('connection', (socket) => socket.on('data', (chunk: Buffer) => (received += chunk.length)));
  loaded = await loadProjectCatalog(
    {
      config: { network: { maxRequestsPerCall: MAX_REQUESTS, maxBytesPerCall: MAX_BYTES } },
      schemas: { 'greedy.mjs': SCHEMA },
    },
    { upstreams: { 'https://api.greedy.test': upstream.origin }, sandbox: { size: 1 } },
  );
  catalog = loaded.catalog;
  expect(catalog.findings().filter((finding) => finding.severity === 'error')).toEqual([]);
}, 30_000);
afterAll(async () => {
  await loaded?.close();
  await upstream?.close();
});

describe('bounds count from admission', () => {
  it(`200 fetches started at once: exactly ${MAX_REQUESTS} reach the upstream, the rest are refused`, async () => {
    const before = upstream.hits();
    const result = await catalog.call('greedy_flood', {});
    expect(result.ok).toBe(true);
    const outcomes = (result as { content: { value: unknown[] } }).content.value;
    expect(outcomes.filter((outcome) => outcome === 200)).toHaveLength(MAX_REQUESTS);
    expect(
      outcomes.filter((outcome) => typeof outcome === 'string' && outcome.startsWith('TOO_MANY_REQUESTS: ')),
    ).toHaveLength(200 - MAX_REQUESTS);
    expect(upstream.hits() - before).toBe(MAX_REQUESTS);
  });

  it('10 large answers read at once: reading stops at the byte bound, the connections past it are dropped', async () => {
    const mark = upstream.records.length;
    const result = await catalog.call('greedy_big', {});
    expect(result.ok).toBe(true);
    const outcomes = (result as { content: { value: unknown[] } }).content.value;
    expect(outcomes.filter((outcome) => outcome === 200).length).toBeLessThanOrEqual(1);
    for (const outcome of outcomes.filter((each) => each !== 200))
      expect(outcome).toMatch(/^TOO_MANY_BYTES: the call received more than 1000000 bytes/);
    const recorded = (result as { requests: Array<{ bytes: number }> }).requests;
    expect(recorded.reduce((sum, entry) => sum + entry.bytes, 0)).toBeLessThanOrEqual(MAX_BYTES);
    // At most one answer was read to its end; the core hung up on every other one.
    const big = () => upstream.records.slice(mark).filter((entry) => entry.url === '/big');
    expect(await waitFor(() => big().length === 10 && big().filter((entry) => entry.closed).length >= 9, 5_000)).toBe(
      true,
    );
  });

  it('10 large bodies sent at once: the bodies past the byte bound are refused before anything is sent', async () => {
    const mark = upstream.records.length;
    const result = await catalog.call('greedy_upload', {});
    expect(result.ok).toBe(true);
    const outcomes = (result as { content: { value: unknown[] } }).content.value;
    const fit = Math.floor(MAX_BYTES / UPLOAD_BYTES);
    expect(outcomes.filter((outcome) => outcome === 200)).toHaveLength(fit);
    expect(outcomes.filter((outcome) => outcome !== 200)).toEqual(
      Array(10 - fit).fill(
        `TOO_MANY_BYTES: the call sent more than ${MAX_BYTES} bytes of requests (network.maxBytesPerCall)`,
      ),
    );
    expect(upstream.records.slice(mark).map((entry) => entry.bytes.length)).toEqual(Array(fit).fill(UPLOAD_BYTES));
    expect((result as { requests: Array<{ error?: string }> }).requests.filter((entry) => entry.error)).toHaveLength(
      10 - fit,
    );
  });

  it.each([
    ['headers', 'a header'],
    ['urls', 'a query'],
  ])(
    '10 requests sent at once, each with %s of most of a third of the bound: those past it are refused, nothing of them sent',
    async (route) => {
      const before = received;
      const result = await catalog.call(`greedy_${route}`, {});
      expect(result.ok).toBe(true);
      const outcomes = (result as { content: { value: unknown[] } }).content.value;
      const refused = outcomes.filter(
        (outcome) => typeof outcome === 'string' && outcome.startsWith('TOO_MANY_BYTES: '),
      );
      expect(refused).toEqual(
        Array(10 - Math.floor(MAX_BYTES / UPLOAD_BYTES)).fill(
          `TOO_MANY_BYTES: the call sent more than ${MAX_BYTES} bytes of requests (network.maxBytesPerCall)`,
        ),
      );
      expect(await waitFor(() => received - before > 0, 5_000)).toBe(true);
      expect(received - before).toBeLessThanOrEqual(MAX_BYTES);
    },
  );

  it(`${ASKED} fetches one after another: ${MAX_REQUESTS} sent, every later one refused, and the call's record keeps the first refusal only`, async () => {
    const before = upstream.hits();
    const result = await catalog.call('greedy_asking', {});
    expect(result.ok).toBe(true);
    const outcomes = (result as { content: { value: unknown[] } }).content.value;
    const tooMany = `TOO_MANY_REQUESTS: the call made more than ${MAX_REQUESTS} requests (network.maxRequestsPerCall)`;
    expect(outcomes).toEqual([...Array(MAX_REQUESTS).fill(200), ...Array(ASKED - MAX_REQUESTS).fill(tooMany)]);
    expect(upstream.hits() - before).toBe(MAX_REQUESTS);
    // A loop that asks on past the bound would grow the record (held for the call, then its audit line and metrics) without end.
    const recorded = (result as { requests: Array<{ status: number; error?: string }> }).requests;
    expect(recorded.map((entry) => entry.error ?? entry.status)).toEqual([...Array(MAX_REQUESTS).fill(200), tooMany]);
  });
});
