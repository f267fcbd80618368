// The contentDecoding interceptor alone (and behind sizeCap, as the client composes them), on a
// plain undici Agent against a loopback server: every coding the client asks for, stacked
// codings, a gzip bomb, codings that cannot be undone, and an answer without a coding, which
// must pass through as it arrives. Charset decoding comes after the chain (decode.ts): a body in
// a charset that lies about its bytes arrives intact and fails there with its name.

import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBody } from '../../src/http/decode.js';
import { HttpError } from '../../src/http/errors.js';
import { contentDecoding } from '../../src/http/interceptors/content-decoding.js';
import { sizeCap } from '../../src/http/interceptors/size-cap.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { composed, dispatchThrough, settle } from './dispatch-kit.js';

const CAP = 256 * 1024;
const TEXT = Buffer.from('{"price":3120.5,"note":"' + 'x'.repeat(2_000) + '"}');
/** 50 MiB of zeros: about 50 KiB gzipped (under the cap), 200 times the cap once inflated. */
const BOMB = gzipSync(Buffer.alloc(50 * 1024 * 1024), { level: 9 });

const BODIES: Record<string, [string, Buffer]> = {
  '/gzip': ['gzip', gzipSync(TEXT)],
  '/x-gzip': ['x-gzip', gzipSync(TEXT)],
  '/deflate': ['deflate', deflateSync(TEXT)],
  '/raw-deflate': ['deflate', deflateRawSync(TEXT)],
  '/br': ['br', brotliCompressSync(TEXT)],
  '/stacked': ['gzip, br', brotliCompressSync(gzipSync(TEXT))],
  '/bomb': ['gzip', BOMB],
  '/unknown': ['zstd', TEXT],
  '/unknown-empty': ['zstd', Buffer.alloc(0)],
  '/broken': ['gzip', Buffer.from('this is not gzip')],
  '/four': ['gzip, gzip, gzip, gzip', TEXT],
};

let server: Upstream;
const chain = composed([sizeCap(CAP), contentDecoding(CAP)]);

beforeAll(async () => {
  server = await startUpstream((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const encoded = BODIES[path];
    if (encoded)
      return void res
        .writeHead(200, {
          'content-encoding': encoded[0],
          'content-length': encoded[1].length,
          'content-type': 'application/json',
        })
        .end(encoded[1]);
    if (path === '/plain-chunks') {
      // Three chunks, each after the previous one was written: an answer without a coding is not held.
      res.writeHead(200, { 'content-type': 'text/plain' });
      let left = 3;
      const next = (): void =>
        left-- === 0 ? void res.end() : void res.write(`chunk ${left}\n`, () => setTimeout(next, 5));
      return next();
    }
    if (path === '/latin1-lie')
      return void res
        .writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
        .end(Buffer.from('caf\xe9', 'latin1'));
    if (path === '/bogus-charset')
      return void res.writeHead(200, { 'content-type': 'text/plain; charset=x-no-such' }).end('hello');
    res.writeHead(404).end();
  });
});

afterAll(async () => {
  await chain.close();
  await server.close();
});

const get = (path: string) => dispatchThrough(chain.dispatcher, { origin: server.origin, path });

describe('contentDecoding', () => {
  it.each(['/gzip', '/x-gzip', '/deflate', '/raw-deflate', '/br', '/stacked'])(
    'undoes %s and drops the headers that described the encoded bytes',
    async (path) => {
      const outcome = await get(path);
      expect(outcome.error).toBeNull();
      expect(outcome.body.equals(TEXT)).toBe(true);
      expect(outcome.headers['content-encoding']).toBeUndefined();
      expect(outcome.headers['content-length']).toBeUndefined();
      expect(outcome.headers['content-type']).toBe('application/json');
    },
  );

  it('stops a gzip bomb at the cap, once', async () => {
    const outcome = await get('/bomb');
    expect((outcome.error as HttpError).kind).toBe('too-large');
    expect(outcome.error?.message).toBe(
      `response body larger than ${CAP} bytes once decoded from gzip (maxResponseBytes)`,
    );
    expect(outcome.body.length).toBe(0);
    await settle();
    expect(outcome.late).toEqual([]);
  });

  it('refuses a coding it cannot undo, broken data and more than three codings, naming the problem', async () => {
    expect((await get('/unknown')).error?.message).toBe(
      'response uses Content-Encoding "zstd", which cannot be decoded (gzip, deflate and br can)',
    );
    expect((await get('/broken')).error?.message).toBe('response body is not valid gzip data (Content-Encoding: gzip)');
    expect((await get('/four')).error?.message).toBe('response uses 4 content codings; at most 3 are decoded');
  });

  it('an empty body has nothing to undo, whatever coding it names', async () => {
    const outcome = await get('/unknown-empty');
    expect([outcome.error, outcome.body.length]).toEqual([null, 0]);
  });

  it('decodes each encoded answer among plain ones in flight together, and passes the plain ones as they are', async () => {
    // One policy looks at every answer's start; an encoded answer gets a Decoding of its own request.
    const paths = ['/gzip', '/plain-chunks', '/br', '/plain-chunks', '/stacked', '/deflate'];
    const outcomes = await Promise.all(
      paths.map((path) => dispatchThrough(chain.dispatcher, { origin: server.origin, path })),
    );
    outcomes.forEach((outcome, at) => {
      expect(outcome.error).toBeNull();
      if (paths[at] === '/plain-chunks') {
        expect(outcome.body.toString()).toBe('chunk 2\nchunk 1\nchunk 0\n');
        expect(outcome.chunks).toBe(3);
      } else {
        expect(outcome.body.equals(TEXT)).toBe(true);
        expect(outcome.headers['content-encoding']).toBeUndefined();
      }
    });
  });

  it('hands on an answer without a coding chunk by chunk, as it arrives', async () => {
    const outcome = await get('/plain-chunks');
    expect(outcome.body.toString()).toBe('chunk 2\nchunk 1\nchunk 0\n');
    expect(outcome.chunks).toBe(3);
  });

  it('a body whose bytes break its charset arrives intact; decoding names the charset', async () => {
    const lie = await get('/latin1-lie');
    expect(lie.body.equals(Buffer.from('caf\xe9', 'latin1'))).toBe(true);
    expect(decodeBody(lie.body, lie.headers['content-type'] as string)).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('not valid UTF-8'),
    });
    const bogus = await get('/bogus-charset');
    expect(decodeBody(bogus.body, bogus.headers['content-type'] as string)).toEqual({
      kind: 'error',
      message: 'unsupported charset "x-no-such"',
    });
  });
});
