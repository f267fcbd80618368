// A text with its JSON string escapes undone, anywhere in it, so that a key spelled `\/` or
// `\u0041` is found where it stands (decision R4): a reader who splits JSON lines or cuts the JSON
// out of a JSONP answer undoes them, whether or not the whole text is one JSON value. The view
// maps its characters back to the original text, so what is found in it is replaced in the
// original and nothing else changes.

/** A text read another way; `span` places the view's characters `start` up to `end` in the original. */
export interface TextView {
  readonly text: string;
  span(start: number, end: number): { start: number; end: number };
}

/** One escape undone: where its character(s) stand in the view, and the escape in the original. */
interface Undone {
  view: number;
  viewEnd: number;
  start: number;
  end: number;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
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
  for (let at = text.indexOf('\\'); at !== -1;) {
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
 * for its character's UTF-8 bytes (a surrogate pair for its code point's). Made in one pass over
 * the escapes; the places of its characters are worked out only when asked for.
 */
export function jsonUnescaped(text: string, asBytes: boolean, matters: (code: number) => boolean): TextView | null {
  if (!escapesSpell(text, matters)) return null;
  const pieces: string[] = [];
  const undone: Undone[] = [];
  let length = 0;
  let copied = 0;
  for (let at = text.indexOf('\\'); at !== -1; at = text.indexOf('\\', Math.max(copied, at + 1))) {
    const unit = unicodeEscapeAt(text, at);
    const simple = SIMPLE_ESCAPES[text[at + 1] ?? ''];
    if (unit === -1 && simple === undefined) continue; // not an escape: the backslash stands for itself
    let end = at + 2;
    let piece = simple as string;
    if (unit !== -1) {
      end = at + 6;
      piece = String.fromCharCode(unit);
      const low = unit >= 0xd800 && unit <= 0xdbff ? unicodeEscapeAt(text, end) : -1;
      if (low >= 0xdc00 && low <= 0xdfff) {
        piece += String.fromCharCode(low);
        end += 6;
      }
      if (asBytes) piece = Buffer.from(piece, 'utf8').toString('latin1');
    }
    pieces.push(text.slice(copied, at), piece);
    length += at - copied;
    undone.push({ view: length, viewEnd: length + piece.length, start: at, end });
    length += piece.length;
    copied = end;
  }
  pieces.push(text.slice(copied));
  /** Where view character `at` stands: the escape it comes from, or its own place. */
  const place = (at: number, last: boolean): number => {
    let low = 0;
    let high = undone.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((undone[middle] as Undone).view <= at) low = middle + 1;
      else high = middle;
    }
    const before = undone[low - 1];
    if (before && at < before.viewEnd) return last ? before.end : before.start;
    const own = before ? before.end + (at - before.viewEnd) : at;
    return last ? own + 1 : own;
  };
  return { text: pieces.join(''), span: (start, end) => ({ start: place(start, false), end: place(end - 1, true) }) };
}
