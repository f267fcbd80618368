// Issue 13, point 7: the client decodes Content-Encoding under the size cap, bounds JSON nesting,
// and its errors name the real problem (an oversized header, a reply that is not HTTP).

import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, HttpError } from '../../src/http/client.js';
import { ACCEPT_ENCODING } from '../../src/http/content-encoding.js';
import { JsonDepth } from '../../src/http/json-depth.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const TEXT = 'The quick brown fox jumps over the lazy dog. '.repeat(40);
const MIB = 1024 * 1024;
const DEFAULT_CAP = 1_048_576;

/**
 * About 510 kB of gzip that inflates to 512 MiB: 64 gzip members of 8 MiB of zeros each (a
 * gzip body may hold several members), so that making it never allocates the whole.
 */
function gzipBomb(): Buffer {
  const member = gzipSync(Buffer.alloc(8 * MIB), { level: 9 });
  return Buffer.concat(Array.from({ length: 64 }, () => member));
}

const BOMB = gzipBomb();
const DEEP = '['.repeat(100_000) + ']'.repeat(100_000);

let upstream: Upstream;
let client: HttpClient;
let lastAcceptEncoding: string | undefined;

beforeAll(async () => {
  upstream = await startUpstream((req, res) => {
    lastAcceptEncoding = req.headers['accept-encoding'];
    const send = (encoding: string, body: Buffer, type = 'text/plain; charset=utf-8') => {
      res
        .writeHead(200, { 'content-type': type, 'content-encoding': encoding, 'content-length': body.length })
        .end(body);
    };
    switch (req.url) {
      case '/gzip':
        return send('gzip', gzipSync(TEXT));
      case '/br':
        return send('br', brotliCompressSync(TEXT));
      case '/deflate':
        return send('deflate', deflateSync(TEXT));
      case '/deflate-raw':
        return send('deflate', deflateRawSync(TEXT));
      case '/gzip-json':
        return send('gzip', gzipSync(JSON.stringify({ fox: 'quick' })), 'application/json');
      case '/gzip-then-br':
        return send('gzip, br', brotliCompressSync(gzipSync(TEXT)));
      case '/gzip-wrong':
        return send('gzip', Buffer.from('this was never gzip'));
      case '/gzip-truncated':
        return send('gzip', gzipSync(TEXT).subarray(0, 30));
      case '/br-wrong':
        return send('br', Buffer.from('this was never brotli'));
      case '/deflate-wrong':
        return send('deflate', Buffer.from([0x78, 0x9c, 0xff, 0xff, 0xff, 0x00]));
      case '/unknown':
        return send('compress', Buffer.from('LZW data'));
      case '/bomb':
        return send('gzip', BOMB, 'application/octet-stream');
      case '/gzip-gzip':
        return send('gzip, gzip', gzipSync(gzipSync(TEXT)));
      case '/upper-case':
        return send(' GZIP , X-GZIP ', gzipSync(gzipSync(TEXT)));
      case '/two-lines':
        // Two Content-Encoding lines are one list (RFC 9110 §5.3): gzip applied first, then br.
        res.setHeader('content-encoding', ['gzip', 'br']);
        res.writeHead(200, { 'content-type': 'text/plain' });
        return void res.end(brotliCompressSync(gzipSync(TEXT)));
      case '/four-codings':
        return send('gzip, gzip, gzip, gzip', gzipSync(gzipSync(gzipSync(gzipSync(TEXT)))));
      case '/identity-gzip':
        // identity names no coding: the gzip bytes are the body, handed on as they are.
        return send('identity', gzipSync(TEXT), 'application/octet-stream');
      case '/with-parameter':
        return send('gzip;q=1', gzipSync(TEXT));
      case '/bomb-inside-br':
        // br of a small gzip body that inflates past the cap: the second step stops at it.
        return send('gzip, br', brotliCompressSync(BOMB), 'application/octet-stream');
      case '/gzip-trailing':
        return send('gzip', Buffer.concat([gzipSync(TEXT), Buffer.from('and more')]));
      case '/br-trailing':
        return send('br', Buffer.concat([brotliCompressSync(TEXT), Buffer.from('and more')]));
      case '/deflate-trailing':
        return send('deflate', Buffer.concat([deflateSync(TEXT), Buffer.from('and more')]));
      case '/deflate-raw-trailing':
        return send('deflate', Buffer.concat([deflateRawSync(TEXT), Buffer.from('and more')]));
      case '/zero-padded':
        // Zero bytes after the data are padding: gzip's own decoder keeps to that, and so does br's here.
        return send(
          'gzip, br',
          Buffer.concat([brotliCompressSync(Buffer.concat([gzipSync(TEXT), Buffer.alloc(4)])), Buffer.alloc(8)]),
        );
      case '/gzip-inside-br-trailing':
        return send('gzip, br', Buffer.concat([brotliCompressSync(gzipSync(TEXT)), Buffer.from('x')]));
      case '/deep-json':
        res.writeHead(200, { 'content-type': 'application/json' }).end(DEEP);
        return;
      case '/deep-untyped':
        res.end(DEEP);
        return;
      case '/deep-gzip':
        return send('gzip', gzipSync(DEEP), 'application/json');
      case '/three-deep':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":[{"b":1}]}');
        return;
      case '/deep-text':
        res.writeHead(200, { 'content-type': 'text/plain' }).end(DEEP);
        return;
      default:
        res.writeHead(200, { 'content-type': 'text/plain' }).end('plain');
    }
  });
  client = new HttpClient({}, { allowPrivate: [upstream.origin] });
});

