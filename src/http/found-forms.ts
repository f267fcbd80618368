// Where the forms of key values stand in a text once redact.ts has searched it, and which of them
// count: every form a search finds (also one that begins inside another, where two keys' values
// overlap), then either the outermost ones (which keys a text carries) or one span per run of
// overlapping ones (what a redaction replaces).

import type { TextView } from './json-escapes.js';

/** The keys a form is a form of, and what replaces it. */
export interface Replaced {
  keys: readonly string[];
  replacement: string;
  /** Where the form is a key's first or last characters (key-forms.ts, keyParts): followed along that key. */
  parts?: readonly PartOf[];
}

/** A key's spelling a form begins (`atStart`) or ends, and the key's names and replacement. */
export interface PartOf {
  along: string;
  atStart: boolean;
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
    const form = forms.get(match[0]) as Replaced;
    const { start, end, keys, replacement } = longest(searched, match.index, match.index + match[0].length, form);
    found.push({ keys, replacement, ...(view ? view.span(start, end) : { start, end }) });
    // Two keys' values may overlap (one's end is the other's start): the next search starts inside
    // this form. Not in UTF-16 bytes, where every ASCII form is also the other byte order's one byte on.
    if (overlapping) pattern.lastIndex = match.index + 1;
  }
}

/**
 * The form found at `start`..`end`, or where it is a key's start or end, that start or end as far
 * as `searched` goes on with the key (the longest over the keys it begins or ends). Followed a
 * character at a time: a start found costs its own length, never the key's starts listed.
 */
function longest(
  searched: string,
  start: number,
  end: number,
  form: Replaced,
): Replaced & { start: number; end: number } {
  let best = { start, end, keys: form.keys, replacement: form.replacement };
  for (const part of form.parts ?? []) {
    const { along, atStart } = part;
    let [from, to] = [start, end];
    if (atStart) while (to - from < along.length && searched[to] === along[to - from]) to++;
    else
      while (to - from < along.length && from > 0 && searched[from - 1] === along[along.length - (to - from) - 1])
        from--;
    if (to - from > best.end - best.start)
      best = { start: from, end: to, keys: part.keys, replacement: part.replacement };
  }
  return best;
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
