import { getEventListeners } from 'node:events';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HTTP_LIMITS, HttpClient, HttpError } from '../../src/http/client.js';
import type { HttpErrorKind, HttpLimits } from '../../src/http/client.js';
import { decodeBody } from '../../src/http/decode.js';
import { freePort, startUpstream, type Upstream } from '../support/upstream.js';
import { waitFor } from '../support/wait.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const BINARY = Buffer.from([0x00, 0xff, 0x10, 0x80, 0x7f, 0x00, 0xfe]);
const TEN_MB = 10 * 1024 * 1024;

interface StreamState {
  written: number;
  finished: boolean;
  closed: boolean;
}

/**
 * Writes `total` bytes in 16 KiB chunks, at most one chunk per millisecond (about 16 MB/s, so
 * 10 MB would take over 0.6 s), and records how far it got. The pacing keeps the kernel's
 * loopback buffers (several MB) from soaking up data the client never read, so `written` tracks
 * what the client consumed before it hung up.
 */
function streamBytes(res: ServerResponse, total: number, state: StreamState): void {
  const chunk = Buffer.alloc(16 * 1024, 0x61);
  res.on('close', () => {
    state.closed = true;
  });
  const pump = (): void => {
    if (res.destroyed) return;
    if (state.written >= total) {
      res.end(() => {
        state.finished = true;
      });
      return;
    }
    state.written += chunk.length;
    if (res.write(chunk)) setTimeout(pump, 1);
    else res.once('drain', () => setTimeout(pump, 1));
  };
  pump();
}

/** The servers here listen on 127.0.0.1, which a client refuses unless told otherwise (R5). */
function loopbackClient(limits?: Partial<HttpLimits>): HttpClient {
  return new HttpClient(limits, { allowPrivate: true });
}

let main: Upstream;
let other: Upstream;
let client: HttpClient;
const big: StreamState[] = [];
const hanging: { closed: boolean }[] = [];

async function failure(promise: Promise<unknown>): Promise<{ kind: HttpErrorKind; message: string }> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    const { kind, message } = error as HttpError;
    return { kind, message };
  }
  throw new Error('expected the request to fail');
}

beforeAll(async () => {
  other = await startUpstream((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('you should not be here');
  });
  main = await startUpstream((req, res, entry) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    const redirect = (status: number, location: string): void => {
      res.writeHead(status, { location, 'content-type': 'text/plain' }).end(`see ${location}`);
    };
    if (path.endsWith('/echo')) {
      const payload = JSON.stringify({ method: req.method, path: req.url, headers: req.headers, body: entry.body });
      res
        .writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(payload),
        })
        .end(payload);
      return;
    }
    switch (path) {
      case '/redirect/relative':
        return redirect(302, 'echo?via=relative');
      case '/redirect/root':
        return redirect(302, '/echo?via=root');
      case '/redirect/absolute':
        return redirect(301, `${main.origin}/echo?via=absolute`);
      case '/redirect/other-origin':
        return redirect(302, `${other.origin}/steal?key=SECRET123`);
      case '/redirect/other-host':
        return redirect(302, `http://localhost:${main.port}/echo?key=SECRET123`);
      case '/redirect/other-scheme':
        return redirect(302, `https://127.0.0.1:${main.port}/echo`);
      case '/redirect/file':
        return redirect(302, 'file:///etc/passwd');
      case '/redirect/loop':
        return redirect(302, '/redirect/loop');
      case '/redirect/303':
        return redirect(303, '/echo?after=303');
      case '/redirect/302':
        return redirect(302, '/echo?after=302');
      case '/redirect/301':
        return redirect(301, '/echo?after=301');
      case '/redirect/307':
        return redirect(307, '/echo?after=307');
      case '/redirect/308':
        return redirect(308, '/echo?after=308');
      case '/redirect/no-location':
        res.writeHead(302, { 'content-type': 'text/plain' }).end('nowhere');
        return;
      case '/hang':
        hanging.push({ closed: false });
        {
          const entry = hanging[hanging.length - 1]!;
          res.on('close', () => {
            entry.closed = true;
          });
        }
        return; // never answers
      case '/hang-body':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('first part, then nothing');
        return;
      case '/big': {
        const state: StreamState = { written: 0, finished: false, closed: false };
        big.push(state);
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        streamBytes(res, TEN_MB, state);
        return;
      }
      case '/big-declared': {
        const state: StreamState = { written: 0, finished: false, closed: false };
        big.push(state);
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(TEN_MB) });
        streamBytes(res, TEN_MB, state);
        return;
      }
      case '/sized': {
        const size = Number(url.searchParams.get('n'));
        res.writeHead(200, { 'content-type': 'text/plain' }).end(Buffer.alloc(size, 0x62));
        return;
      }
      case '/reset-mid-body':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"partial":', () => setTimeout(() => res.socket?.destroy(), 20));
        return;
      case '/reset-chunked':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('some text', () => setTimeout(() => res.socket?.destroy(), 20));
        return;
      case '/reset-before-headers':
        req.socket.destroy();
        return;
      case '/text':
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('plain text, not JSON');
        return;
      case '/bad-json':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"unterminated": ');
        return;
      case '/empty':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '0' }).end();
        return;
      case '/no-content':
        res.writeHead(204).end();
        return;
      case '/image':
        res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
        return;
      case '/binary':
        res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(BINARY);
        return;
      case '/server-error':
        res.writeHead(500, { 'content-type': 'text/plain' }).end('internal failure');
        return;
      case '/rate-limited':
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' }).end('{"error":"slow down"}');
        return;
      case '/repeated-header':
        res.setHeader('x-multi', ['a', 'b']);
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        return;
      default: {
        const chain = /^\/redirect\/chain\/(\d+)$/.exec(path);
        if (chain) {
          const n = Number(chain[1]);
          return redirect(302, n === 0 ? '/echo?chain=done' : `/redirect/chain/${n - 1}`);
        }
        const slow = /^\/redirect\/slow\/(\d+)$/.exec(path);
        if (slow) {
          const n = Number(slow[1]);
          setTimeout(() => redirect(302, n === 0 ? '/echo' : `/redirect/slow/${n - 1}`), 150);
          return;
        }
        res.writeHead(404, { 'content-type': 'text/plain' }).end('no such route');
      }
    }
  });
  client = loopbackClient();
});

