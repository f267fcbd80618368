// End-to-end helpers: loopback HTTP servers that record every request exactly as it arrives
// (method, raw path and query, headers, raw body) and answer per route, the fixture folders, a
// temp project, the canary key and the checks that it appears nowhere.

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'flowguard.js');
export const FIXTURES = join(ROOT, 'test', 'fixtures', 'e2e');
export const SCHEMAS = join(FIXTURES, 'schemas');

/** The canary key: a public-looking prefix, then the secret part that must never show. */
export const KEY_PREFIX = 'sk-canary-';
export const KEY_SECRET = '7Hq2+xZ/9wLm4Pe=';
export const KEY = KEY_PREFIX + KEY_SECRET;
/** The key as `encodeURIComponent` writes it (path segments, query values filled by the core). */
export const KEY_URL = encodeURIComponent(KEY);
export const REDACTED = '[redacted CANARY_KEY]';

/** Every spelling of the key, and every 8-character piece of its secret part in each spelling. */
export function keyForms(): string[] {
  const spellings = [KEY_SECRET, encodeURIComponent(KEY_SECRET), new URLSearchParams({ v: KEY_SECRET }).toString().slice(2), encodeURIComponent(KEY_SECRET).toLowerCase()];
  const forms = new Set<string>();
  for (const spelling of spellings) {
    for (let i = 0; i + 8 <= spelling.length; i++) forms.add(spelling.slice(i, i + 8));
  }
  return [...forms];
}

/** The key forms found in `value` (a string, or anything JSON can write). */
export function keyLeaks(value: unknown): string[] {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
  return keyForms().filter((form) => text.includes(form));
}

export interface Recorded {
  method: string;
  /** The request target exactly as received: raw path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RecordEntry extends Recorded {
  /** Set when the connection closed before the answer was complete (the client hung up). */
  closed: boolean;
  /** Name, value, name, value, ... as they arrived: `headers` keeps one of two content-types. */
  rawHeaders: string[];
}

export type Answer = (req: IncomingMessage, res: ServerResponse, entry: RecordEntry, server: RecordingServer) => void;

export class RecordingServer {
  readonly records: RecordEntry[] = [];
  /** Where `redirect-other` points (set after both servers started). */
  otherOrigin = '';
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  static async start(answer: Answer = behave): Promise<RecordingServer> {
    let self: RecordingServer | null = null;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const entry: RecordEntry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), closed: false, rawHeaders: req.rawHeaders };
        res.once('close', () => {
          if (!res.writableEnded) entry.closed = true;
        });
        self?.records.push(entry);
        answer(req, res, entry, self as RecordingServer);
      });
    });
    // Keep-alive sockets must not hold the close in afterAll.
    server.keepAliveTimeout = 500;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    self = new RecordingServer(server, (server.address() as AddressInfo).port);
    return self;
  }

  /** The requests received since `mark` (a count taken before). */
  since(mark: number): Recorded[] {
    return this.records.slice(mark).map(({ method, url, headers, body }) => ({ method, url, headers, body }));
  }

  close(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}

const TEN_MB = 10 * 1024 * 1024;

/** What the test servers send back: `/behave/<mode>` anywhere in the path picks the answer. */
export function behave(req: IncomingMessage, res: ServerResponse, entry: RecordEntry, server: RecordingServer): void {
  const mode = /\/behave\/([^/?]+)/.exec(entry.url)?.[1] ?? 'json';
  const echo = { method: entry.method, url: entry.url, headers: entry.headers, body: entry.body };
  const echoedKey = (): string => new URL(entry.url, 'http://x').searchParams.get('apikey') ?? String(entry.headers['x-api-key'] ?? '');
  switch (mode) {
    case 'items':
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ items: [{ name: 'a' }, { name: 'b' }], noise: true }));
      return;
    case 'text':
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('plain words, not JSON');
      return;
    case 'badjson':
      res.writeHead(200, { 'content-type': 'application/json' }).end(`{"echo": ${JSON.stringify(echo)}`);
      return;
    case 'badjsoncut':
      // The key straddles the 80-byte excerpt of a decode error: 12 of its 16 secret characters before the cut.
      res.writeHead(200, { 'content-type': 'application/json' }).end(`${'x'.repeat(80 - KEY_PREFIX.length - 12)}${echoedKey()} is not JSON`);
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
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`internal error while handling ${JSON.stringify(echo)}`);
      return;
    case 'long500':
      res.writeHead(500, { 'content-type': 'text/plain' }).end('x'.repeat(300));
      return;
    case '500key':
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`invalid api key ${echoedKey()}`);
      return;
    case '500cut':
      // The key straddles the 200-byte excerpt of a status error: 12 of its 16 secret characters before the cut.
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`${'x'.repeat(200 - KEY_PREFIX.length - 12)}${echoedKey()} was refused`);
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
      res.writeHead(302, { location: `${server.otherOrigin}/behave/json?from=redirect` }).end();
      return;
    default:
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(echo));
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

/**
 * A temp folder standing for the project, with no .env. `config` becomes its
 * `.flowmcp/config.json` (none when omitted).
 */
export function tempProject(config?: unknown): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'flowguard-e2e-'));
  if (config !== undefined) {
    mkdirSync(join(dir, '.flowmcp'));
    writeFileSync(join(dir, '.flowmcp', 'config.json'), JSON.stringify(config));
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The config line that lets the canary key come from the environment. */
export const CANARY_GRANT = { security: { keys: ['CANARY_KEY', 'EMPTY_KEY'] } };

/** Polls `check` every 10 ms until it holds or `ms` pass; returns whether it held. */
export async function waitFor(check: () => boolean, ms = 2_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return check();
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `node bin/flowguard.js ...` in a child process, asynchronously (the loopback servers live in
 * this process and must keep answering), killed after `timeoutMs`.
 */
export function flowguard(args: string[], env: Record<string, string>, timeoutMs = 20_000): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      stderr += `\n[killed after ${timeoutMs} ms]`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
