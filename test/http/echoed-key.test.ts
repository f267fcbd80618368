// Issue 13, point 4: handlers never see a key, even when the upstream echoes it. A real loopback
// upstream reflects the request (its headers, URL and query, so the key in both of its slots)
// in JSON, text, a response header, base64, base64url, hex, \u-escaped and \/-escaped JSON (one
// JSON text, JSON lines, JSONP), lower-case percent escapes, form encoding, UTF-16 and binary
// data; a postRequest reverses, re-cases and cuts every string it is given. No piece of the key,
// in any spelling, forwards or reversed, may appear in a result or an error, while the upstream
// did receive it.

import { writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallResult } from '../../src/call/outcome.js';
import { Catalog } from '../../src/runtime/catalog.js';
import { tempProject } from '../kit/project.js';
import { startUpstream, type RecordEntry, type Upstream } from '../support/upstream.js';

const SCHEMA = join(import.meta.dirname, '..', 'fixtures', 'echo', 'echo.mjs');
/** Characters that every encoding writes its own way: `+ / =`, a space, `*` and a quote. */
const KEY = 'sk-echo-7Hq2+xZ/9w Lm*4P"e=';
const MARKER = '[redacted ECHO_KEY]';

const hex = (text: string): string => Buffer.from(text).toString('hex');
const base64 = (text: string | Buffer): string => Buffer.from(text).toString('base64');

/** The key's bytes starting at byte 0, 1 and 2 of a 3-byte group, each run padded to whole groups. */
function keyAtEachAlignment(): Buffer {
  return Buffer.concat(
    [0, 1, 2].map((offset) => {
      const run = Buffer.concat([Buffer.alloc(offset, 0xff), Buffer.from(KEY)]);
      return Buffer.concat([run, Buffer.alloc((3 - (run.length % 3)) % 3, 0xfe)]);
    }),
  );
}

interface Echo {
  status?: number;
  type: string;
  body: string | Buffer;
  headers?: Record<string, string>;
}