afterAll(async () => {
  await client.close();
  await main.close();
  await other.close();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  client.request({ method: 'GET', url: `${main.origin}${path}`, headers });

describe('limits', () => {
  it('has the documented defaults', () => {
    expect(DEFAULT_HTTP_LIMITS).toEqual({
      connectTimeoutMs: 5_000,
      totalTimeoutMs: 15_000,
      maxResponseBytes: 1_048_576,
      maxRedirects: 5,
      maxJsonDepth: 256,
    });
  });

  it('refuses limits that are not positive integers', () => {
    expect(() => new HttpClient({ maxResponseBytes: 0 })).toThrow(
      'HttpClient: maxResponseBytes must be an integer >= 1',
    );
    expect(() => new HttpClient({ totalTimeoutMs: 1.5 })).toThrow('HttpClient: totalTimeoutMs must be an integer >= 1');
    expect(() => new HttpClient({ maxRedirects: -1 })).toThrow('HttpClient: maxRedirects must be an integer >= 0');
  });
});

describe('plain exchanges', () => {
  it('sends method, path, query, headers and body and returns the exact response', async () => {
    const response = await client.request({
      method: 'POST',
      url: `${main.origin}/echo?q=a%20b&n=1`,
      headers: { 'content-type': 'application/json', 'x-api-key': 'k-123' },
      body: '{"hello":"world"}',
    });
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${main.origin}/echo?q=a%20b&n=1`);
    expect(response.redirects).toBe(0);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['content-length']).toBe(String(response.body.length));
    const echoed = JSON.parse(response.body.toString('utf8'));
    expect(echoed).toMatchObject({
      method: 'POST',
      path: '/echo?q=a%20b&n=1',
      body: '{"hello":"world"}',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k-123', host: `127.0.0.1:${main.port}` },
    });
  });

  it.each(['PUT', 'DELETE'] as const)('sends %s', async (method) => {
    const response = await client.request({ method, url: `${main.origin}/echo`, headers: {}, body: 'x=1' });
    expect(JSON.parse(response.body.toString('utf8'))).toMatchObject({ method, body: 'x=1' });
  });

  it('returns a non-JSON text body as bytes', async () => {
    const response = await get('/text');
    expect(response.status).toBe(200);
    expect(response.body.toString('utf8')).toBe('plain text, not JSON');
    expect(decodeBody(response.body, response.headers['content-type'])).toEqual({
      kind: 'text',
      value: 'plain text, not JSON',
    });
  });

  it('returns invalid JSON under a JSON content type untouched; decoding names the problem', async () => {
    const response = await get('/bad-json');
    expect(response.body.toString('utf8')).toBe('{"unterminated": ');
    expect(decodeBody(response.body, response.headers['content-type'])).toEqual({
      kind: 'error',
      message: 'response is not valid JSON (application/json): {"unterminated":',
    });
  });

  it('returns empty bodies (200 with Content-Length 0, and 204)', async () => {
    const empty = await get('/empty');
    expect(empty.status).toBe(200);
    expect(empty.body.length).toBe(0);
    expect(decodeBody(empty.body, empty.headers['content-type'])).toEqual({ kind: 'empty' });
    const noContent = await get('/no-content');
    expect(noContent.status).toBe(204);
    expect(noContent.body.length).toBe(0);
  });

  it('returns an image byte for byte', async () => {
    const response = await get('/image');
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.body.equals(PNG)).toBe(true);
    expect(decodeBody(response.body, response.headers['content-type'])).toEqual({
      kind: 'image',
      mimeType: 'image/png',
      base64: PNG.toString('base64'),
    });
  });

  it('returns a binary body byte for byte', async () => {
    const response = await get('/binary');
    expect(response.body.equals(BINARY)).toBe(true);
    expect(decodeBody(response.body, response.headers['content-type'])).toEqual({
      kind: 'binary',
      mimeType: 'application/octet-stream',
      base64: BINARY.toString('base64'),
    });
  });

  it('returns 404, 500 and 429 as responses, not errors, with their headers', async () => {
    const notFound = await get('/nowhere');
    expect([notFound.status, notFound.body.toString('utf8')]).toEqual([404, 'no such route']);
    const failed = await get('/server-error');
    expect([failed.status, failed.body.toString('utf8')]).toEqual([500, 'internal failure']);
    const limited = await get('/rate-limited');
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('7');
    expect(limited.body.toString('utf8')).toBe('{"error":"slow down"}');
  });

  it('joins a header sent twice', async () => {
    const response = await get('/repeated-header');
    expect(response.headers['x-multi']).toBe('a, b');
  });

  it('reuses connections: 50 sequential requests use at most 2 connections', async () => {
    const keepAlive = loopbackClient();
    const before = main.connections();
    for (let i = 0; i < 50; i++) {
      const response = await keepAlive.request({ method: 'GET', url: `${main.origin}/echo?i=${i}`, headers: {} });
      expect(response.status).toBe(200);
    }
    expect(main.connections() - before).toBeLessThanOrEqual(2);
    await keepAlive.close();
  });

  it('serves concurrent requests', async () => {
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => get(`/echo?i=${i}`)));
    expect(responses.map((r) => JSON.parse(r.body.toString('utf8')).path)).toEqual(
      Array.from({ length: 20 }, (_, i) => `/echo?i=${i}`),
    );
  });
});

describe('invalid URLs', () => {
  it.each([
    ['not a url', 'request URL is not a valid absolute URL'],
    ['/relative/path', 'request URL is not a valid absolute URL'],
    ['ftp://127.0.0.1/file', 'request URL scheme must be http or https, not ftp:'],
    ['http://user:pw@127.0.0.1/', 'request URL must not carry credentials (user:password@)'],
  ])('%s', async (url, message) => {
    expect(await failure(client.request({ method: 'GET', url, headers: {} }))).toEqual({
      kind: 'invalid-url',
      message,
    });
  });

  it('a header value undici refuses to send fails the call without echoing the value', async () => {
    const result = await failure(get('/echo', { 'x-evil': 'SECRET\r\nx-injected: 1' }));
    expect(result.kind).toBe('invalid-url');
    expect(result.message).toMatch(/^request cannot be sent: /);
    expect(result.message).not.toContain('SECRET');
  });
});

describe('redirects', () => {
  it('follows a relative Location', async () => {
    const response = await get('/redirect/relative');
    expect(response.status).toBe(200);
    expect(response.redirects).toBe(1);
    expect(response.url).toBe(`${main.origin}/redirect/echo?via=relative`);
    expect(JSON.parse(response.body.toString('utf8'))).toMatchObject({
      method: 'GET',
      path: '/redirect/echo?via=relative',
    });
  });

  it('follows a root-relative Location', async () => {
    const response = await get('/redirect/root');
    expect([response.redirects, response.url]).toEqual([1, `${main.origin}/echo?via=root`]);
  });

  it('follows an absolute same-origin Location and keeps the request headers', async () => {
    const response = await get('/redirect/absolute', { authorization: 'Bearer t' });
    expect([response.status, response.redirects, response.url]).toEqual([200, 1, `${main.origin}/echo?via=absolute`]);
    expect(JSON.parse(response.body.toString('utf8')).headers.authorization).toBe('Bearer t');
  });

  it('follows exactly maxRedirects hops', async () => {
    const response = await get('/redirect/chain/4'); // 4, 3, 2, 1, 0 → echo: five redirects
    expect([response.status, response.redirects, response.url]).toEqual([200, 5, `${main.origin}/echo?chain=done`]);
  });

  it('refuses a sixth hop', async () => {
    expect(await failure(get('/redirect/chain/5'))).toEqual({
      kind: 'too-many-redirects',
      message: 'more than 5 redirects (maxRedirects)',
    });
  });

  it('stops a redirect loop', async () => {
    const before = main.hits();
    expect(await failure(get('/redirect/loop'))).toEqual({
      kind: 'too-many-redirects',
      message: 'more than 5 redirects (maxRedirects)',
    });
    expect(main.hits() - before).toBe(6);
  });

  it('honours maxRedirects: 0', async () => {
    const strict = loopbackClient({ maxRedirects: 0 });
    expect(await failure(strict.request({ method: 'GET', url: `${main.origin}/redirect/root`, headers: {} }))).toEqual({
      kind: 'too-many-redirects',
      message: 'more than 0 redirects (maxRedirects)',
    });
    await strict.close();
  });

  it('refuses another origin (another port) without contacting it or naming the query', async () => {
    const result = await failure(get('/redirect/other-origin'));
    expect(result).toEqual({
      kind: 'redirect-refused',
      message: `redirect to another origin refused: ${other.origin}`,
    });
    expect(result.message).not.toContain('SECRET123');
    expect(other.hits()).toBe(0);
  });

  it('refuses another host on the same port', async () => {
    expect(await failure(get('/redirect/other-host'))).toEqual({
      kind: 'redirect-refused',
      message: `redirect to another origin refused: http://localhost:${main.port}`,
    });
  });

  it('refuses another scheme on the same host and port', async () => {
    expect(await failure(get('/redirect/other-scheme'))).toEqual({
      kind: 'redirect-refused',
      message: `redirect to another origin refused: https://127.0.0.1:${main.port}`,
    });
  });

  it('refuses a non-HTTP Location', async () => {
    expect(await failure(get('/redirect/file'))).toEqual({
      kind: 'redirect-refused',
      message: 'redirect refused: file: URLs are not followed',
    });
  });

  it('303 after POST becomes a GET without body or body headers', async () => {
    const response = await client.request({
      method: 'POST',
      url: `${main.origin}/redirect/303`,
      headers: { 'content-type': 'application/json', 'x-keep': 'yes' },
      body: '{"a":1}',
    });
    const echoed = JSON.parse(response.body.toString('utf8'));
    expect([response.status, response.redirects, echoed.method, echoed.path, echoed.body]).toEqual([
      200,
      1,
      'GET',
      '/echo?after=303',
      '',
    ]);
    expect(echoed.headers['content-type']).toBeUndefined();
    expect(echoed.headers['x-keep']).toBe('yes');
  });

  it('303 after DELETE becomes a GET', async () => {
    const response = await client.request({ method: 'DELETE', url: `${main.origin}/redirect/303`, headers: {} });
    expect(JSON.parse(response.body.toString('utf8')).method).toBe('GET');
  });

  it.each([
    [301, 'GET', ''],
    [302, 'GET', ''],
    [307, 'POST', '{"a":1}'],
    [308, 'POST', '{"a":1}'],
  ])('%i after POST is followed as %s', async (status, method, body) => {
    const response = await client.request({
      method: 'POST',
      url: `${main.origin}/redirect/${status}`,
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    const echoed = JSON.parse(response.body.toString('utf8'));
    expect([echoed.method, echoed.path, echoed.body]).toEqual([method, `/echo?after=${status}`, body]);
  });

  it('301 after PUT keeps PUT and its body', async () => {
    const response = await client.request({
      method: 'PUT',
      url: `${main.origin}/redirect/301`,
      headers: {},
      body: 'v',
    });
    expect(JSON.parse(response.body.toString('utf8'))).toMatchObject({ method: 'PUT', body: 'v' });
  });

  it('returns a redirect status without Location as the response', async () => {
    const response = await get('/redirect/no-location');
    expect([response.status, response.redirects, response.body.toString('utf8')]).toEqual([302, 0, 'nowhere']);
  });
});

describe('timeouts and aborts', () => {
  it('times out a request that never answers, within the deadline', async () => {
    const quick = loopbackClient({ totalTimeoutMs: 300 });
    const started = Date.now();
    expect(await failure(quick.request({ method: 'GET', url: `${main.origin}/hang`, headers: {} }))).toEqual({
      kind: 'timeout',
      message: 'request timed out after 300 ms (totalTimeoutMs)',
    });
    expect(Date.now() - started).toBeLessThan(2_000);
    const entry = hanging[hanging.length - 1]!;
    expect(await waitFor(() => entry.closed)).toBe(true); // the upstream connection was torn down
    await quick.close();
  });

  it('times out a body that stalls', async () => {
    const quick = loopbackClient({ totalTimeoutMs: 300 });
    expect(await failure(quick.request({ method: 'GET', url: `${main.origin}/hang-body`, headers: {} }))).toEqual({
      kind: 'timeout',
      message: 'request timed out after 300 ms (totalTimeoutMs)',
    });
    await quick.close();
  });

  it('one deadline covers every redirect hop', async () => {
    const quick = loopbackClient({ totalTimeoutMs: 400 }); // 4 hops of 150 ms each
    const started = Date.now();
    expect(await failure(quick.request({ method: 'GET', url: `${main.origin}/redirect/slow/3`, headers: {} }))).toEqual(
      {
        kind: 'timeout',
        message: 'request timed out after 400 ms (totalTimeoutMs)',
      },
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    await quick.close();
  });

  it('a caller abort mid-request fails promptly and tears the connection down', async () => {
    const controller = new AbortController();
    const pending = client.request(
      { method: 'GET', url: `${main.origin}/hang`, headers: {} },
      { signal: controller.signal },
    );
    const before = hanging.length;
    expect(await waitFor(() => hanging.length > before)).toBe(true);
    const started = Date.now();
    controller.abort();
    expect(await failure(pending)).toEqual({ kind: 'aborted', message: 'request aborted by the caller' });
    expect(Date.now() - started).toBeLessThan(500);
    const entry = hanging[hanging.length - 1]!;
    expect(await waitFor(() => entry.closed)).toBe(true);
  });

  it('a caller abort while the body streams fails with aborted', async () => {
    const controller = new AbortController();
    const pending = client.request(
      { method: 'GET', url: `${main.origin}/hang-body`, headers: {} },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 100);
    expect(await failure(pending)).toEqual({ kind: 'aborted', message: 'request aborted by the caller' });
  });

  it('an already aborted signal fails without contacting the server', async () => {
    const before = main.hits();
    expect(
      await failure(
        client.request({ method: 'GET', url: `${main.origin}/echo`, headers: {} }, { signal: AbortSignal.abort() }),
      ),
    ).toEqual({
      kind: 'aborted',
      message: 'request aborted by the caller',
    });
    expect(main.hits()).toBe(before);
  });

  it('removes its listener from the caller signal and leaves no timers behind', async () => {
    const controller = new AbortController();
    await get('/echo'); // warm up the connection
    const timersBefore = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    for (let i = 0; i < 20; i++) {
      await client.request({ method: 'GET', url: `${main.origin}/echo`, headers: {} }, { signal: controller.signal });
    }
    // and one failed call
    expect(
      (
        await failure(
          client.request(
            { method: 'GET', url: `${main.origin}/big-declared`, headers: {} },
            { signal: controller.signal },
          ),
        )
      ).kind,
    ).toBe('too-large');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    const timersAfter = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    expect(timersAfter).toBeLessThanOrEqual(timersBefore + 1);
  });
});

describe('size cap', () => {
  it('stops reading a 10 MB chunked answer at the 1 MiB cap and drops the connection', async () => {
    const started = Date.now();
    expect(await failure(get('/big'))).toEqual({
      kind: 'too-large',
      message: 'response body larger than 1048576 bytes (maxResponseBytes)',
    });
    expect(Date.now() - started).toBeLessThan(2_000);
    const state = big[big.length - 1]!;
    expect(await waitFor(() => state.closed)).toBe(true);
    expect(state.finished).toBe(false);
    expect(state.written).toBeLessThan(2 * 1024 * 1024); // about the cap, not 10 MB
  });

  it('fails at once on a declared Content-Length over the cap', async () => {
    expect(await failure(get('/big-declared'))).toEqual({
      kind: 'too-large',
      message: 'response body larger than 1048576 bytes (maxResponseBytes)',
    });
    const state = big[big.length - 1]!;
    expect(await waitFor(() => state.closed)).toBe(true);
    expect(state.finished).toBe(false);
    expect(state.written).toBeLessThan(512 * 1024); // nothing read: refused on the header
  });

  it('accepts a body of exactly the cap and refuses one byte more', async () => {
    const small = loopbackClient({ maxResponseBytes: 1000 });
    const exact = await small.request({ method: 'GET', url: `${main.origin}/sized?n=1000`, headers: {} });
    expect(exact.body.length).toBe(1000);
    expect(await failure(small.request({ method: 'GET', url: `${main.origin}/sized?n=1001`, headers: {} }))).toEqual({
      kind: 'too-large',
      message: 'response body larger than 1000 bytes (maxResponseBytes)',
    });
    await small.close();
  });

  it('the client keeps working after a refused body', async () => {
    await failure(get('/big'));
    const response = await get('/echo');
    expect(response.status).toBe(200);
  });
});

describe('connection failures', () => {
  it('connection refused → connect', async () => {
    const port = await freePort();
    expect(
      await failure(client.request({ method: 'GET', url: `http://127.0.0.1:${port}/x?key=SECRET`, headers: {} })),
    ).toEqual({
      kind: 'connect',
      message: `cannot connect to http://127.0.0.1:${port} (ECONNREFUSED)`,
    });
  });

  it('unknown host → connect', async () => {
    const result = await failure(client.request({ method: 'GET', url: 'http://nonexistent.invalid/x', headers: {} }));
    expect(result.kind).toBe('connect');
    expect(result.message).toMatch(/^cannot connect to http:\/\/nonexistent\.invalid \((ENOTFOUND|EAI_AGAIN)\)$/);
  });

  it('a TLS handshake that never completes hits the connect timeout', async () => {
    // A TCP server that accepts and then stays silent: TCP connects, TLS never finishes.
    const sockets: Socket[] = [];
    const silent = createTcpServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const quick = loopbackClient({ connectTimeoutMs: 200 });
    const started = Date.now();
    try {
      expect(await failure(quick.request({ method: 'GET', url: `https://127.0.0.1:${port}/x`, headers: {} }))).toEqual({
        kind: 'timeout',
        message: `connecting to https://127.0.0.1:${port} timed out after 200 ms (connectTimeoutMs)`,
      });
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await quick.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('TLS against a plain HTTP server → connect', async () => {
    const result = await failure(
      client.request({ method: 'GET', url: `https://127.0.0.1:${main.port}/echo`, headers: {} }),
    );
    expect(result.kind).toBe('connect');
    expect(result.message).toMatch(
      new RegExp(`^cannot connect to https://127\\.0\\.0\\.1:${main.port} \\([A-Z0-9_]+\\)$`),
    );
  });

  it('socket destroyed mid-body (declared length) → reset', async () => {
    expect(await failure(get('/reset-mid-body'))).toEqual({
      kind: 'reset',
      message: `connection to ${main.origin} was reset during the exchange`,
    });
  });

  it('socket destroyed mid-body (chunked) → reset', async () => {
    expect(await failure(get('/reset-chunked'))).toEqual({
      kind: 'reset',
      message: `connection to ${main.origin} was reset during the exchange`,
    });
  });

  it('socket destroyed before the headers → reset', async () => {
    expect(await failure(get('/reset-before-headers'))).toEqual({
      kind: 'reset',
      message: `connection to ${main.origin} was reset during the exchange`,
    });
  });

  it('a closed client refuses further requests', async () => {
    const closed = loopbackClient();
    await closed.close();
    expect(await failure(closed.request({ method: 'GET', url: `${main.origin}/echo`, headers: {} }))).toEqual({
      kind: 'aborted',
      message: 'the HTTP client is closed',
    });
  });
});
