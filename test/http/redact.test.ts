// The Redactor (decision R4): each form of a key value is found and replaced, in texts, in parsed
// JSON (values, object keys, numbers) and in upstream answers before a handler sees them,
// including JSON escapes that hide a key in the raw text; nothing is copied when nothing matches.

import { describe, expect, it } from 'vitest';
import { decodeBody, type Decoded } from '../../src/http/decode.js';
import { Redactor } from '../../src/http/redact.js';

/** Characters every encoding writes its own way: `+ / =`, a space, `*`, `!` and a quote. */
const KEY = 'Zq9/+ k*y!"x7=';
const MARKER = '[redacted API_KEY]';
const redactor = new Redactor(new Map([['API_KEY', KEY]]));

const hex = (text: string): string => Buffer.from(text).toString('hex');
const base64 = (bytes: string | Buffer): string => Buffer.from(bytes).toString('base64');

/** Every 6-character piece of `spelling`: none may be left. */
function piecesOf(spelling: string): string[] {
  return Array.from({ length: spelling.length - 5 }, (_, at) => spelling.slice(at, at + 6));
}

function expectRedacted(text: string, spelling: string): void {
  const redacted = redactor.redact(text);
  expect(redacted).toContain(MARKER);
  for (const piece of piecesOf(spelling)) expect(redacted).not.toContain(piece);
}

describe('each form of a key in a text', () => {
  const percent = encodeURIComponent(KEY);
  const form = new URLSearchParams({ k: KEY }).toString().slice(2);
  it.each([
    ['literal', KEY],
    ['percent-encoded (encodeURIComponent)', percent],
    ['percent-encoded with lower-case hex', percent.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())],
    ['form-encoded (URLSearchParams)', form],
    ['form-encoded with lower-case hex', form.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())],
    ['JSON-escaped', JSON.stringify(KEY).slice(1, -1)],
    ['hex', hex(KEY)],
    ['upper-case hex', hex(KEY).toUpperCase()],
    ['base64', base64(KEY)],
    ['base64url', Buffer.from(KEY).toString('base64url')],
    ['hex of the percent-encoded key (a dump of the URL)', hex(percent)],
  ])('%s', (_name, spelling) => {
    expect(spelling).not.toBe('');
    expectRedacted(`before ${spelling} after`, spelling);
  });

  it.each([0, 1, 2, 3, 4, 5])('base64 and base64url of a longer text with the key after %i bytes', (offset) => {
    const bytes = Buffer.concat([
      Buffer.from('Basic user:'.slice(0, offset)),
      Buffer.from(KEY),
      Buffer.from(' and more'),
    ]);
    for (const text of [bytes.toString('base64'), bytes.toString('base64url')]) {
      const redacted = redactor.redact(text);
      expect(redacted).toContain(MARKER);
      // What is left of the base64 decodes to no run of the key longer than its edge bytes.
      expect(Buffer.from(redacted.replace(MARKER, ''), 'base64').toString('latin1')).not.toContain(KEY.slice(1, -1));
    }
  });

  it('leaves other text alone and returns the very string', () => {
    const text = 'nothing secret here: Zq9 k*y x7';
    expect(redactor.redact(text)).toBe(text);
  });

  it('names each key, and a redactor without keys changes nothing', () => {
    const two = new Redactor(
      new Map([
        ['A', 'first-secret-value'],
        ['B', 'second-secret-value'],
      ]),
    );
    expect(two.redact('first-secret-value / second-secret-value')).toBe('[redacted A] / [redacted B]');
    const none = new Redactor(new Map());
    const value = { a: 'x' };
    expect(none.redact('text')).toBe('text');
    expect(none.redactValue(value)).toBe(value);
  });

  it('finds forms with many keys, where one expression searches for all of them', () => {
    const many = new Redactor(new Map(Array.from({ length: 6 }, (_, i) => [`K${i}`, `key-number-${i}-0123456789`])));
    expect(many.redact(`x ${base64('key-number-4-0123456789')} y`)).toBe('x [redacted K4] y');
    // Seven characters of a key's start are not taken for the key (MIN_KEY_PART is 8).
    const clean = { list: ['key-num', 'plain'] };
    expect(many.redactValue(clean)).toBe(clean);
  });
});

