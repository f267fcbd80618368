// The fuzz suite's leak detector, checked on its own: every spelling a leak could take is found,
// in text, in bytes and escaped again by JSON, and text without a key is clean. A detector that
// missed a form would let the suite pass over a leak.

import { describe, expect, it } from 'vitest';
import { ENV_KEY, GRANTED_KEY, HEX_KEY, keyFormsIn } from './keys.js';

const spellings = (key: string): Record<string, string | Buffer> => ({
  plain: key,
  percent: encodeURIComponent(key),
  'percent, lower-case hex': encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (s) => s.toLowerCase()),
  form: new URLSearchParams({ v: key }).toString(),
  'JSON with \\/': JSON.stringify({ key }).replaceAll('/', '\\/'),
  'JSON twice': JSON.stringify(JSON.stringify({ key })),
  base64: Buffer.from(`Basic user:${key}`).toString('base64'),
  'base64 shifted': Buffer.from(`xx${key}`).toString('base64'),
  base64url: Buffer.from(`x${key}`).toString('base64url'),
  hex: Buffer.from(key).toString('hex'),
  HEX: Buffer.from(key).toString('hex').toUpperCase(),
  'UTF-16 bytes': Buffer.from(`a ${key} b`, 'utf16le'),
  'UTF-16 read as text, then JSON': JSON.stringify(Buffer.from(key, 'utf16le').toString('latin1')),
  'cut short': `...${key.slice(0, 16)}`,
  reversed: [...key].reverse().join(''),
});

describe('the fuzz suite finds a key in every spelling', () => {
  for (const [name, key] of [
    ['granted', GRANTED_KEY],
    ['.env', ENV_KEY],
    ['hex', HEX_KEY],
  ] as const) {
    for (const [spelling, data] of Object.entries(spellings(key))) {
      it(`${name} key, ${spelling}`, () => expect(keyFormsIn(data).length).toBeGreaterThan(0));
    }
  }

  it('and nothing in text that holds no key', () => {
    expect(keyFormsIn('fz and fe, FZ, hex 0123456789abcdef, \\/ \\u0000 %2F+= and other noise')).toEqual([]);
    expect(keyFormsIn(Buffer.from([0, 1, 2, 0xff]))).toEqual([]);
  });
});
