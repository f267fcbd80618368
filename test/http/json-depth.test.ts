// The jsonDepth interceptor alone (and behind contentDecoding), on a plain undici Agent against a
// loopback server: deep JSON under a JSON type and without one, the same nesting inside strings
// and under a type that is not JSON, an escape cut between two chunks, and a deep answer that
// then stalls, which must fail at the byte past the bound rather than wait for the end.

import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/http/client.js';
import { HttpError } from '../../src/http/errors.js';
import { contentDecoding } from '../../src/http/interceptors/content-decoding.js';
import { jsonDepth } from '../../src/http/interceptors/json-depth.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { composed, dispatchThrough } from './dispatch-kit.js';

const MAX = 16;
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** Path → content type (null: none) and the body's chunks, each written after the previous one was. */
const ANSWERS: Record<string, [string | null, string[]]> = {
  '/at-bound': ['application/json', [nested(MAX)]],
  '/past-bound': ['application/json', [nested(MAX + 1)]],
  '/problem-json': ['application/problem+json', [nested(MAX + 1)]],
  '/untyped': [null, ['  \n', nested(MAX + 1)]],
  '/untyped-text': [null, ['not json ' + nested(MAX + 1)]],
  '/text-type': ['text/plain', [nested(MAX + 1)]],
  '/in-string': ['application/json', [JSON.stringify([nested(100)])]],
  // A backslash ends the first chunk: the quote that starts the second is escaped, so the brackets after it are still string.
  '/split-escape': ['application/json', ['["a\\', '"' + '['.repeat(MAX + 5) + '"]']],
  '/across-chunks': ['application/json', ['['.repeat(MAX - 2), '[[[', ']'.repeat(MAX + 1)]],
};

let server: Upstream;
const chain = composed([jsonDepth(MAX)]);

beforeAll(async () => {
  server = await startUpstream((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/deep-then-stall') {
      // Past the bound at once, then silence (the server would hold the rest for ever): the client must not wait.
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.write(nested(MAX + 1).slice(0, MAX + 1));
    }
    if (path === '/gzip-deep')
      return void res
        .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
        .end(gzipSync(nested(MAX + 1)));
    const answer = ANSWERS[path];
    if (!answer) return void res.writeHead(404).end();
    const [type, chunks] = answer;
    res.writeHead(200, type === null ? {} : { 'content-type': type });
    const next = (at: number): void =>
      at === chunks.length ? void res.end() : void res.write(chunks[at], () => setTimeout(() => next(at + 1), 5));
    next(0);
  });
});

afterAll(async () => {
  await chain.close();
  await server.close();
});

const get = (path: string) => dispatchThrough(chain.dispatcher, { origin: server.origin, path });
const TOO_DEEP = `JSON answer nested more than ${MAX} levels deep (maxJsonDepth)`;

describe('jsonDepth', () => {
  it('passes JSON nested exactly to the bound and refuses one level more', async () => {
    expect((await get('/at-bound')).error).toBeNull();
    const deeper = await get('/past-bound');
    expect((deeper.error as HttpError).kind).toBe('too-deep');
    expect(deeper.error?.message).toBe(TOO_DEEP);
  });

  it('judges +json types, and an answer without a type whose first byte past whitespace opens an array', async () => {
    expect((await get('/problem-json')).error?.message).toBe(TOO_DEEP);
    expect((await get('/untyped')).error?.message).toBe(TOO_DEEP);
  });

  it('leaves text alone: a text type, an untyped answer that is not JSON, brackets inside strings', async () => {
    for (const path of ['/text-type', '/untyped-text', '/in-string', '/split-escape'])
      expect((await get(path)).error, path).toBeNull();
  });

  it('counts the nesting across chunks', async () => {
    expect((await get('/across-chunks')).error?.message).toBe(TOO_DEEP);
  });

  it('judges the decoded bytes when composed outside contentDecoding', async () => {
    const decoded = composed([contentDecoding(1 << 20), jsonDepth(MAX)]);
    try {
      expect(
        (await dispatchThrough(decoded.dispatcher, { origin: server.origin, path: '/gzip-deep' })).error?.message,
      ).toBe(TOO_DEEP);
    } finally {
      await decoded.close();
    }
  });

  it('the client fails an answer at the byte past the bound, not at its end (it may never come)', async () => {
    // The total deadline is far beyond the test's own timeout: only an early refusal can pass.
    const client = new HttpClient({ maxJsonDepth: MAX, totalTimeoutMs: 600_000 }, { allowPrivate: true });
    try {
      const failure = await client
        .request({ method: 'GET', url: `${server.origin}/deep-then-stall`, headers: {} })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(HttpError);
      expect((failure as HttpError).kind).toBe('too-deep');
    } finally {
      await client.close();
    }
  });
});
