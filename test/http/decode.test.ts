import { describe, expect, it } from 'vitest';
import { decodeBody, excerpt } from '../../src/http/decode.js';

const utf8 = (text: string) => Buffer.from(text, 'utf8');
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]);

describe('decodeBody by content type', () => {
  it('parses application/json', () => {
    expect(decodeBody(utf8('{"a":[1,2],"b":null}'), 'application/json')).toEqual({
      kind: 'json',
      value: { a: [1, 2], b: null },
    });
  });

  it('parses JSON with parameters, odd case and a BOM', () => {
    expect(decodeBody(utf8('\ufeff[true]'), 'Application/JSON; Charset="UTF-8"')).toEqual({
      kind: 'json',
      value: [true],
    });
  });

  it.each(['application/ld+json', 'application/geo+json', 'application/problem+json', 'text/json'])(
    'parses %s',
    (type) => {
      expect(decodeBody(utf8('{"x":1}'), type)).toEqual({ kind: 'json', value: { x: 1 } });
    },
  );

  it('reports invalid JSON with the content type and the first bytes', () => {
    expect(decodeBody(utf8('<html><body>Bad gateway</body></html>'), 'application/json; charset=utf-8')).toEqual({
      kind: 'error',
      message: 'response is not valid JSON (application/json): <html><body>Bad gateway</body></html>',
    });
    expect(decodeBody(utf8(`{"a": ${'1'.repeat(200)}`), 'application/vnd.api+json')).toEqual({
      kind: 'error',
      message: `response is not valid JSON (application/vnd.api+json): {"a": ${'1'.repeat(74)}…`,
    });
  });

  it.each([
    ['text/plain', 'hello'],
    ['text/html; charset=utf-8', '<p>hi</p>'],
    ['text/csv', 'a,b\n1,2'],
    ['application/xml', '<a>1</a>'],
    ['application/rss+xml', '<rss/>'],
    ['image/svg+xml', '<svg/>'],
    ['application/javascript', 'var a = 1;'],
    ['application/x-ndjson', '{"a":1}\n{"a":2}\n'],
  ])('reads %s as text', (type, text) => {
    expect(decodeBody(utf8(text), type)).toEqual({ kind: 'text', value: text });
  });

  it('does not parse JSON-looking text/plain', () => {
    expect(decodeBody(utf8('{"a":1}'), 'text/plain')).toEqual({ kind: 'text', value: '{"a":1}' });
  });

  it('decodes text in the charset the header names', () => {
    expect(decodeBody(Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'text/plain; charset=ISO-8859-1')).toEqual({
      kind: 'text',
      value: 'café',
    });
    expect(decodeBody(Buffer.from('hé', 'utf16le'), 'text/plain; charset=utf-16le')).toEqual({
      kind: 'text',
      value: 'hé',
    });
    expect(
      decodeBody(
        Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]),
        'application/json; charset=latin1',
      ),
    ).toEqual({
      kind: 'json',
      value: { a: 'é' },
    });
  });

  it('invalid UTF-8 is a decode error, never text with U+FFFD in it', () => {
    const broken = Buffer.concat([utf8('price: 12 '), Buffer.from([0xff, 0xfe, 0xc3]), utf8(' EUR')]);
    expect(decodeBody(broken, 'text/plain')).toEqual({
      kind: 'error',
      message: 'response is not valid UTF-8 (text/plain): byte 10 of 17 starts no UTF-8 character, after: price: 12',
    });
    // An overlong encoding of "/" inside a JSON string.
    const json = Buffer.concat([utf8('{"name":"'), Buffer.from([0xc0, 0xaf]), utf8('"}')]);
    expect(decodeBody(json, 'application/json; charset=utf-8')).toEqual({
      kind: 'error',
      message:
        'response is not valid UTF-8 (application/json): byte 9 of 13 starts no UTF-8 character, after: {"name":"',
    });
    // A lone surrogate half, and a character cut off at the end.
    expect(decodeBody(Buffer.from([0xed, 0xa0, 0x80]), 'text/plain; charset=utf-8')).toEqual({
      kind: 'error',
      message: 'response is not valid UTF-8 (text/plain): byte 0 of 3 starts no UTF-8 character',
    });
    expect(decodeBody(Buffer.from([0x61, 0xe2, 0x82]), 'text/plain')).toMatchObject({
      message: 'response is not valid UTF-8 (text/plain): byte 1 of 3 starts no UTF-8 character, after: a',
    });
  });

  it('bytes a named charset cannot decode are a decode error', () => {
    expect(decodeBody(Buffer.from([0x61, 0x00, 0x00, 0xd8]), 'text/plain; charset=utf-16le')).toEqual({
      kind: 'error',
      message: 'response is not valid utf-16le text (text/plain)',
    });
  });

  it('refuses a charset it does not know', () => {
    expect(decodeBody(utf8('x'), 'text/plain; charset=klingon')).toEqual({
      kind: 'error',
      message: 'unsupported charset "klingon"',
    });
  });

  it('returns images as base64 with their type', () => {
    expect(decodeBody(PNG_HEAD, 'image/png')).toEqual({
      kind: 'image',
      mimeType: 'image/png',
      base64: PNG_HEAD.toString('base64'),
    });
    expect(decodeBody(PNG_HEAD, 'IMAGE/JPEG; q=1')).toEqual({
      kind: 'image',
      mimeType: 'image/jpeg',
      base64: PNG_HEAD.toString('base64'),
    });
  });

  it('returns anything else as binary base64 with its type', () => {
    const pdf = utf8('%PDF-1.7 ...');
    expect(decodeBody(pdf, 'application/pdf')).toEqual({
      kind: 'binary',
      mimeType: 'application/pdf',
      base64: pdf.toString('base64'),
    });
    expect(decodeBody(PNG_HEAD, 'application/octet-stream')).toEqual({
      kind: 'binary',
      mimeType: 'application/octet-stream',
      base64: PNG_HEAD.toString('base64'),
    });
  });

  it('an empty body is empty whatever the type', () => {
    for (const type of ['application/json', 'text/plain', 'image/png', 'application/pdf', undefined]) {
      expect(decodeBody(Buffer.alloc(0), type)).toEqual({ kind: 'empty' });
    }
  });
});

