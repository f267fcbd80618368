// The nesting bound on upstream JSON (RULINGS R13), checked on the bytes before anything parses
// or walks them: one pass, no recursion, strings skipped.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/** Whether the JSON text in `body` nests arrays and objects more than `max` levels deep. */
export function jsonDeeperThan(body: Uint8Array, max: number): boolean {
  let depth = 0;
  for (let at = 0; at < body.length; at++) {
    const byte = body[at];
    if (byte === QUOTE) at = closingQuote(body, at);
    else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) depth--;
  }
  return false;
}

/** Where the string opened at `open` ends (the body's length when it never does). */
function closingQuote(body: Uint8Array, open: number): number {
  for (let at = open + 1; at < body.length; at++) {
    const byte = body[at];
    if (byte === BACKSLASH) at++;
    else if (byte === QUOTE) return at;
  }
  return body.length;
}
