// The loopback servers of the fuzz suite. `answering` stands for every API the schemas may reach
// (one server per origin, so a recorded request says which origin it was sent for); what it
// answers is the current case's `Answer`, chosen by the generator: the key echoed in many
// encodings, 429s with odd Retry-After values, invalid UTF-8, huge and deep JSON, slow answers,
// terminal escapes. The forbidden servers stand for what no request may reach: each one records
// every connection, and the suite requires that none is ever opened.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { startUpstream, type RecordEntry, type Upstream } from '../support/upstream.js';
import { LEGIT_PREFIX } from './schemas.js';

export const ANSWER_KINDS = [
  'echo-plain',
  'echo-percent',
  'echo-base64',
  'echo-base64url',
  'echo-hex',
  'echo-json-lines',
  'echo-jsonp',
  'echo-utf16',
  'echo-header-name',
  'retry-after',
  'invalid-utf8',
  'huge-json',
  'deep-json',
  'slow',
  'escapes',
  'pause-others',
] as const;
export type AnswerKind = (typeof ANSWER_KINDS)[number];

export interface Answer {
  kind: AnswerKind;
  /** `retry-after`: the header's value (odd ones included) and the status carrying it. */
  retryAfter?: string;
  status?: 429 | 503;
  /** `slow`: milliseconds before the answer (bounded by the generator). */
  delayMs?: number;
}

/** Whatever of a request could hold a key: its headers' values, its query values and its body. */
function echoedValues(entry: RecordEntry): string[] {
  const query = [...new URL(entry.url, 'http://x').searchParams.values()];
  const headers = Object.entries(entry.headers)
    .filter(([name]) => name.startsWith('x-'))
    .map(([, value]) => String(value));
  return [...headers, ...query, entry.body].filter((value) => value.length > 0);
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer): void {
  if (res.destroyed) return;
  res.writeHead(status, headers).end(body);
}

/** Answers `entry` as `answer` says. */
function answer(answer: Answer, _req: IncomingMessage, res: ServerResponse, entry: RecordEntry): void {
  const values = echoedValues(entry);
  const json = { 'content-type': 'application/json' };
  switch (answer.kind) {
    case 'echo-plain':
      return send(res, 200, json, JSON.stringify({ url: entry.url, values }));
    case 'echo-percent':
      return send(res, 200, { 'content-type': 'text/plain; charset=utf-8' }, values.map(encodeURIComponent).join('&'));
    case 'echo-base64':
      return send(
        res,
        200,
        json,
        JSON.stringify({ dump: Buffer.from(`GET ${entry.url}\n${values.join('\n')}`).toString('base64') }),
      );
    case 'echo-base64url':
      return send(res, 200, json, JSON.stringify(values.map((value) => Buffer.from(value).toString('base64url'))));
    case 'echo-hex':
      return send(res, 200, json, JSON.stringify({ hex: values.map((value) => Buffer.from(value).toString('hex')) }));
    case 'echo-json-lines':
      // Not one JSON text, so a reader that unescapes only whole JSON misses `\/`.
      return send(
        res,
        200,
        { 'content-type': 'application/x-ndjson' },
        values.map((value) => JSON.stringify({ value }).replaceAll('/', '\\/')).join('\n'),
      );
    case 'echo-jsonp':
      return send(
        res,
        200,
        { 'content-type': 'application/javascript' },
        `callback(${JSON.stringify({ values }).replaceAll('/', '\\/')});`,
      );
    case 'echo-utf16':
      return send(
        res,
        200,
        { 'content-type': 'text/plain; charset=utf-16le' },
        Buffer.from(values.join(' '), 'utf16le'),
      );
    case 'echo-header-name': {
      // Header names take only token characters (and arrive lower-cased): each value as it is where
      // it can be one (the hex key), percent-encoded and as hex, all spellings redaction promises to find.
      const headers: Record<string, string> = { ...json };
      values.forEach((value, i) => {
        if (/^[a-z0-9._~-]+$/.test(value)) headers[`x-v${i}-${value}`.slice(0, 200)] = 'as is';
        headers[`x-p${i}-${encodeURIComponent(value).replace(/[^A-Za-z0-9%._~-]/g, '')}`.slice(0, 200)] = 'percent';
        headers[`x-h${i}-${Buffer.from(value).toString('hex')}`.slice(0, 200)] = 'hex';
      });
      return send(res, 200, headers, '{"ok":true}');
    }
    case 'retry-after':
      return send(
        res,
        answer.status ?? 429,
        { ...json, 'retry-after': answer.retryAfter ?? '' },
        JSON.stringify({ error: 'slow down', values }),
      );
    case 'invalid-utf8':
      return send(
        res,
        200,
        json,
        Buffer.concat([
          Buffer.from(`{"values":${JSON.stringify(values)},"bad":"`),
          Buffer.from([0xff, 0xfe, 0xc3]),
          Buffer.from('"}'),
        ]),
      );
    case 'huge-json':
      return send(res, 200, json, JSON.stringify({ values, pad: 'x'.repeat(300 * 1024) }));
    case 'deep-json':
      return send(res, 200, json, `${'['.repeat(5000)}${JSON.stringify(values)}${']'.repeat(5000)}`);
    case 'slow':
      setTimeout(() => send(res, 200, json, JSON.stringify({ values })), answer.delayMs ?? 0);
      return;
    case 'pause-others':
      // The operator's routes are answered; any other request to the same API gets a 429 that
      // must pause only its own sender (issue 23, point 8).
      if (entry.url.startsWith(LEGIT_PREFIX)) return send(res, 200, json, JSON.stringify({ values }));
      return send(res, 429, { ...json, 'retry-after': '1' }, '{"error":"slow down"}');
    case 'escapes':
      return send(
        res,
        200,
        { 'content-type': 'text/plain; charset=utf-8' },
        `\x1b[2J\x1b]0;title\x07\u202e${values.join('\x1b[31m')}\x1b[0m\r\x08`,
      );
  }
}

/** An upstream that answers as the current case says (`current()` is read per request). */
export function startAnswering(current: () => Answer): Promise<Upstream> {
  return startUpstream((req, res, entry) => answer(current(), req, res, entry));
}

/** A server that nothing may reach (it counts every connection); over TLS with the untrusted test certificate when `tls`. */
export function startForbidden(tls: boolean): Promise<Upstream> {
  return startUpstream((_req, res) => send(res, 200, { 'content-type': 'text/plain' }, 'forbidden server reached'), {
    tls,
  });
}