describe('redactValue', () => {
  it('redacts string values, object keys and numbers', () => {
    const numeric = new Redactor(new Map([['PIN', '31415926535']]));
    expect(numeric.redactValue({ n: 31415926535, m: 7, s: 'pin 31415926535' })).toEqual({
      n: '[redacted PIN]',
      m: 7,
      s: 'pin [redacted PIN]',
    });
    expect(redactor.redactValue({ [KEY]: { echo: [`k=${encodeURIComponent(KEY)}`, 1, null, true] } })).toEqual({
      [MARKER]: { echo: [`k=${MARKER}`, 1, null, true] },
    });
  });

  it('returns the value itself when nothing matches, and shares what did not change', () => {
    const untouched = { deep: { list: ['a', 'b'] } };
    const value = { untouched, hit: [hex(KEY)] };
    expect(redactor.redactValue(untouched)).toBe(untouched);
    const redacted = redactor.redactValue(value);
    expect(redacted).toEqual({ untouched, hit: [MARKER] });
    expect(redacted.untouched).toBe(untouched);
    expect(value.hit[0]).toBe(hex(KEY));
  });

  it('keeps a __proto__ key an own property of the copy', () => {
    const value = JSON.parse(`{"__proto__": {"polluted": "${base64(KEY)}"}}`) as Record<string, unknown>;
    const redacted = redactor.redactValue(value);
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(redacted, '__proto__')?.value).toEqual({ polluted: MARKER });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('walks a value nested 100,000 deep without recursion', () => {
    let deep: unknown = [KEY];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    let redacted = redactor.redactValue(deep) as unknown;
    for (let i = 0; i < 100_000; i++) redacted = (redacted as unknown[])[0];
    expect(redacted).toEqual([MARKER]);
  });
});

describe('redactAnswer: an upstream answer before a handler sees it', () => {
  function answer(
    body: string | Buffer,
    type: string,
  ): { decoded: Decoded; response: { body: Buffer; headers: Record<string, string> } } {
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
    const decoded = decodeBody(bytes, type);
    if (decoded.kind === 'error') throw new Error(decoded.message);
    return { decoded, response: { body: bytes, headers: { 'content-type': type } } };
  }

  const viewOf = (decoded: Decoded): unknown =>
    decoded.kind === 'json' || decoded.kind === 'text' ? decoded.value : 'base64' in decoded ? decoded.base64 : null;

  it('hands on the very answer when its bytes hold no form', () => {
    const { decoded, response } = answer(
      JSON.stringify({ items: ['caf\u00e9', 'a/b'], note: 'Zq9' })
        .replace('é', '\\u00e9')
        .replaceAll('/', '\\/'),
      'application/json',
    );
    expect(redactor.redactAnswer(decoded, response)).toBe(decoded);
  });

  it.each([
    ['as it is', JSON.stringify({ echo: KEY })],
    ['in an object key', JSON.stringify({ seen: { [KEY]: 1 } })],
    // Nowhere in the raw text, only once parsed: every character a \u escape.
    [
      'written in \\u escapes',
      `{"echo":"${[...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"}`,
    ],
    ['with its slash escaped (PHP)', JSON.stringify({ echo: KEY }).replaceAll('/', '\\/')],
    ['base64 of a JSON echo', JSON.stringify({ echo: base64(JSON.stringify({ headers: { 'x-api-key': KEY } })) })],
  ])('JSON with the key %s', (_how, body) => {
    const { decoded, response } = answer(body, 'application/json; charset=utf-8');
    const text = JSON.stringify(viewOf(redactor.redactAnswer(decoded, response)));
    expect(text).toContain('[redacted API_KEY]');
    expect(text).not.toContain('Zq9');
  });

  it('JSON in another charset is walked, since its bytes do not spell the key as UTF-8 does', () => {
    const { decoded, response } = answer(
      Buffer.from(JSON.stringify({ echo: KEY }), 'utf16le'),
      'application/json; charset=utf-16le',
    );
    expect(viewOf(redactor.redactAnswer(decoded, response))).toEqual({ echo: MARKER });
  });

  it('text', () => {
    const { decoded, response } = answer(`invalid key ${encodeURIComponent(KEY)}`, 'text/plain');
    expect(viewOf(redactor.redactAnswer(decoded, response))).toBe(`invalid key ${MARKER}`);
  });

  it.each([0, 1, 2])(
    'binary data with the key after %i bytes, and its hex: redacted from the bytes the base64 is made of',
    (offset) => {
      const body = Buffer.concat([
        Buffer.alloc(offset, 0xff),
        Buffer.from(KEY),
        Buffer.from([0, 1]),
        Buffer.from(hex(KEY)),
      ]);
      const { decoded, response } = answer(body, 'application/octet-stream');
      const bytes = Buffer.from(viewOf(redactor.redactAnswer(decoded, response)) as string, 'base64').toString(
        'latin1',
      );
      expect(bytes).toBe(`${'\xff'.repeat(offset)}${MARKER}\x00\x01${MARKER}`);
    },
  );

  it('an answer with no key of this redactor, or an empty one, is handed on as it is', () => {
    const { decoded, response } = answer(JSON.stringify({ echo: KEY }), 'application/json');
    expect(new Redactor(new Map()).redactAnswer(decoded, response)).toBe(decoded);
    const empty: Decoded = { kind: 'empty' };
    expect(redactor.redactAnswer(empty, { body: Buffer.alloc(0), headers: {} })).toBe(empty);
  });
});

describe('forKeysOf', () => {
  const catalog = new Redactor(
    new Map([
      ['A', 'key-a-0123456'],
      ['B', 'key-b-9876543'],
    ]),
  );

  it('redacts only the keys named, made once per owner and shared by owners with the same names', () => {
    const plan = { keys: ['A'] };
    const onlyA = catalog.forKeysOf(plan, (owner) => owner.keys);
    expect(onlyA.redact('key-a-0123456 key-b-9876543')).toBe('[redacted A] key-b-9876543');
    expect(catalog.forKeysOf(plan, () => ['B'])).toBe(onlyA);
    expect(catalog.forKeysOf({ keys: ['A', 'A'] }, (owner) => owner.keys)).toBe(onlyA);
    // A name the catalog has no value for adds nothing.
    expect(catalog.forKeysOf({}, () => ['A', 'UNKNOWN'])).toBe(onlyA);
    expect(catalog.forKeysOf({}, () => []).redact('key-a-0123456')).toBe('key-a-0123456');
  });
});

describe("an echo cut short: a key's start or end", () => {
  const KEY_VALUE = 'k7Qx9LmP2vRt8WzY4bNc6HdJ';
  const redactor = new Redactor(new Map([['CUT', KEY_VALUE]]));

  it('of 8 characters or more is redacted as the key, in text, JSON and bytes; 7 are left', () => {
    for (let length = 8; length < KEY_VALUE.length; length++) {
      const start = KEY_VALUE.slice(0, length);
      const end = KEY_VALUE.slice(-length);
      expect(redactor.redact(`unknown symbol xx${start}`)).toBe('unknown symbol xx[redacted CUT]');
      expect(redactor.redact(`${end}!`)).toBe('[redacted CUT]!');
      expect(redactor.redactValue({ error: `q=${start}` })).toEqual({ error: 'q=[redacted CUT]' });
      const body = Buffer.from(JSON.stringify({ error: start }));
      expect(redactor.redactRawAnswer({ headers: {}, body }).body.toString()).not.toContain(start);
    }
    expect(redactor.redact(KEY_VALUE.slice(0, 7))).toBe(KEY_VALUE.slice(0, 7));
    expect(redactor.redact(KEY_VALUE.slice(3, 20))).toBe(KEY_VALUE.slice(3, 20));
  });

  it('is not what the egress check looks for: a handler never holds a piece of a key to send', () => {
    expect(redactor.holdsKey(KEY_VALUE.slice(0, 20))).toBe(false);
    expect(redactor.keysIn(KEY_VALUE.slice(0, 20))).toEqual([]);
    expect(redactor.keysIn(KEY_VALUE)).toEqual([['CUT']]);
  });

  it('shared by two keys is redacted as either (a start two keys share is taken for a key)', () => {
    const two = new Redactor(
      new Map([
        ['A', 'shared-start-aaaa'],
        ['B', 'shared-start-bbbb'],
      ]),
    );
    expect(two.redact('shared-start-aaaa shared-start-bbbb shared-start')).toBe(
      '[redacted A] [redacted B] [redacted A]',
    );
  });
});

describe('issue 23: forms behind escapes, in UTF-16 and in other charsets', () => {
  const escaped = (text: string): string =>
    [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

  it.each([
    ['every slash written \\/', JSON.stringify(KEY).slice(1, -1).replaceAll('/', '\\/')],
    ['one character \\u-escaped, the rest as it is', JSON.stringify(KEY).slice(1, -1).replace('k', '\\u006b')],
    ['every character \\u-escaped', escaped(KEY)],
  ])('in a text that is not one JSON value (JSON lines, JSONP): %s', (_how, spelling) => {
    const text = `cb({"a":1})\n{"echo":"${spelling}"}\n`;
    expect(redactor.redact(text)).toBe(`cb({"a":1})\n{"echo":"${MARKER}"}\n`);
    expect(redactor.keysIn(text)).toEqual([['API_KEY']]);
  });

  it('an escape of a character no form has changes nothing, and costs no copy', () => {
    const text = '{"a":"caf\\u00e9 \\n \\/ \\\\u0041"}';
    expect(redactor.redact(text.replace('\\/', ''))).toBe(text.replace('\\/', ''));
    const plain = new Redactor(new Map([['K', 'abcdefghij0123456789']]));
    expect(plain.redact(text)).toBe(text);
  });

  it.each([0, 1])(
    'UTF-16 bytes of the key, both byte orders, after %i bytes: replaced by the marker in the same byte order',
    (offset) => {
      const pad = Buffer.alloc(offset, 0xfe);
      for (const [littleEndian, encode] of [
        [true, (t: string) => Buffer.from(t, 'utf16le')],
        [false, (t: string) => Buffer.from(t, 'utf16le').swap16()],
      ] as const) {
        const body = Buffer.concat([pad, encode(`key=${KEY};`)]);
        const { decoded, response } = {
          decoded: { kind: 'binary' as const, mimeType: 'application/octet-stream', base64: body.toString('base64') },
          response: { body, headers: {} },
        };
        const bytes = Buffer.from((redactor.redactAnswer(decoded, response) as { base64: string }).base64, 'base64');
        expect(bytes.equals(Buffer.concat([pad, encode(`key=${MARKER};`)])), `little-endian: ${littleEndian}`).toBe(
          true,
        );
      }
    },
  );

  it('redactRawAnswer: header names and values, and a body in a declared charset rewritten as UTF-8', () => {
    const body = Buffer.from([...`{"echo":"${KEY}"}`].map((c) => `\x1b(B${c}`).join(''), 'latin1');
    const raw = redactor.redactRawAnswer({
      headers: {
        [`x-${hex(KEY)}`]: 'a',
        'x-echo': base64(KEY),
        'content-type': 'application/json; charset="ISO-2022-JP"',
      },
      body,
    });
    expect(raw.headers).toEqual({
      [`x-${MARKER}`]: 'a',
      'x-echo': MARKER,
      'content-type': 'application/json; charset=utf-8',
    });
    expect(JSON.parse(raw.body.toString('utf8'))).toEqual({ echo: MARKER });
  });

  it('redactRawAnswer hands on the very body when nothing matched, in any charset', () => {
    const body = Buffer.from('{"echo":"nothing"}', 'utf16le');
    const raw = redactor.redactRawAnswer({ headers: { 'content-type': 'application/json; charset=utf-16le' }, body });
    expect(raw.body).toBe(body);
    expect(raw.headers['content-type']).toBe('application/json; charset=utf-16le');
  });

  it('keysIn names every key of a value two keys share, and finds UTF-16 in bytes and in a text with NULs', () => {
    const shared = new Redactor(
      new Map([
        ['A', 'the-same-value-123'],
        ['B', 'the-same-value-123'],
        ['C', 'another-value-4567'],
      ]),
    );
    expect(shared.keysIn(`x ${encodeURIComponent('the-same-value-123')} y`)).toEqual([['A', 'B']]);
    const utf16 = Buffer.from('another-value-4567', 'utf16le').swap16().toString('latin1');
    expect(shared.keysIn(utf16, true)).toEqual([['C']]);
    expect(shared.keysIn(utf16)).toEqual([['C']]);
    expect(shared.keysIn('nothing here')).toEqual([]);
  });

  it('holdsKey says whether keysIn finds anything: as it stands, behind escapes, in UTF-16', () => {
    const utf16 = Buffer.from(`x ${KEY}`, 'utf16le').toString('latin1');
    const escaped = JSON.stringify(KEY)
      .slice(1, -1)
      .replace(/[a-z]/, (letter) => `\\u00${letter.charCodeAt(0).toString(16)}`);
    const texts: Array<[string, boolean]> = [
      [`a ${KEY} b`, false],
      [escaped, false],
      [utf16, true],
      [utf16, false],
      [utf16.replaceAll('\0', ''), true],
      [KEY.slice(1), false],
      ['', true],
    ];
    for (const [text, asBytes] of texts)
      expect(redactor.holdsKey(text, asBytes)).toBe(redactor.keysIn(text, asBytes).length > 0);
    // The first five hold it (without its NULs the UTF-16 text is the key as it stands); a part of it and nothing do not.
    expect(texts.map(([text, asBytes]) => redactor.holdsKey(text, asBytes))).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(new Redactor(new Map()).holdsKey(KEY)).toBe(false);
  });

  it('a text with NULs (UTF-16 taken for UTF-8) is redacted in that spelling, also inside a value', () => {
    const text = Buffer.from(`key ${KEY}`, 'utf16le').toString('utf8');
    expect(redactor.redact(text)).toBe(Buffer.from(`key ${MARKER}`, 'utf16le').toString('utf8'));
    expect(redactor.redactValue({ text })).toEqual({ text: Buffer.from(`key ${MARKER}`, 'utf16le').toString('utf8') });
  });
});

describe('a key past ASCII, behind \\u escapes', () => {
  const key = 'clé-🔑-secrète-123456';
  const accented = new Redactor(new Map([['ACCENTED', key]]));
  // As Python writes JSON by default: every character past ASCII escaped, a pair for the emoji.
  const json = JSON.stringify(key).slice(1, -1);
  const escaped = Array.from({ length: json.length }, (_, at) => json.charCodeAt(at))
    .map((unit) => (unit > 0x7e ? `\\u${unit.toString(16).padStart(4, '0')}` : String.fromCharCode(unit)))
    .join('');

  it('in a text, and in bytes that are JSON lines (where escapes stand for UTF-8 bytes)', () => {
    expect(escaped).toContain('\\ud83d\\udd11');
    const lines = `{"n":1}\n{"k":"${escaped}"}\n`;
    expect(accented.redact(lines)).toBe('{"n":1}\n{"k":"[redacted ACCENTED]"}\n');
    const raw = accented.redactRawAnswer({
      headers: { 'content-type': 'application/x-ndjson' },
      body: Buffer.from(lines),
    });
    expect(raw.body.toString('utf8')).toBe('{"n":1}\n{"k":"[redacted ACCENTED]"}\n');
  });

  it('in UTF-16 bytes, characters past U+00FF included', () => {
    const body = Buffer.concat([Buffer.from([7]), Buffer.from(`[${key}]`, 'utf16le')]);
    const raw = accented.redactRawAnswer({ headers: { 'content-type': 'application/octet-stream' }, body });
    expect(raw.body.subarray(1).toString('utf16le')).toBe('[[redacted ACCENTED]]');
  });
});

describe('keys whose values overlap or contain each other', () => {
  // B begins with A's last nine characters: a text holding A then the rest of B holds both whole.
  const A = 'alpha-7Hq2xZ9w-Lm4P';
  const B = 'xZ9w-Lm4P-omega-3Kd8';
  const both = new Redactor(
    new Map([
      ['A', A],
      ['B', B],
    ]),
  );
  const joined = 'alpha-7Hq2xZ9w-Lm4P-omega-3Kd8';

  it('a text where one key runs into the other leaves no piece of either', () => {
    expect(joined).toContain(A);
    expect(joined).toContain(B);
    const redacted = both.redact(`<${joined}>`);
    expect(redacted).toBe('<[redacted A]>');
  });

  it('keysIn names both, so the egress check judges each (one bound to the origin does not carry the other)', () => {
    expect(both.keysIn(joined)).toEqual([['A'], ['B']]);
    expect(both.keysIn(`q=${encodeURIComponent(joined)}`)).toEqual([['A'], ['B']]);
  });

  it('a key inside a longer key is that key’s text: only the longer one is named', () => {
    const nested = new Redactor(
      new Map([
        ['SHORT', 'Lm4P-omega'],
        ['LONG', B],
      ]),
    );
    expect(nested.keysIn(`x ${B} y`)).toEqual([['LONG']]);
    expect(nested.redact(`x ${B} y`)).toBe('x [redacted LONG] y');
    expect(nested.keysIn('x Lm4P-omega y')).toEqual([['SHORT']]);
  });
});
