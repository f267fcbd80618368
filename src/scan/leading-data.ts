// Reads a schema file's `main` (or a list file's `list`) without building its syntax tree, where
// that is safe to do.
//
// Most of a schema file is `main`, plain data, and parsing it into a syntax tree and reading the
// tree back (literal.ts) is most of what checking a catalog costs: the tree allocates many times
// the data it holds. When the file opens with `export const main = {` (after comments and
// blanks only, so that nothing before it can change how it reads) and the object is plain data
// by the rules literal.ts applies, this reads it straight from the text: objects, arrays, strings,
// numbers, `-` numbers, booleans, null, comments, trailing commas. Anything else (an identifier,
// a call, a spread, a method, a hole, a template with `${`, a second key, `__proto__`, an escape
// or a number this reader does not take, deep nesting) makes it give up, and the file is read
// the ordinary way, which reports what is wrong. It never decides that something is code.
//
// The caller (leading-parse.ts) parses the rest of the file with the object cut down to `{}`, which
// spares the parser the object's text, and checks that the parser found `main`'s initialiser
// exactly there. The sink maps the parsed offsets back into the file, and the rest of the check
// reads code (the handlers factory) from the text that was parsed.

import type { Locator } from '../report/findings.js';
import { ownText, PATH_STEP, type LiteralData } from './literal.js';

/** The exports read this way, each the root of its file's finding paths. */
export type LeadingName = 'main' | 'list';

export interface LeadingData {
  /** Offsets of the object's `{` and just past its `}`. */
  start: number;
  end: number;
  data: LiteralData;
}

/** Nesting deeper than this is left to the parser (which reports absurd depth itself). */
const MAX_DEPTH = 64;

/** Thrown inside the reader when the text is not data it takes; caught at the top, never leaving this module (the parser then reads the file). */
class NotPlainData extends Error {}
const giveUp = new NotPlainData();

/**
 * Where each value of a container starts: an array's by index, an object's as key and offset one
 * after the other. What the locator walks; flat arrays, not maps, since most are never asked.
 */
type Positions = WeakMap<object, Array<string | number>>;

const OPENINGS: Record<LeadingName, RegExp> = { main: opening('main'), list: opening('list') };

function opening(name: LeadingName): RegExp {
  return new RegExp(`^export\\s+const\\s+${name}\\s*=\\s*`);
}

export function readLeadingData(text: string, name: LeadingName): LeadingData | null {
  const reader = new DataReader(text);
  try {
    reader.skipTrivia();
    // Blanks and comments only before the declaration; inside it, none (a comment there is rare).
    const declared = OPENINGS[name].exec(text.slice(reader.at, reader.at + 64));
    if (!declared) return null;
    reader.at += declared[0].length;
    if (text.charCodeAt(reader.at) !== 0x7b /* { */) return null;
    const start = reader.at;
    const value = reader.value(0);
    return {
      start,
      end: reader.at,
      data: { value, opaque: [], nonFinite: [], locate: locator(name, value, start, reader.positions) },
    };
  } catch (error) {
    if (error instanceof NotPlainData || error instanceof RangeError) return null;
    throw error;
  }
}

class DataReader {
  at = 0;
  readonly positions: Positions = new WeakMap();

