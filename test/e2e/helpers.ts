// End-to-end helpers: the test API that loopback upstreams play (`/behave/<mode>` picks the
// answer), the fixture folders, the canary key and the checks that it appears nowhere, and the
// CLI in a child process.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { ROOT, runFlowguard, type CliRun } from '../kit/spawn.js';
import { echo, startUpstream, type RecordEntry, type Upstream } from '../support/upstream.js';

export { ROOT, type CliRun };

const FIXTURES = join(ROOT, 'test', 'fixtures', 'e2e');
export const SCHEMAS = join(FIXTURES, 'schemas');

/** The canary key: a public-looking prefix, then the secret part that must never show. */
const KEY_PREFIX = 'sk-canary-';
const KEY_SECRET = '7Hq2+xZ/9wLm4Pe=';
export const KEY = KEY_PREFIX + KEY_SECRET;
/** The key as `encodeURIComponent` writes it (path segments, query values filled by the core). */
export const KEY_URL = encodeURIComponent(KEY);
export const REDACTED = '[redacted CANARY_KEY]';

/** Every spelling of the key, and every 8-character piece of its secret part in each spelling. */
function keyForms(): string[] {
  const spellings = [
    KEY_SECRET,
    encodeURIComponent(KEY_SECRET),
    new URLSearchParams({ v: KEY_SECRET }).toString().slice(2),
    encodeURIComponent(KEY_SECRET).toLowerCase(),
  ];
  const forms = new Set<string>();
  for (const spelling of spellings) {
    for (let i = 0; i + 8 <= spelling.length; i++) forms.add(spelling.slice(i, i + 8));
  }
  return [...forms];
}

/** The key forms found in `value` (a string, or anything JSON can write). */
export function keyLeaks(value: unknown): string[] {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return keyForms().filter((form) => text.includes(form));
}

/** A loopback upstream playing the test API; `redirect-other` points at `otherOrigin`. */
export interface BehavingUpstream extends Upstream {
  /** Where `redirect-other` points (set after both servers started). */
  otherOrigin: string;
}

export async function startBehaving(): Promise<BehavingUpstream> {
  const self: BehavingUpstream = Object.assign(
    await startUpstream((req, res, entry) => behave(req, res, entry, self.otherOrigin)),
    { otherOrigin: '' },
  );
  return self;
}

const TEN_MB = 10 * 1024 * 1024;

/** What the test servers send back: `/behave/<mode>` anywhere in the path picks the answer. */
function behave(req: IncomingMessage, res: ServerResponse, entry: RecordEntry, otherOrigin: string): void {
  const mode = /\/behave\/([^/?]+)/.exec(entry.url)?.[1] ?? 'json';
  const echoed = { method: entry.method, url: entry.url, headers: entry.headers, body: entry.body };
  const echoedKey = (): string =>
    new URL(entry.url, 'http://x').searchParams.get('apikey') ?? String(entry.headers['x-api-key'] ?? '');
  switch (mode) {
    case 'items':
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ items: [{ name: 'a' }, { name: 'b' }], noise: true }));
      return;
    case 'text':
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('plain words, not JSON');
      return;
    case 'badjson':
      res.writeHead(200, { 'content-type': 'application/json' }).end(`{"echo": ${JSON.stringify(echoed)}`);
      return;
    case 'badjsoncut':
      // The key straddles the 80-byte excerpt of a decode error: 12 of its 16 secret characters before the cut.
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(`${'x'.repeat(80 - KEY_PREFIX.length - 12)}${echoedKey()} is not JSON`);
      return;
    case 'empty':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '0' }).end();
      return;
    case '204':
      res.writeHead(204).end();
      return;
    case '404':
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    case '500':
      res
        .writeHead(500, { 'content-type': 'text/plain' })
        .end(`internal error while handling ${JSON.stringify(echoed)}`);
      return;
    case 'long500':
      res.writeHead(500, { 'content-type': 'text/plain' }).end('x'.repeat(300));
      return;
    case '500key':
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`invalid api key ${echoedKey()}`);
      return;
    case '500cut':
      // The key straddles the 200-byte excerpt of a status error: 12 of its 16 secret characters before the cut.
      res
        .writeHead(500, { 'content-type': 'text/plain' })
        .end(`${'x'.repeat(200 - KEY_PREFIX.length - 12)}${echoedKey()} was refused`);
      return;
    case '429':
      res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '7' }).end('slow down');
      return;
    case 'big': {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      streamBytes(res, TEN_MB);
      return;
    }
    case 'big-declared': {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(TEN_MB) });
      streamBytes(res, TEN_MB);
      return;
    }
    case 'reset':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"partial":', () => setTimeout(() => res.socket?.destroy(), 20));
      return;
    case 'hang':
      return; // never answers
    case 'redirect-same':
      res.writeHead(302, { location: 'landing' }).end();
      return;
    case 'redirect-other':
      res.writeHead(302, { location: `${otherOrigin}/behave/json?from=redirect` }).end();
      return;
    default:
      echo(req, res, entry);
  }
}

/** Writes `total` bytes in 16 KiB chunks, paced, until the client hangs up. */
function streamBytes(res: ServerResponse, total: number): void {
  const chunk = Buffer.alloc(16 * 1024, 0x61);
  let written = 0;
  res.on('error', () => undefined);
  const pump = (): void => {
    if (res.destroyed) return;
    if (written >= total) {
      res.end();
      return;
    }
    written += chunk.length;
    if (res.write(chunk)) setTimeout(pump, 1);
    else res.once('drain', () => setTimeout(pump, 1));
  };
  pump();
}

/** The config line that lets the canary key come from the environment. */
export const CANARY_GRANT = { security: { keys: ['CANARY_KEY', 'EMPTY_KEY'] } };

/** `flowguard <args>` in a child process with the environment `env` (and PATH), while this process's loopback servers keep answering. */
export function flowguard(args: string[], env: Record<string, string>, timeoutMs = 20_000): Promise<CliRun> {
  return runFlowguard(args, { env, timeoutMs });
}
