// Patterns a schema file writes (`regex()`) are matched against what clients send, in the
// server's one thread. JavaScript's engine backtracks: `^(a+)+$` takes seconds for 27
// characters and doubles with each more, and `a+b` is quadratic, so one argument would wedge
// every client. Every pattern that meets a value is matched here instead, by RE2 (re2js),
// in time linear in the value's length. A pattern is read as JavaScript writes it with the `u`
// flag (the syntax the guide asks for and clients read in `inputSchema`) and must compile in both
// engines: lookaround and backreferences, which RE2 cannot match in linear time, do not.

import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';

const require = createRequire(import.meta.url);
let engine: typeof RE2JS | undefined;
/** About 30 ms to load: only once a schema has a pattern (deps.ts, which loads the others so, uses this module). */
const re2 = () => (engine ??= (require('re2js') as typeof import('re2js')).RE2JS);

export interface Pattern {
  /** Whether the pattern matches somewhere in `text`, as RegExp's `test` answers. */
  test(text: string): boolean;
  /** The pattern as RegExp writes itself: Ajv keeps one matcher per text. */
  toString(): string;
}

/** Compiled patterns by source: schemas repeat a few (addresses, hashes). */
const compiled = new Map<string, Pattern | null>();

/** The pattern `source`, matched in linear time; null when JavaScript (`u` flag) or RE2 cannot read it. */
export function linearPattern(source: string): Pattern | null {
  let pattern = compiled.get(source);
  if (pattern === undefined) {
    pattern = compile(source);
    compiled.set(source, pattern);
  }
  return pattern;
}

/**
 * Two patterns a value must both match somewhere (two `regex()` options on one parameter), as
 * one JavaScript pattern for `inputSchema`: lookaheads, which RE2 has not, so linearPattern
 * reads the form back into its parts.
 */
export function bothPatterns(first: string, second: string): string {
  return `${BOTH_START}${first}${BOTH_BETWEEN}${second}${BOTH_END}`;
}

const BOTH_START = '^(?=[\\s\\S]*?(?:';
const BOTH_BETWEEN = '))(?=[\\s\\S]*?(?:';
const BOTH_END = '))';

function compile(source: string): Pattern | null {
  try {
    new RegExp(source, 'u');
  } catch {
    // RegExp throws only on a pattern it cannot read: null is the answer, reported by the caller.
    return null;
  }
  const parts = partsOf(source).map(linear);
  if (parts.some((part) => part === null)) return null;
  const matchers = parts as RE2JS[];
  return {
    test: (text) => matchers.every((matcher) => matcher.matcher(text).find()),
    toString: () => `/${source}/u`,
  };
}

/**
 * The patterns `bothPatterns` joined, else the pattern alone. Split at the last join: each part
 * must compile alone (no lookahead, so none holds the join's text), so no other split can.
 */
function partsOf(source: string): string[] {
  if (!source.startsWith(BOTH_START) || !source.endsWith(BOTH_END)) return [source];
  const between = source.lastIndexOf(BOTH_BETWEEN);
  if (between < BOTH_START.length) return [source];
  return [
    ...partsOf(source.slice(BOTH_START.length, between)),
    source.slice(between + BOTH_BETWEEN.length, -BOTH_END.length),
  ];
}

/** One pattern in RE2, or null where RE2 cannot read it. */
function linear(source: string): RE2JS | null {
  try {
    // RE2's syntax differs in a few escapes (`\u00e9`, `\u{1F600}`): translated from JavaScript's first.
    const engine = re2();
    return engine.compile(engine.translateRegExp(withJavaScriptClasses(source)));
  } catch {
    // RE2 throws only on a pattern it cannot read (lookaround, backreferences): null, as above.
    return null;
  }
}

// JavaScript's `\s` is every Unicode space and line end (the no-break space, U+2028, U+FEFF...),
// RE2's only [\t\n\f\r ]; JavaScript's `.` leaves out \r, U+2028 and U+2029 too, RE2's only \n.
// Read as RE2 reads them, `^\S+$` took a value starting with a no-break space and `^.+$` one with
// a \r in it, which the author's pattern (and every client) refuses: so they are written out.
const SPACES =
  '\\t\\n\\x{b}\\f\\r\\x{20}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';
const NOT_SPACES =
  '\\x{0}-\\x{8}\\x{e}-\\x{1f}\\x{21}-\\x{9f}\\x{a1}-\\x{167f}\\x{1681}-\\x{1fff}\\x{200b}-\\x{2027}\\x{202a}-\\x{202e}' +
  '\\x{2030}-\\x{205e}\\x{2060}-\\x{2fff}\\x{3001}-\\x{fefe}\\x{ff00}-\\x{10ffff}';
const LINE_ENDS = '\\n\\r\\x{2028}\\x{2029}';

/**
 * `source` (which JavaScript reads with the `u` flag) written as RE2 must read it to mean the same:
 * `\s`, `\S` and `.` as the sets JavaScript means; in a class `[` is a plain character to JavaScript
 * (RE2 reads `[:digit:]` there as a POSIX class) and `\b` a backspace (RE2 refuses it). A set's
 * ranges stand in a class in its place: `u` forbids a class escape as a range's end. Any other
 * escape is copied with the character after it, so an escaped `[`, `]` or `.` stays a character
 * (and a part ending in `\` stays unreadable). `[]` and `[^]` translateRegExp writes for RE2.
 */
function withJavaScriptClasses(source: string): string {
  let written = '';
  let inClass = false;
  for (let at = 0; at < source.length; at++) {
    const char = source[at]!;
    if (char === '\\') {
      const escaped = source[++at] ?? '';
      if (escaped === 's') written += inClass ? SPACES : `[${SPACES}]`;
      else if (escaped === 'S') written += inClass ? NOT_SPACES : `[${NOT_SPACES}]`;
      else if (escaped === 'b' && inClass) written += '\\x{8}';
      else written += char + escaped;
    } else if (inClass) {
      written += char === '[' ? '\\[' : char;
      inClass = char !== ']';
    } else {
      written += char === '.' ? `[^${LINE_ENDS}]` : char;
      inClass = char === '[';
    }
  }
  return written;
}

/** Ajv's `code.regExp`: every `pattern` and `patternProperties` of the schemas it compiles, matched as above. */
export const ajvRegExp = Object.assign(
  (source: string): Pattern => {
    const pattern = linearPattern(source);
    if (pattern === null) throw new Error(`pattern ${source.slice(0, 200)} cannot be matched in linear time`);
    return pattern;
  },
  // Ajv writes this into standalone code only, which flowguard does not generate at run time.
  { code: 'linearPattern' },
);