describe('decodeBody without a content type (sniffing)', () => {
  it('valid JSON → json', () => {
    expect(decodeBody(utf8(' {"a":1} '), undefined)).toEqual({ kind: 'json', value: { a: 1 } });
    expect(decodeBody(utf8('42'), undefined)).toEqual({ kind: 'json', value: 42 });
  });

  it('valid UTF-8 without NUL → text', () => {
    expect(decodeBody(utf8('grüße, not JSON'), undefined)).toEqual({ kind: 'text', value: 'grüße, not JSON' });
  });

  it('NUL or invalid UTF-8 → binary', () => {
    const withNul = Buffer.from([0x61, 0x00, 0x62]);
    expect(decodeBody(withNul, undefined)).toEqual({
      kind: 'binary',
      mimeType: 'application/octet-stream',
      base64: withNul.toString('base64'),
    });
    expect(decodeBody(PNG_HEAD, undefined)).toEqual({
      kind: 'binary',
      mimeType: 'application/octet-stream',
      base64: PNG_HEAD.toString('base64'),
    });
  });

  it('treats an empty or malformed content type as missing', () => {
    expect(decodeBody(utf8('{"a":1}'), '')).toEqual({ kind: 'json', value: { a: 1 } });
    expect(decodeBody(utf8('plain'), 'garbage')).toEqual({ kind: 'text', value: 'plain' });
  });
});

describe('excerpt', () => {
  it('returns short text unchanged', () => {
    expect(excerpt(utf8('{"error":"invalid key"}'))).toBe('{"error":"invalid key"}');
  });

  it('cuts at max bytes and marks the cut', () => {
    expect(excerpt(utf8('a'.repeat(300)))).toBe(`${'a'.repeat(200)}…`);
    expect(excerpt(utf8('abcdef'), 3)).toBe('abc…');
  });

  it('never splits a multi-byte character', () => {
    expect(excerpt(utf8('ab€cd'), 3)).toBe('ab…'); // € is three bytes
    expect(excerpt(utf8('ab€cd'), 5)).toBe('ab€…');
  });

  it('folds control characters, bidi overrides and whitespace runs into one space', () => {
    expect(excerpt(utf8('line one\r\n\tline\u0007two \u202eevil\u202c  end'))).toBe('line one line two evil end');
  });

  it('says so instead of printing binary', () => {
    expect(excerpt(Buffer.from([0x89, 0x50, 0x00, 0xff]))).toBe('(4 bytes of binary data)');
  });

  it('names an empty body', () => {
    expect(excerpt(Buffer.alloc(0))).toBe('(empty body)');
  });
});