/** The answer of each mode; `echo` is the request as JSON text, `key` the key as the header brought it. */
const MODES: Record<string, (echo: string, key: string, url: string) => Echo> = {
  json: (echo) => ({ type: 'application/json', body: `{"echo":${echo}}` }),
  text: (echo) => ({ type: 'text/plain; charset=utf-8', body: `you sent ${echo}` }),
  header: (_echo, key) => ({ type: 'application/json', body: '{"ok":true}', headers: { 'x-echo-key': key } }),
  base64: (echo, key) => ({
    type: 'application/json',
    body: JSON.stringify({ echo: base64(echo), basic: `Basic ${base64(`user:${key}`)}` }),
  }),
  base64url: (echo) => ({
    type: 'application/json',
    body: JSON.stringify({ echo: Buffer.from(echo).toString('base64url') }),
  }),
  hex: (echo) => ({
    type: 'application/json',
    body: JSON.stringify({ echo: hex(echo), upper: hex(echo).toUpperCase() }),
  }),
  // Every character of the echo as \uXXXX: the key is nowhere in the raw text, only once parsed.
  uescape: (echo) => ({
    type: 'application/json',
    body: `{"echo":"${[...echo].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"}`,
  }),
  // PHP's default: every slash escaped.
  slashes: (echo) => ({
    type: 'application/json',
    body: JSON.stringify({ echo: JSON.parse(echo) }).replaceAll('/', '\\/'),
  }),
  lowercase: (_echo, _key, url) => ({
    type: 'application/json',
    body: JSON.stringify({ url: url.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()) }),
  }),
  form: (_echo, _key, url) => ({
    type: 'application/json',
    body: JSON.stringify({ form: new URL(url, 'http://x').searchParams.toString() }),
  }),
  // Not one JSON text, so nothing parses it before the handler does: JSON lines and JSONP.
  jsonlines: (echo) => ({
    type: 'application/x-ndjson',
    body: `{"n":1}\n${JSON.stringify({ echo: JSON.parse(echo) }).replaceAll('/', '\\/')}\n`,
  }),
  jsonp: (echo) => ({
    type: 'application/javascript',
    body: `callback(${JSON.stringify({ echo: JSON.parse(echo) }).replaceAll('/', '\\/')});`,
  }),
  uescapelines: (echo) => ({
    type: 'application/x-ndjson',
    body: `{"n":1}\n{"echo":"${[...echo].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"}\n`,
  }),
  // In an object key, as some APIs index what they were sent.
  objectkey: (_echo, key) => ({ type: 'application/json', body: JSON.stringify({ seen: { [key]: true } }) }),
  utf16: (echo) => ({ type: 'application/json; charset=utf-16le', body: Buffer.from(`{"echo":${echo}}`, 'utf16le') }),
  // UTF-16 that says it is UTF-8 text (it is valid UTF-8, with NULs): dropping the NULs reveals it.
  utf16undeclared: (echo) => ({ type: 'text/plain', body: Buffer.from(`you sent ${echo}`, 'utf16le') }),
  binary: (echo) => ({
    type: 'application/octet-stream',
    body: Buffer.concat([keyAtEachAlignment(), Buffer.from(hex(echo)), Buffer.from(echo)]),
  }),
  status500: (_echo, key) => ({ status: 500, type: 'text/plain', body: `refused key ${base64(key)} ${hex(key)}` }),
  badjson: (_echo, key) => ({ type: 'application/json', body: `{"key":"${base64(`:${key}`)}"` }),
  ratelimit: (_echo, key) => ({
    status: 429,
    type: 'text/plain',
    body: 'slow down',
    headers: { 'retry-after': base64(key) },
  }),
};
const ANSWERED = [
  'json',
  'text',
  'header',
  'base64',
  'base64url',
  'hex',
  'uescape',
  'slashes',
  'jsonlines',
  'jsonp',
  'uescapelines',
  'lowercase',
  'form',
  'objectkey',
  'utf16',
  'utf16undeclared',
  'binary',
];
const REFUSED = ['status500', 'badjson', 'ratelimit'];

function echoUpstream(req: IncomingMessage, res: ServerResponse, entry: RecordEntry): void {
  const mode = /\/echo\/([^/?]+)/.exec(entry.url)?.[1] ?? 'json';
  const query = Object.fromEntries(new URL(entry.url, 'http://x').searchParams);
  const echo = JSON.stringify({ url: entry.url, headers: entry.headers, query });
  const answer = (MODES[mode] ?? MODES.json!)(echo, String(req.headers['x-api-key'] ?? ''), entry.url);
  res.writeHead(answer.status ?? 200, { 'content-type': answer.type, ...answer.headers }).end(answer.body);
}

/** The middle of the base64 of `bytes` inside a longer text, at each alignment: characters made of its bits alone. */
function base64Middles(bytes: Buffer): string[] {
  return [0, 1, 2].map((offset) => {
    const text = base64(Buffer.concat([Buffer.alloc(offset, 0x41), bytes, Buffer.alloc(3, 0x41)]));
    return text.slice(3, text.length - 7);
  });
}

/** JSON text with its NUL characters dropped, as a handler would to read UTF-16 bytes taken for text. */
const withoutNuls = (json: string): string => json.replaceAll('\\u0000', '');

/** Whether the handler saw the marker: as text, reversed, or inside the base64 of a binary answer. */
function sawMarker(result: CallResult): boolean {
  const seen = withoutNuls(JSON.stringify(result));
  return [MARKER, [...MARKER].reverse().join(''), ...base64Middles(Buffer.from(MARKER))].some((form) =>
    seen.includes(form),
  );
}