afterAll(async () => {
  await client.close();
  await upstream.close();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  client.request({ method: 'GET', url: `${upstream.origin}${path}`, headers });

async function failure(promise: Promise<unknown>): Promise<{ kind: string; message: string }> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(HttpError);
  const { kind, message } = error as HttpError;
  return { kind, message };
}

describe('Content-Encoding', () => {
  it('asks for gzip, deflate and br, unless the request names its own', async () => {
    await get('/plain');
    expect(lastAcceptEncoding).toBe(ACCEPT_ENCODING);
    await get('/plain', { 'Accept-Encoding': 'identity' });
    expect(lastAcceptEncoding).toBe('identity');
  });

  it.each(['/gzip', '/br', '/deflate', '/deflate-raw', '/gzip-then-br'])(
    '%s is decoded, and the header that named it is gone',
    async (path) => {
      const response = await get(path);
      expect(response.body.toString('utf8')).toBe(TEXT);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers['content-length']).toBeUndefined();
      expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    },
  );

  it('a gzip JSON answer is JSON', async () => {
    expect(JSON.parse((await get('/gzip-json')).body.toString('utf8'))).toEqual({ fox: 'quick' });
  });

  it.each([
    ['/gzip-wrong', 'response body is not valid gzip data (Content-Encoding: gzip)'],
    ['/gzip-truncated', 'response body is not valid gzip data (Content-Encoding: gzip)'],
    ['/br-wrong', 'response body is not valid br data (Content-Encoding: br)'],
    ['/deflate-wrong', 'response body is not valid deflate data (Content-Encoding: deflate)'],
    ['/unknown', 'response uses Content-Encoding "compress", which cannot be decoded (gzip, deflate and br can)'],
  ])('%s is a decode error', async (path, message) => {
    expect(await failure(get(path))).toEqual({ kind: 'decode', message });
  });

  it('a 510 kB gzip body that inflates to 512 MiB stops at the cap', async () => {
    expect(BOMB.length).toBeLessThan(DEFAULT_CAP);
    const heapBefore = process.memoryUsage().arrayBuffers;
    expect(await failure(get('/bomb'))).toEqual({
      kind: 'too-large',
      message: `response body larger than ${DEFAULT_CAP} bytes once decoded from gzip (maxResponseBytes)`,
    });
    expect(process.memoryUsage().arrayBuffers - heapBefore).toBeLessThan(64 * MIB);
  });

  it('the cap on decoded bytes is maxResponseBytes', async () => {
    const small = new HttpClient({ maxResponseBytes: TEXT.length - 1 }, { allowPrivate: [upstream.origin] });
    try {
      expect((await failure(small.request({ method: 'GET', url: `${upstream.origin}/gzip`, headers: {} }))).kind).toBe(
        'too-large',
      );
    } finally {
      await small.close();
    }
  });
});

// Codings stacked, spelled oddly or followed by more bytes than they hold (promise 9): the body
// handed on is what the codings named make of the bytes sent, all of them, or a decode error.
describe('Content-Encoding stacked, spelled oddly, or followed by more bytes', () => {
  it.each(['/gzip-gzip', '/upper-case', '/two-lines', '/zero-padded'])('%s is decoded step by step', async (path) => {
    expect((await get(path)).body.toString('utf8')).toBe(TEXT);
  });

  it('identity names no coding: gzip bytes under it are handed on as the bytes they are', async () => {
    const response = await get('/identity-gzip');
    expect(response.body.equals(gzipSync(TEXT))).toBe(true);
    expect(response.headers['content-encoding']).toBeUndefined();
  });

  it('four codings, or a coding with a parameter, is a decode error naming it', async () => {
    expect(await failure(get('/four-codings'))).toEqual({
      kind: 'decode',
      message: 'response uses 4 content codings; at most 3 are decoded',
    });
    expect(await failure(get('/with-parameter'))).toMatchObject({
      kind: 'decode',
      message: expect.stringContaining('"gzip;q=1"'),
    });
  });

  it('a bomb inside another coding stops at the cap in the step that passes it', async () => {
    expect(await failure(get('/bomb-inside-br'))).toEqual({
      kind: 'too-large',
      message: `response body larger than ${DEFAULT_CAP} bytes once decoded from gzip (maxResponseBytes)`,
    });
  });

  // Before, zlib's deflate and brotli stopped at their data's end and the bytes after it were
  // dropped without a word: the rest of what the upstream sent never reached anyone, and the
  // shorter answer passed for the whole. gzip refused them already.
  it.each([
    ['/gzip-trailing', 'gzip'],
    ['/br-trailing', 'br'],
    ['/deflate-trailing', 'deflate'],
    ['/deflate-raw-trailing', 'deflate'],
    ['/gzip-inside-br-trailing', 'br'],
  ])('%s, data followed by more bytes, is a decode error', async (path, coding) => {
    expect(await failure(get(path))).toMatchObject({
      kind: 'decode',
      message: expect.stringMatching(new RegExp(`^response body is not valid ${coding} data`)),
    });
  });
});

