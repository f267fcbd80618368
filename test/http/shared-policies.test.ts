// A seventh reviewer's attack on the redirect and content-decoding policies that one object serves
// for every request until an answer needs a policy of its own (interceptors/redirect.ts,
// content-decoding.ts, PolicyChain.replace): through the real HttpClient, with every policy in its
// order, many requests in flight together against a loopback upstream whose answers are held and
// written in pieces so that they interleave: same-origin redirect chains each exactly maxRedirects
// long (one hop counted for another request fails it), redirects to another origin (refused, and
// the other server never reached), gzip and br answers, redirects whose last answer is gzip, an
// encoded redirect body, and encoded answers cut off mid-body. Each request must end with its own
// outcome: its own body, its own hops, its own error.

import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, type HttpResponse } from '../../src/http/client.js';
import { HttpError } from '../../src/http/errors.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const MAX_REDIRECTS = 3;
const KINDS = ['hops', 'gzip', 'br', 'away', 'cut', 'hops-then-gzip', 'encoded-redirect', 'plain'] as const;
type Kind = (typeof KINDS)[number];

let api: Upstream;
let other: Upstream;
let client: HttpClient;

/** Writes `body` in three pieces, a turn of the event loop apart, so that answers interleave. */
function inPieces(res: ServerResponse, body: Buffer, cutAfter?: number): void {
  const third = Math.ceil(body.length / 3);
  let at = 0;
  const next = (): void => {
    if (res.destroyed) return;
    if (cutAfter !== undefined && at >= cutAfter) return void res.socket?.destroy();
    if (at >= body.length) return void res.end();
    res.write(body.subarray(at, at + third));
    at += third;
    setImmediate(next);
  };
  setImmediate(next);
}

beforeAll(async () => {
  other = await startUpstream();
  api = await startUpstream((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const id = url.searchParams.get('id') ?? '';
    const left = Number(url.searchParams.get('left') ?? 0);
    const json = Buffer.from(JSON.stringify({ id, pad: 'p'.repeat(3_000) }));
    const kind = url.pathname.slice(1) as Kind;
    switch (kind) {
      case 'hops':
      case 'hops-then-gzip':
        if (left > 0)
          return void res.writeHead(302, { location: `/${kind}?id=${id}&left=${left - 1}` }).end(`hop ${left}`);
        if (kind === 'hops') return void res.writeHead(200, { 'content-type': 'application/json' }).end(json);
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        return inPieces(res, gzipSync(json));
      case 'gzip':
      case 'br':
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': kind === 'br' ? 'br' : 'gzip' });
        return inPieces(res, kind === 'br' ? brotliCompressSync(json) : gzipSync(json));
      case 'away':
        return void res.writeHead(302, { location: `${other.origin}/stolen?id=${id}` }).end();
      case 'cut': {
        const encoded = gzipSync(json);
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          'content-length': String(encoded.length),
        });
        return inPieces(res, encoded, 1);
      }
      case 'encoded-redirect':
        if (left > 0) {
          res.writeHead(302, { location: `/plain?id=${id}`, 'content-encoding': 'gzip' });
          return inPieces(res, gzipSync('moved'));
        }
        return void res.writeHead(500).end();
      case 'plain':
        res.writeHead(200, { 'content-type': 'application/json' });
        return inPieces(res, json);
    }
    res.writeHead(404).end();
  });
  client = new HttpClient({ maxRedirects: MAX_REDIRECTS }, { allowPrivate: true });
});
afterAll(async () => {
  await client?.close();
  await Promise.all([api?.close(), other?.close()]);
});

function pathOf(kind: Kind, id: number): string {
  const left = kind === 'hops' || kind === 'hops-then-gzip' ? MAX_REDIRECTS : kind === 'encoded-redirect' ? 1 : 0;
  return `/${kind}?id=${id}&left=${left}`;
}

async function outcome(kind: Kind, id: number): Promise<HttpResponse | HttpError> {
  try {
    return await client.request({ method: 'GET', url: `${api.origin}${pathOf(kind, id)}`, headers: {} });
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
}

describe('requests in flight together each keep their own redirects and decoding', () => {
  it('every request ends with its own body, hops or error, whatever the others are doing', async () => {
    const touchedBefore = other.hits() + other.connections();
    for (let round = 0; round < 3; round++) {
      const requests = Array.from({ length: 64 }, (_, id) => ({
        id,
        kind: KINDS[(id * 5 + round) % KINDS.length] as Kind,
      }));
      const outcomes = await Promise.all(requests.map(({ kind, id }) => outcome(kind, id)));
      requests.forEach(({ kind, id }, at) => {
        const got = outcomes[at];
        const label = `${kind} #${id}`;
        if (kind === 'away') {
          expect(got, label).toBeInstanceOf(HttpError);
          expect((got as HttpError).kind, label).toBe('redirect-refused');
          return;
        }
        if (kind === 'cut') {
          expect(got, label).toBeInstanceOf(HttpError);
          return;
        }
        expect(got, label).not.toBeInstanceOf(HttpError);
        const response = got as HttpResponse;
        expect(response.status, label).toBe(200);
        expect(JSON.parse(response.body.toString()).id, label).toBe(String(id));
        expect(response.headers['content-encoding'], label).toBeUndefined();
        const hops = kind === 'hops' || kind === 'hops-then-gzip' ? MAX_REDIRECTS : kind === 'encoded-redirect' ? 1 : 0;
        expect(response.redirects, label).toBe(hops);
        if (hops > 0) expect(new URL(response.url).searchParams.get('id'), label).toBe(String(id));
      });
    }
    expect(other.hits() + other.connections() - touchedBefore).toBe(0);
  });
});