  constructor(private readonly text: string) {}

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) throw giveUp;
    const code = this.text.charCodeAt(this.at);
    switch (code) {
      case 0x7b /* { */:
        return this.object(depth);
      case 0x5b /* [ */:
        return this.array(depth);
      case 0x22 /* " */:
      case 0x27 /* ' */:
        return this.string(code);
      case 0x60 /* ` */:
        return this.template();
      case 0x2d /* - */:
        this.at += 1;
        this.skipTrivia();
        return -this.number();
      default:
        if ((code >= 0x30 && code <= 0x39) || code === 0x2e) return this.number();
        return this.keyword();
    }
  }

  private object(depth: number): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    const starts: Array<string | number> = [];
    this.at += 1;
    for (;;) {
      this.skipTrivia();
      if (this.text.charCodeAt(this.at) === 0x7d /* } */) break;
      const key = this.key();
      if (key === '__proto__' || Object.hasOwn(result, key)) throw giveUp;
      this.skipTrivia();
      if (this.text.charCodeAt(this.at) !== 0x3a /* : */) throw giveUp;
      this.at += 1;
      this.skipTrivia();
      starts.push(key, this.at);
      result[key] = this.value(depth + 1);
      this.skipTrivia();
      const next = this.text.charCodeAt(this.at);
      if (next === 0x2c /* , */) this.at += 1;
      else if (next !== 0x7d) throw giveUp;
    }
    this.at += 1;
    this.positions.set(result, starts);
    return result;
  }

  private array(depth: number): unknown[] {
    const items: unknown[] = [];
    const starts: number[] = [];
    this.at += 1;
    for (;;) {
      this.skipTrivia();
      const code = this.text.charCodeAt(this.at);
      if (code === 0x5d /* ] */) break;
      if (code === 0x2c) throw giveUp; // a hole
      starts.push(this.at);
      items.push(this.value(depth + 1));
      this.skipTrivia();
      const next = this.text.charCodeAt(this.at);
      if (next === 0x2c) this.at += 1;
      else if (next !== 0x5d) throw giveUp;
    }
    this.at += 1;
    this.positions.set(items, starts);
    return items;
  }

  /** A property key: an ASCII identifier name, a string, or a plain decimal integer. */
  private key(): string {
    const text = this.text;
    const first = text.charCodeAt(this.at);
    if (first === 0x22 || first === 0x27) return this.string(first);
    const start = this.at;
    if (isIdentifierStart(first)) {
      do this.at += 1;
      while (isAsciiIdentifierPart(text.charCodeAt(this.at)));
    } else if (first === 0x30) {
      this.at += 1;
    } else if (first > 0x30 && first <= 0x39) {
      do this.at += 1;
      while (isDigit(text.charCodeAt(this.at)) && this.at - start < 15);
    } else throw giveUp;
    // A name that goes on in characters this reader does not take (non-ASCII, escapes), or a longer number.
    if (isIdentifierPart(text.charCodeAt(this.at))) throw giveUp;
    return text.slice(start, this.at);
  }

  private string(quote: number): string {
    const open = this.at + 1;
    // Runs of plain characters are found by a regular expression: native code, where a loop
    // over each character runs cold (strings are most of the text).
    const plain = quote === 0x22 ? PLAIN_IN_DOUBLE : PLAIN_IN_SINGLE;
    let at = open;
    let cooked = '';
    let from = open;
    for (;;) {
      plain.lastIndex = at;
      if (!plain.test(this.text)) throw giveUp; // only past the end of the text
      at = plain.lastIndex;
      const code = this.text.charCodeAt(at);
      if (code === quote) break;
      if (code !== 0x5c /* \ */) throw giveUp; // a line break or the end of the text
      cooked += this.text.slice(from, at);
      const [text, length] = this.escape(at);
      cooked += text;
      at += length;
      from = at;
    }
    this.at = at + 1;
    return from === open ? ownText(this.text.slice(open, at)) : cooked + this.text.slice(from, at);
  }

  /** One escape at `at` (the backslash): what it stands for and how many characters it takes. */
  private escape(at: number): [string, number] {
    const next = this.text[at + 1] ?? '';
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) return [simple, 2];
    if (next === '0' && !/[0-9]/.test(this.text[at + 2] ?? '')) return ['\0', 2];
    if (next === 'x') {
      const hex = /^[0-9a-fA-F]{2}/.exec(this.text.slice(at + 2, at + 4))?.[0];
      if (!hex) throw giveUp;
      return [String.fromCharCode(parseInt(hex, 16)), 4];
    }
    if (next === 'u') {
      const hex = /^[0-9a-fA-F]{4}/.exec(this.text.slice(at + 2, at + 6))?.[0];
      if (!hex) throw giveUp; // \u{...} is left to the parser
      return [String.fromCharCode(parseInt(hex, 16)), 6];
    }
    // Digits (legacy octal, not allowed in modules), line continuations and `u{`: the parser's.
    if (/[0-9\n\r\u2028\u2029]/.test(next) || next === '') throw giveUp;
    // Any other character escapes to itself (a surrogate pair stays whole).
    const point = String.fromCodePoint(this.text.codePointAt(at + 1) as number);
    return [point, 1 + point.length];
  }

  /** A template literal without substitutions, escapes or carriage returns: its text as written. */
  private template(): string {
    const close = this.text.indexOf('`', this.at + 1);
    if (close < 0) throw giveUp;
    const body = this.text.slice(this.at + 1, close);
    if (body.includes('${') || body.includes('\\') || body.includes('\r')) throw giveUp;
    this.at = close + 1;
    return ownText(body);
  }

  /** A decimal number (with `_` separators) or a 0x, 0o, 0b integer; not a bigint, not a legacy octal. */
  private number(): number {
    const text = this.text;
    const start = this.at;
    // The common case, plain digits with or without a fraction, without a regular expression.
    let at = start;
    // After a leading `0`, a digit (legacy octal), a letter (0x, 0o, 0b, 0n) or `_` goes the long way.
    if (text.charCodeAt(at) !== 0x30 || !isAsciiIdentifierPart(text.charCodeAt(at + 1))) {
      while (isDigit(text.charCodeAt(at))) at += 1;
      if (text.charCodeAt(at) === 0x2e && at > start) {
        at += 1;
        while (isDigit(text.charCodeAt(at))) at += 1;
      }
      const after = text.charCodeAt(at);
      if (at > start && !isIdentifierPart(after) && after !== 0x2e) {
        this.at = at;
        return Number(text.slice(start, at));
      }
    }
    const rest = text.slice(start, start + 400);
    const written =
      /^0[xX][0-9a-fA-F](?:_?[0-9a-fA-F])*|^0[oO][0-7](?:_?[0-7])*|^0[bB][01](?:_?[01])*/.exec(rest)?.[0] ??
      /^(?:(?:0|[1-9](?:_?\d)*)(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?/.exec(rest)?.[0];
    if (!written) throw giveUp;
    this.at += written.length;
    // `01`, `1n`, `1x`: a legacy octal, a bigint, or not a number at all.
    const after = text.charCodeAt(this.at);
    if (isIdentifierPart(after) || after === 0x2e) throw giveUp;
    const value = Number(written.replaceAll('_', ''));
    if (!Number.isFinite(value)) throw giveUp;
    return value;
  }

  private keyword(): boolean | null {
    for (const [word, value] of KEYWORDS) {
      if (this.text.startsWith(word, this.at) && !isIdentifierPart(this.text.charCodeAt(this.at + word.length))) {
        this.at += word.length;
        return value;
      }
    }
    throw giveUp;
  }

  /** Blanks, line breaks and comments. */
  skipTrivia(): void {
    const text = this.text;
    for (;;) {
      const code = text.charCodeAt(this.at);
      if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) {
        this.at += 1;
      } else if (code === 0x2f /* / */) {
        const next = text.charCodeAt(this.at + 1);
        if (next === 0x2f) {
          const end = text.slice(this.at).search(/[\n\r\u2028\u2029]/);
          this.at = end < 0 ? text.length : this.at + end;
        } else if (next === 0x2a /* * */) {
          const end = text.indexOf('*/', this.at + 2);
          if (end < 0) throw giveUp;
          this.at = end + 2;
        } else throw giveUp;
      } else if (code > 0x7f && /[\s\u2028\u2029\ufeff]/.test(text[this.at] as string)) {
        this.at += 1;
      } else if (code === 0x0b || code === 0x0c) {
        this.at += 1;
      } else return;
    }
  }
}

