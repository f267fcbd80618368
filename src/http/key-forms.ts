// The spellings of a key value that redaction removes and the egress check looks for (decision R4):
// those the core writes a key in (as it is in a header, percent-encoded in a URL, JSON-escaped in
// a body), those an upstream echoes it in (percent-encoded with lower-case hex, or as form data),
// and each of these as hex in either case, base64 and base64url, whole or as part of a longer
// base64 text (a Basic auth header, a dump of the request). Other spellings of these texts are
// not listed but read by the Redactor (redact.ts): JSON escapes such as `\/` or `\u0041` are
// undone (json-escapes.ts), and each form is also searched in UTF-16 of either byte order.

/** Inside a JSON string literal: the value's JSON escaping without the quotes. */
export const encodeJsonString = (value: string): string => JSON.stringify(value).slice(1, -1);

/** Shortest piece of a longer base64 text taken as a key's: shorter ones turn up by chance. */
const MIN_BASE64_PIECE = 8;

/**
 * The fewest characters of a key's start or end that redaction takes for the key: an upstream
 * that echoes a value cut short ("unknown symbol <first 24 characters>") shows only a start or an
 * end, and a handler choosing what stands before its key's token moves the cut along the key.
 * Shorter pieces turn up by chance (a shared `sk_live_` is 8).
 */
export const MIN_KEY_PART = 8;

/** A key's first or last MIN_KEY_PART characters in one spelling, and that whole spelling. */
export interface KeyPart {
  seed: string;
  along: string;
  atStart: boolean;
}

/**
 * Where a key's starts and ends of MIN_KEY_PART characters and more begin, as it stands and
 * percent-encoded (and as UTF-8 bytes, one character per byte, where it is not ASCII): what an
 * echo cut short leaves of it. Each is found by its seed and followed along the key as far as
 * the text goes on with it (found-forms.ts): listing every start and end would be a key's length
 * squared (a 4 kB key, 600 MB and 3 s of CPU). Redaction only: a handler never holds a key, so
 * it cannot send a piece of one.
 */
export function keyParts(value: string): KeyPart[] {
  const parts: KeyPart[] = [];
  for (const text of new Set([value, encodeURIComponent(value)])) {
    if (text.length <= MIN_KEY_PART) continue;
    const start = text.slice(0, MIN_KEY_PART);
    const end = text.slice(-MIN_KEY_PART);
    for (const [seed, along, atStart] of [
      [start, text, true],
      [end, text, false],
      [latin1Of(start), latin1Of(text), true],
      [latin1Of(end), latin1Of(text), false],
    ] as const) {
      // A seed cut inside a surrogate pair is no UTF-8 start or end of the key: left out.
      if (atStart ? along.startsWith(seed) : along.endsWith(seed)) parts.push({ seed, along, atStart });
    }
  }
  return parts;
}

/** Every spelling of `value` (see the top of this file), without duplicates. */
export function keyForms(value: string): string[] {
  const percent = encodeURIComponent(value);
  const formEncoded = new URLSearchParams({ v: value }).toString().slice(2);
  const texts = new Set([
    value,
    encodeJsonString(value),
    percent,
    lowerCaseEscapes(percent),
    formEncoded,
    lowerCaseEscapes(formEncoded),
  ]);
  // Each of these may come back as bytes in hex or base64 (a Basic header, a dump of the request).
  const forms = [...texts].flatMap((text) => {
    const bytes = Buffer.from(text, 'utf8');
    const hex = bytes.toString('hex');
    return [text, hex, hex.toUpperCase(), ...base64Forms(bytes)];
  });
  // Bytes are searched as text, one character per byte (latin1): there a key that is not ASCII
  // shows as its UTF-8 bytes.
  const asBytes = forms.map(latin1Of);
  return [...new Set([...forms, ...asBytes])].filter((form) => form.length > 0);
}

const lowerCaseEscapes = (text: string): string => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());

/** A text's UTF-8 bytes, one character per byte. */
export const latin1Of = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');

function base64Forms(bytes: Buffer): string[] {
  const whole = bytes.toString('base64');
  const forms = [whole, whole.replace(/=+$/, '')];
  // Inside a longer base64 text the key starts at byte 0, 1 or 2 of a 3-byte group. The
  // characters made of its own bits alone are the same whatever surrounds it.
  for (let offset = 0; offset < 3; offset++) {
    const text = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const piece = text.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6));
    if (piece.length >= MIN_BASE64_PIECE) forms.push(piece);
  }
  return [...forms, ...forms.map((form) => form.replaceAll('+', '-').replaceAll('/', '_'))];
}
