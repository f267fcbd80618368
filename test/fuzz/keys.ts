// The fuzz suite's two keys and every spelling of them that a leak could take. The keys are
// distinctive (a fixed prefix and random hex, with `/`, `+` and `=` so that percent-encoding,
// form encoding and the JSON `\/` escape each spell them differently), so a hit is never chance.
// They are lower-case, as hex API keys are: a key in an HTTP header name reaches a handler
// lower-cased, and should still be one of the spellings redaction promises to find.

import { randomBytes } from 'node:crypto';

/** Granted in `.env` and bound by the config to namespace `keyed`. */
export const GRANTED_KEY = `fz${randomBytes(8).toString('hex')}/${randomBytes(4).toString('hex')}+z`;
/** In `.env` only (no grant names it): the operator meant it for `keyed` too, its only declarer. */
export const ENV_KEY = `fe${randomBytes(8).toString('hex')}/${randomBytes(4).toString('hex')}=e`;
/** In `.env` only, and made of token characters: a value that can stand whole in an HTTP header name. */
export const HEX_KEY = `fh${randomBytes(12).toString('hex')}`;
export const KEYS = { FUZZ_KEY: GRANTED_KEY, FUZZ_ENV_KEY: ENV_KEY, FUZZ_HEX_KEY: HEX_KEY } as const;

/** Base64 (or base64url) characters that stand for `value`'s bytes wherever it sits in a longer text: one spelling per byte alignment. */
function base64Inner(value: Buffer, url: boolean): string[] {
  const spellings: string[] = [];
  for (let pad = 0; pad < 3; pad++) {
    const text = Buffer.concat([Buffer.alloc(pad, 0x20), value]).toString(url ? 'base64url' : 'base64');
    const start = Math.ceil((pad * 4) / 3);
    const end = Math.floor(((pad + value.length) * 4) / 3);
    spellings.push(text.slice(start, end));
  }
  return spellings;
}

/** Every form of `key` the suite looks for: the readable spellings, and each as hex, base64 and base64url at any alignment, and UTF-16. */
function formsOf(key: string): string[] {
  const percent = encodeURIComponent(key);
  const readable = [
    key,
    percent,
    percent.replace(/%[0-9A-F]{2}/g, (s) => s.toLowerCase()),
    new URLSearchParams({ v: key }).toString().slice(2),
    JSON.stringify(key).slice(1, -1).replaceAll('/', '\\/'),
  ];
  const forms = new Set<string>();
  for (const text of readable) {
    const bytes = Buffer.from(text, 'utf8');
    forms.add(text);
    forms.add(bytes.toString('hex'));
    forms.add(bytes.toString('hex').toUpperCase());
    for (const spelling of [...base64Inner(bytes, false), ...base64Inner(bytes, true)]) forms.add(spelling);
  }
  // A piece of the random part, for a key cut short by an excerpt or a line limit; and the key
  // reversed, which only a handler that saw it can write (the operator's handler reverses all it gets).
  const secret = key.slice(2);
  const reversed = [...key].reverse().join('');
  forms.add(reversed);
  for (let i = 0; i + 12 <= secret.length; i += 4)
    forms.add(secret.slice(i, i + 12)).add([...secret.slice(i, i + 12)].reverse().join(''));
  return [...forms];
}

const FORMS = Object.entries(KEYS).flatMap(([name, key]) =>
  formsOf(key).map((form) => ({ name, form, utf16: Buffer.from(form, 'utf16le') })),
);

/**
 * `text` without backslashes and NUL characters, however deeply escaped: a key JSON-escaped once
 * or twice (`\\/`, `\\\\/`) and UTF-16 text read as bytes (`F\u0000Z\u0000...`, then escaped
 * by JSON.stringify) all become the plain key again.
 */
function unescaped(text: string): string {
  return text.replace(/\\+u0000/g, '').replace(/[\\\u0000]/g, '');
}

/** The forms of either key found in `data` ('NAME: form' each): in its text, its text unescaped, and as UTF-16 bytes. */
export function keyFormsIn(data: string | Buffer): string[] {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const text = typeof data === 'string' ? data : data.toString('latin1');
  const plain = unescaped(text);
  const found: string[] = [];
  for (const { name, form, utf16 } of FORMS) {
    if (text.includes(form) || plain.includes(form) || bytes.includes(utf16)) found.push(`${name}: ${form}`);
  }
  return found;
}
