// Where the forms of key values stand in a text once redact.ts has searched it, and which of them
// count: every form a search finds (also one that begins inside another, where two keys' values
// overlap), then either the outermost ones (which keys a text carries) or one span per run of
// overlapping ones (what a redaction replaces).

import type { TextView } from './json-escapes.js';

/** The keys a form is a form of, and what replaces it. */
export interface Replaced {
  keys: readonly string[];
  replacement: string;
}

/** A form found in a text, and where it stands. */
export interface Found extends Replaced {
  start: number;
  end: number;
}

/**
 * Adds each form `pattern` finds in `searched` (a view of the text, or the text itself), placed in
 * the text; `overlapping`: also forms that begin inside one found.
 */
export function collect(
  searched: string,
  view: TextView | null,
  pattern: RegExp,
  forms: ReadonlyMap<string, Replaced>,
  found: Found[],
  overlapping: boolean,
): void {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(searched); match !== null; match = pattern.exec(searched)) {
    const end = match.index + match[0].length;
    const replaced = forms.get(match[0]) as Replaced;
    found.push({ ...replaced, ...(view ? view.span(match.index, end) : { start: match.index, end }) });
    // Two keys' values may overlap (one's end is the other's start): the next search starts inside
    // this form. Not in UTF-16 bytes, where every ASCII form is also the other byte order's one byte on.
    if (overlapping) pattern.lastIndex = match.index + 1;
  }
}

/**
 * Found forms that lie inside no other (a key that is part of a longer one is that one's text):
 * two that overlap are both kept, since each is a key the text carries.
 */
export function outermost(found: Found[]): Found[] {
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const result: Found[] = [];
  let end = -1;
  for (const next of found) {
    if (next.end <= end) continue;
    result.push(next);
    end = next.end;
  }
  return result;
}

/** Found forms in order; where two overlap (one seen in two views), one replacement covers both. */
export function merged(found: Found[]): Found[] {
  found.sort((a, b) => a.start - b.start);
  const result: Found[] = [];
  for (const next of found) {
    const last = result.at(-1);
    if (last && next.start < last.end) last.end = Math.max(last.end, next.end);
    else result.push({ ...next });
  }
  return result;
}
