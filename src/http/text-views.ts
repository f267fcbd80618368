// A text read another way, so that a key spelled with escapes or in UTF-16 is found where it
// stands (RULINGS R4). Each view maps its characters back to the original text, so what is found
// in the view is replaced in the original and nothing else changes.
//
// - JSON string escapes undone, anywhere in the text: a reader who splits JSON lines or cuts the
//   JSON out of a JSONP answer undoes them, whether or not the whole text is one JSON value.
// - NUL bytes left out of bytes read as latin1: UTF-16 text (little- or big-endian, at any
//   offset) of a character below U+0100 is that character beside a NUL byte.

/** View character `i` stands for the original's characters from `from[i]` up to `to[i]`. */
export interface TextView {
  text: string;
  from: Uint32Array;
  to: Uint32Array;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const FOUR_HEX = /^[0-9a-fA-F]{4}$/;

/** The code unit a `\uXXXX` at `at` spells, or -1 when there is none. */
function unicodeEscapeAt(text: string, at: number): number {
  if (text[at + 1] !== 'u') return -1;
  const digits = text.slice(at + 2, at + 6);
  return FOUR_HEX.test(digits) ? Number.parseInt(digits, 16) : -1;
}

/**
 * Whether some JSON escape in `text` spells a character for which `matters` holds: only then
 * can undoing the escapes show something the text does not already show.
 */
function escapesSpell(text: string, matters: (code: number) => boolean): boolean {
  for (let at = text.indexOf('\\'); at !== -1; ) {
    const unit = unicodeEscapeAt(text, at);
    if (unit !== -1) {
      if (matters(unit)) return true;
      at = text.indexOf('\\', at + 6);
      continue;
    }
    const simple = SIMPLE_ESCAPES[text[at + 1] ?? ''];
    if (simple !== undefined && matters(simple.charCodeAt(0))) return true;
    at = text.indexOf('\\', at + (simple === undefined ? 1 : 2));
  }
  return false;
}

/**
 * `text` with its JSON string escapes undone, or null when no escape spells a character for
 * which `matters` holds. With `asBytes` the text is bytes read as latin1, and a `\uXXXX` stands
 * for its character's UTF-8 bytes (a surrogate pair for its code point's).
 */
export function jsonUnescaped(text: string, asBytes: boolean, matters: (code: number) => boolean): TextView | null {
  if (!escapesSpell(text, matters)) return null;
  const from = new Uint32Array(text.length);
  const to = new Uint32Array(text.length);
  const pieces: string[] = [];
  let length = 0;
  /** The original's characters `start` up to `end`, each standing for itself. */
  const copy = (start: number, end: number): void => {
    pieces.push(text.slice(start, end));
    for (let i = start; i < end; i++, length++) {
      from[length] = i;
      to[length] = i + 1;
    }
  };
  /** `piece`, every character of which stands for the whole escape `start` up to `end`. */
  const put = (piece: string, start: number, end: number): void => {
    pieces.push(piece);
    for (let i = 0; i < piece.length; i++, length++) {
      from[length] = start;
      to[length] = end;
    }
  };
  let copied = 0;
  for (let at = text.indexOf('\\'); at !== -1; at = text.indexOf('\\', Math.max(copied, at + 1))) {
    const unit = unicodeEscapeAt(text, at);
    const simple = SIMPLE_ESCAPES[text[at + 1] ?? ''];
    if (unit === -1 && simple === undefined) continue; // not an escape: the backslash stands for itself
    copy(copied, at);
    if (unit === -1) {
      put(simple as string, at, at + 2);
      copied = at + 2;
      continue;
    }
    let end = at + 6;
    let character = String.fromCharCode(unit);
    const low = unit >= 0xd800 && unit <= 0xdbff ? unicodeEscapeAt(text, end) : -1;
    if (low >= 0xdc00 && low <= 0xdfff) {
      character += String.fromCharCode(low);
      end += 6;
    }
    put(asBytes ? Buffer.from(character, 'utf8').toString('latin1') : character, at, end);
    copied = end;
  }
  copy(copied, text.length);
  return { text: pieces.join(''), from: from.subarray(0, length), to: to.subarray(0, length) };
}

/** Bytes read as latin1 without their NUL bytes, or null when there are none. */
export function withoutNuls(text: string): TextView | null {
  if (!text.includes('\0')) return null;
  const bytes = Buffer.from(text, 'latin1');
  const kept = Buffer.allocUnsafe(bytes.length);
  const from = new Uint32Array(bytes.length);
  let length = 0;
  for (let at = 0; at < bytes.length; at++) {
    const byte = bytes[at] as number;
    if (byte === 0) continue;
    kept[length] = byte;
    from[length++] = at;
  }
  const starts = from.subarray(0, length);
  return { text: kept.toString('latin1', 0, length), from: starts, to: starts.map((start) => start + 1) };
}

/** Where the view's characters `start` up to `end` stand in the original text. */
export function originalSpan(view: TextView, start: number, end: number): { start: number; end: number } {
  return { start: view.from[start] as number, end: view.to[end - 1] as number };
}
