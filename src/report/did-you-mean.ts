// "Did you mean 'x'?" for a name flowguard does not know: the known name closest to it by edit
// distance, offered only when it is close enough to be a slip of the keyboard. A wide threshold
// suggests nonsense (`url` for `tags`), which costs an author more than no suggestion at all.

import { distance } from 'fastest-levenshtein';

/**
 * The known name closest to `word`, or undefined when none is close: at most one edit for a
 * name of up to 4 characters, two beyond (three would offer `length(3)` for `minLength(3)`, a
 * different rule). Case is ignored, so `Namespace` finds `namespace`; the word itself is never
 * suggested.
 */
export function closestName(word: string, known: Iterable<string>): string | undefined {
  const lower = word.toLowerCase();
  const allowed = lower.length <= 4 ? 1 : 2;
  let best: { name: string; edits: number } | undefined;
  for (const name of known) {
    if (name === word) continue;
    const edits = distance(lower, name.toLowerCase());
    if (edits <= allowed && (!best || edits < best.edits)) best = { name, edits };
  }
  return best?.name;
}

/** `did you mean 'x'?` followed by `rest`, or `rest` alone when no known name is close. */
export function withSuggestion(word: string, known: Iterable<string>, rest?: string): string | undefined {
  const name = closestName(word, known);
  if (name === undefined) return rest;
  return rest === undefined ? `did you mean '${name}'?` : `did you mean '${name}'? ${rest}`;
}