describe('JSON nesting', () => {
  it.each(['/deep-json', '/deep-untyped', '/deep-gzip'])(
    '%s, 100,000 levels, is refused naming the bound',
    async (path) => {
      expect(await failure(get(path))).toEqual({
        kind: 'too-deep',
        message: 'JSON answer nested more than 256 levels deep (maxJsonDepth)',
      });
    },
  );

  it('text that only looks nested is text', async () => {
    expect((await get('/deep-text')).body.length).toBe(DEEP.length);
  });

  it('maxJsonDepth sets the bound', async () => {
    expect((await get('/three-deep')).body.toString()).toBe('{"a":[{"b":1}]}');
    const strict = new HttpClient({ maxJsonDepth: 2 }, { allowPrivate: [upstream.origin] });
    try {
      expect(
        await failure(strict.request({ method: 'GET', url: `${upstream.origin}/three-deep`, headers: {} })),
      ).toEqual({
        kind: 'too-deep',
        message: 'JSON answer nested more than 2 levels deep (maxJsonDepth)',
      });
    } finally {
      await strict.close();
    }
  });

  it.each([
    ['[[1]]', 2, false],
    ['[[[1]]]', 2, true],
    ['{"a":{"b":{}}}', 3, false],
    ['{"a":{"b":{"c":[]}}}', 3, true],
    ['["[[[[[[[[", "\\"[[[[[[[["]', 1, false],
    ['["\\\\", [[["x"]]]]', 3, true],
    [' \n\t{"k": "v"}', 1, false],
  ])('%s deeper than %i: %s', (text, max, deeper) => {
    expect(new JsonDepth(max).deeperAfter(Buffer.from(text))).toBe(deeper);
  });
});

describe('replies that are not what they seem', () => {
  const raw: { server: TcpServer; sockets: Socket[] }[] = [];

  /** A TCP server that answers every connection with `reply`, then waits. */
  async function rawServer(reply: string): Promise<string> {
    const sockets: Socket[] = [];
    const server = createTcpServer((socket) => {
      sockets.push(socket);
      socket.on('error', () => {});
      socket.once('data', () => socket.write(reply));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    raw.push({ server, sockets });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  afterAll(async () => {
    for (const { server, sockets } of raw) {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  async function attempt(origin: string, options?: { origin?: string }) {
    const quick = new HttpClient({ totalTimeoutMs: 3_000 }, { allowPrivate: [origin] });
    try {
      return await failure(quick.request({ method: 'GET', url: `${origin}/x`, headers: {} }, options));
    } finally {
      await quick.close();
    }
  }

  it('an SSH server is not "cannot connect": it did not answer with HTTP', async () => {
    const origin = await rawServer('SSH-2.0-OpenSSH_9.6\r\n');
    expect(await attempt(origin)).toEqual({
      kind: 'protocol',
      message: `${origin} did not answer with HTTP (the reply is some other protocol)`,
    });
  });

  it('a header block past 16 KiB is too large, not "cannot connect"', async () => {
    const origin = await rawServer(`HTTP/1.1 200 OK\r\nx-filler: ${'a'.repeat(20_000)}\r\ncontent-length: 0\r\n\r\n`);
    expect(await attempt(origin)).toEqual({
      kind: 'too-large',
      message: `response headers from ${origin} are larger than 16384 bytes`,
    });
  });

  it('HTTP that breaks the rules is a malformed response', async () => {
    const origin = await rawServer('HTTP/1.1 200 OK\r\nbad header line\r\n\r\n');
    expect(await attempt(origin)).toEqual({
      kind: 'protocol',
      message: `malformed HTTP response from ${origin} (Invalid header token)`,
    });
  });

  it('messages name the origin the caller gives, not the address the request went to', async () => {
    const origin = await rawServer('SSH-2.0-OpenSSH_9.6\r\n');
    const { message } = await attempt(origin, { origin: 'https://api.example.com' });
    expect(message).toBe('https://api.example.com did not answer with HTTP (the reply is some other protocol)');
    expect(message).not.toContain('127.0.0.1');
  });
});