/** The characters a string in double or single quotes holds as written: all but its quote, `\\` and line breaks (sticky). */
const PLAIN_IN_DOUBLE = /[^"\\\n\r]*/y;
const PLAIN_IN_SINGLE = /[^'\\\n\r]*/y;

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  v: '\v',
  "'": "'",
  '"': '"',
  '\\': '\\',
};

const KEYWORDS: ReadonlyArray<[string, boolean | null]> = [
  ['true', true],
  ['false', false],
  ['null', null],
];

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isIdentifierStart(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f || code === 0x24;
}

function isAsciiIdentifierPart(code: number): boolean {
  return isIdentifierStart(code) || isDigit(code);
}

/** A character that would continue a name or a number, or one this reader does not judge (`\`, non-ASCII other than blanks). */
function isIdentifierPart(code: number): boolean {
  if (code <= 0x7f) return isAsciiIdentifierPart(code) || code === 0x5c;
  return code > 0x7f && !/[\s\ufeff]/.test(String.fromCharCode(code));
}

/** Where the value at `key` starts: an array's item by its index, an object's property by its name. */
function startOf(starts: ReadonlyArray<string | number>, key: string | number): number | undefined {
  if (typeof key === 'number') {
    const start = starts[key];
    return typeof start === 'number' ? start : undefined;
  }
  // Names and offsets alternate; a name never equals an offset, which is a number.
  const at = starts.indexOf(key);
  return at < 0 ? undefined : (starts[at + 1] as number);
}

/** Walks the data along a path, as literal.ts walks the tree; where the path leaves what was written, the last value reached answers. */
function locator(rootPath: string, root: unknown, rootStart: number, positions: Positions): Locator {
  return (path) => {
    if (!path.startsWith(rootPath)) return undefined;
    let value = root;
    let start = rootStart;
    for (const step of path.slice(rootPath.length).matchAll(PATH_STEP)) {
      const key = step[1] ?? (step[3] ? (JSON.parse(step[3]) as string) : Number(step[2]));
      const starts = typeof value === 'object' && value !== null ? positions.get(value) : undefined;
      const next = starts && startOf(starts, Array.isArray(value) ? key : String(key));
      if (next === undefined) break;
      value = (value as Record<string | number, unknown>)[key];
      start = next;
    }
    return start;
  };
}
