// Promise 3 for long keys (a JWT or a service account's token runs to kilobytes): an echo cut
// short redacts a key's start or end of 8 characters or more (key-forms.ts, keyParts). Listed
// one by one, a key's starts and ends are its length squared in characters, each also as bytes,
// in UTF-16 and in one regular expression: one key of 4 kB took 600 MB and 3 s of CPU to make
// its redactor, so ten such keys (and each request plan's subset of them) exhausted the heap
// before the server answered anything. On the base this file's first test runs out of memory.
//
// Real parts: the Redactor as the core builds it, its text, JSON, raw-body and UTF-16 paths.

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/http/redact.js';

/** A key of `length` URL-safe characters, its start unlike any other key's. */
const longKey = (length: number): string => randomBytes(length).toString('base64url').slice(0, length);

describe('redactors for many long keys', () => {
  it('10 keys of 4 kB: the redactor is made within 128 MB of heap (about 30), and redacts each key whole', () => {
    const values = new Map(Array.from({ length: 10 }, (_, at) => [`LONG_${at}`, longKey(4096)] as const));
    const before = process.memoryUsage().heapUsed;
    const redactor = new Redactor(values);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(128 * 1024 * 1024);
    for (const [name, value] of values) expect(redactor.redact(`a${value}b`)).toBe(`a[redacted ${name}]b`);
  });
});

describe("a long key's start or end, cut anywhere", () => {
  const value = longKey(4096);
  const redactor = new Redactor(new Map([['LONG', value]]));

  it.each([8, 9, 100, 3000, 4095])('of %i characters: redacted whole in text, JSON, bytes and UTF-16', (length) => {
    const start = value.slice(0, length);
    const end = value.slice(-length);
    expect(redactor.redact(`unknown symbol ${start}!`)).toBe('unknown symbol [redacted LONG]!');
    expect(redactor.redact(`!${end} is unknown`)).toBe('![redacted LONG] is unknown');
    expect(redactor.redactValue({ error: `q=${start}` })).toEqual({ error: 'q=[redacted LONG]' });
    const escaped = JSON.stringify({ error: end }).replace(
      end.slice(0, 1),
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    const raw = redactor.redactRawAnswer({ headers: {}, body: Buffer.from(escaped) }).body.toString();
    expect(raw).not.toContain(end.slice(1, 9));
    expect(raw).toContain('[redacted LONG]');
    // UTF-16 of either byte order: an ASCII text's bytes are the other order's one byte on, so the
    // replacement may begin a byte early; no 8 characters of the echo are left in either alignment.
    const utf16 = Buffer.from(`<${start}>`, 'utf16le');
    const clean = redactor.redactRawAnswer({ headers: {}, body: utf16 }).body;
    for (const aligned of [clean, clean.subarray(1)])
      expect(aligned.toString('utf16le')).not.toContain(start.slice(-8));
    expect(clean.toString('latin1')).toContain('r\0e\0d\0a\0c\0t\0e\0d');
  });

  it('the middle alone, and 7 characters of an end, are left (they are no start or end)', () => {
    expect(redactor.redact(value.slice(1, 2000))).toBe(value.slice(1, 2000));
    expect(redactor.redact(`x${value.slice(-7)}`)).toBe(`x${value.slice(-7)}`);
  });
});
