// Issue 23, guarantee 7: no form of a key reaches handler code, on the bridge too. A real
// loopback upstream echoes the key an executeRequest handler's request carried: in UTF-16 (both
// byte orders, declared or not, at an odd offset), in a charset whose bytes do not spell it
// (ISO-2022-JP with a mode switch before every character), in a header name, and with `\/` or
// `\u` escapes in JSON lines and JSONP. The handler (test/fixtures/egress/front.mjs, route
// `look`) reads the answer every way it can and hands back all of it reversed, re-cased and cut,
// past the final redaction: no piece of the key may come back, while the upstream did receive it.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallResult } from '../../src/call/outcome.js';
import { Catalog } from '../../src/runtime/catalog.js';
import { tempProject } from '../kit/project.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'egress');
/** With `/`, `+` and `=`, which JSON, URL and base64 encodings each write their own way. */
const KEY = 'sk-front-8Qw/3+Zp9Lm=Xy7';
const MARKER = '[redacted FRONT_KEY]';

const hex = (text: string): string => Buffer.from(text).toString('hex');
const utf16be = (text: string): Buffer => Buffer.from(text, 'utf16le').swap16();
const everyCharacterEscaped = (text: string): string =>
  [...text].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
/** JSON with every `/` written `\/`, as PHP writes it. */
const slashesEscaped = (value: unknown): string => JSON.stringify(value).replaceAll('/', '\\/');

/** ISO-2022-JP with ESC ( B before every character: the bytes never hold the key in one run; the text does. */
const modeSwitched = (key: string): Buffer => Buffer.from([...key].map((char) => `\x1b(B${char}`).join(''), 'latin1');

/** Each mode's answer, made from the key the request carried. */
const MODES: Record<
  string,
  (key: string) => { type: string; body: Buffer | string; headers?: Record<string, string> }
> = {
  'utf16le-json': (key) => ({
    type: 'application/json; charset=utf-16le',
    body: Buffer.from(JSON.stringify({ key }), 'utf16le'),
  }),
  'utf16be-text': (key) => ({ type: 'text/plain; charset=utf-16be', body: utf16be(`your key is ${key}`) }),
  // Not declared, and one byte in: a handler that decodes from byte 1 as UTF-16 reads it.
  'utf16-odd-binary': (key) => ({
    type: 'application/octet-stream',
    body: Buffer.concat([Buffer.from([1]), Buffer.from(key, 'utf16le')]),
  }),
  'iso-2022-jp': (key) => ({
    type: 'text/plain; charset=iso-2022-jp',
    body: modeSwitched(key),
  }),
  'header-name': (key) => ({ type: 'application/json', body: '{}', headers: { [`x-seen-${hex(key)}`]: 'yes' } }),
  jsonlines: (key) => ({ type: 'application/x-ndjson', body: `{"n":1}\n${slashesEscaped({ key })}\n` }),
  jsonp: (key) => ({ type: 'application/javascript', body: `callback(${slashesEscaped({ key })});` }),
  'jsonlines-uescaped': (key) => ({
    type: 'application/x-ndjson',
    body: `{"n":1}\n{"key":"${everyCharacterEscaped(key)}"}\n`,
  }),
};

/**
 * Answers a handler reads with text(), whose Content-Type the core reads as naming no usable
 * charset, spelled so that a looser reading finds ISO-2022-JP in it. (Decoding the bytes on its
 * own, a handler reads whatever it likes: an upstream that transforms a key is out of reach.)
 */
const TEXT_MODES: typeof MODES = {
  'iso-2022-jp-unclosed-quote': (key) => ({
    type: 'text/plain; charset="iso-2022-jp',
    body: modeSwitched(key),
  }),
  'iso-2022-jp-no-media-type': (key) => ({
    type: 'text plain; charset=iso-2022-jp',
    body: modeSwitched(key),
  }),
};

/** Ten-character pieces of every spelling of the key, forwards and reversed, in lower case. */
function keyPieces(): string[] {
  const spellings = [
    KEY,
    encodeURIComponent(KEY),
    JSON.stringify(KEY).slice(1, -1),
    hex(KEY),
    Buffer.from(KEY).toString('base64'),
  ];
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
const leaks = (value: unknown): string[] => {
  const text = JSON.stringify(value).toLowerCase();
  return PIECES.filter((piece) => text.includes(piece));
};

let upstream: Upstream;
let catalog: Catalog;
const project = tempProject();

beforeAll(async () => {
  upstream = await startUpstream((req, res, entry) => {
    const mode = /\/echo\/([^/?]+)/.exec(entry.url)?.[1] ?? '';
    const answer = (MODES[mode] ?? TEXT_MODES[mode])?.(String(req.headers['x-api-key']));
    if (!answer) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': answer.type, ...answer.headers }).end(answer.body);
  });
  catalog = await Catalog.load({
    schemas: SCHEMAS,
    project: project.dir,
    keys: { FRONT_KEY: KEY, VICTIM_KEY: 'vk-victim-5Tr/9+Hb2Nc=Qa1' },
    upstreams: { 'https://api.front.test': upstream.origin },
    sandbox: { size: 1 },
  });
}, 30_000);

afterAll(async () => {
  await catalog?.close();
  await upstream?.close();
  project.remove();
});

describe('a bridged answer that echoes the key', () => {
  it('the test sees the key in every unredacted echo, the way the handler reads it', () => {
    for (const make of Object.values(MODES)) {
      const { body, headers } = make(KEY);
      const bytes = Buffer.from(body);
      const decoded = ['utf-8', 'utf-16le', 'utf-16be', 'iso-2022-jp'].flatMap((label) =>
        [0, 1].map((start) => new TextDecoder(label).decode(bytes.subarray(start))),
      );
      const readings = [...decoded, JSON.stringify(headers ?? {})];
      const unescaped = readings
        .flatMap((text) => text.split(/[\n()]/))
        .flatMap((piece) => {
          try {
            return [JSON.stringify(JSON.parse(piece)).replaceAll('\\/', '/')];
          } catch {
            return [];
          }
        });
      expect(
        leaks([...readings, ...readings.map((text) => text.split('').reverse().join('')), ...unescaped]).length,
      ).toBeGreaterThan(0);
    }
  });

  it.each(Object.keys(MODES))('%s: the handler that reads it every way and mangles it sees no key', async (mode) => {
    const mark = upstream.records.length;
    const result: CallResult = await catalog.call('front_look', { mode });
    expect(result.ok, JSON.stringify(result).slice(0, 500)).toBe(true);
    // The key did reach the upstream.
    expect(upstream.records.slice(mark)[0]?.headers['x-api-key']).toBe(KEY);
    expect(leaks(result)).toEqual([]);
    // What the handler got is the echo with the key replaced, not nothing. A header name is handed
    // over as a valid name (WHATWG Headers): the marker's brackets and space become '-'.
    const marker = mode === 'header-name' ? MARKER.replace(/[^A-Za-z_]/g, '-') : MARKER;
    expect(JSON.stringify(result).toLowerCase()).toContain([...marker.toLowerCase()].reverse().join(''));
  });

  // text() reads the charset a Content-Type declares by the rule the redactor read it by.
  it.each(['iso-2022-jp', 'utf16be-text', ...Object.keys(TEXT_MODES)])(
    '%s: text() gives the redacted echo or refuses the charset, never the key',
    async (mode) => {
      const result: CallResult = await catalog.call('front_read', { mode });
      expect(result.ok, JSON.stringify(result).slice(0, 500)).toBe(true);
      expect(leaks(result)).toEqual([]);
    },
  );
});