/** Ten-character pieces of every spelling of the key, forwards and reversed, in lower case. */
function keyPieces(): string[] {
  const bytes = Buffer.from(KEY);
  const spellings = [
    KEY,
    encodeURIComponent(KEY),
    new URLSearchParams({ k: KEY }).toString().slice(2),
    JSON.stringify(KEY).slice(1, -1),
    hex(KEY),
  ];
  for (const middle of base64Middles(bytes)) spellings.push(middle, middle.replaceAll('+', '-').replaceAll('/', '_'));
  const pieces = new Set<string>();
  for (const spelling of spellings) {
    for (let at = 0; at + 10 <= spelling.length; at++) {
      const piece = spelling.slice(at, at + 10).toLowerCase();
      pieces.add(piece).add([...piece].reverse().join(''));
    }
  }
  return [...pieces];
}

const PIECES = keyPieces();
/** The pieces of the key found in `value`, compared without case (the handler re-cases). */
function leaks(value: unknown): string[] {
  const text = withoutNuls(JSON.stringify(value)).toLowerCase();
  return PIECES.filter((piece) => text.includes(piece));
}

let upstream: Upstream;
let catalog: Catalog;
// The key comes from the project's .env, which needs no grant. The 429 of one test must not pause the origin for the next.
const project = tempProject({ config: { upstreamLimits: { maxPauseSeconds: 0 } } });

beforeAll(async () => {
  writeFileSync(join(project.dir, '.env'), `ECHO_KEY='${KEY}'\n`);
  upstream = await startUpstream(echoUpstream);
  catalog = await Catalog.load({
    schemas: SCHEMA,
    project: project.dir,
    env: {},
    upstreams: { '*': upstream.origin },
    sandbox: { size: 1 },
  });
}, 30_000);

afterAll(async () => {
  await catalog?.close();
  await upstream?.close();
  project.remove();
});

async function call(tool: string, mode: string): Promise<CallResult> {
  const mark = upstream.records.length;
  const result = await catalog.call(tool, { mode });
  // The key did reach the upstream, in the header and in the query.
  const [sent] = upstream.since(mark);
  expect(sent?.headers['x-api-key']).toBe(KEY);
  expect(sent?.url).toContain(`apikey=${encodeURIComponent(KEY)}`);
  return result;
}

describe('an upstream that echoes the key', () => {
  it('the test sees every spelling it checks for in an unredacted echo', () => {
    expect(catalog.findings().filter((finding) => finding.severity === 'error')).toEqual([]);
    const raw = MODES.base64!(JSON.stringify({ key: KEY }), KEY, `/echo/x?apikey=${encodeURIComponent(KEY)}`).body;
    expect(leaks(raw).length).toBeGreaterThan(0);
    expect(leaks([...KEY].reverse().join('')).length).toBeGreaterThan(0);
  });

  it.each(ANSWERED)('%s: the postRequest that reverses, re-cases and cuts every string sees no key', async (mode) => {
    const result = await call('echo_mangled', mode);
    expect(result.ok).toBe(true);
    expect(leaks(result)).toEqual([]);
    // The handler did get the echo, with the key taken out (a response header never reaches it).
    if (mode !== 'header') expect(sawMarker(result)).toBe(true);
  });

  it.each(ANSWERED)('%s: the route without handlers returns the echo with the key redacted', async (mode) => {
    const result = await call('echo_plain', mode);
    expect(result.ok).toBe(true);
    expect(leaks(result)).toEqual([]);
  });

  it('a postRequest that throws everything it was given, reversed: the handler error carries no key', async () => {
    const result = await call('echo_mangled', 'throw');
    expect(result.ok ? null : result.error.kind).toBe('handler');
    expect(leaks(result)).toEqual([]);
    expect(JSON.stringify(result)).toContain([...MARKER].reverse().join(''));
  });

  it.each(REFUSED)('%s: the error message carries no form of the key', async (mode) => {
    for (const tool of ['echo_mangled', 'echo_plain']) {
      const result = await call(tool, mode);
      expect(result.ok).toBe(false);
      expect(leaks(result)).toEqual([]);
    }
  });
});
