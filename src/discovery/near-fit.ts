// Whether any tool fits a request, for the "none" rule (tool-index.ts): the first-ranked tool, or
// one just below it. A first tool that says a request's word in what it does but lacks the rest
// may sit a hair above the tool that covers the request (a search that takes the rest as its topic,
// a sibling that says the other words): that one fits, and the request is answered. A first tool
// matched only weakly (the request's words only in its parameters) says that nothing does: the
// tools below it are not read.

import type { Ranked } from './bm25.js';

/** The tools the rule reads: the first and those after it, this many in all. */
const CANDIDATES = 3;
/** A tool after the first is read when it scores this share of the first's at least. */
const NEAR_SCORE = 0.9;

/**
 * Whether the first result fits, or one of the next (CANDIDATES, NEAR_SCORE) does while the first
 * is a strong match (`strongFirst`, asked only then).
 */
export function someFits(
  results: readonly Ranked[],
  fits: (result: Ranked) => boolean,
  strongFirst: () => boolean,
): boolean {
  const [first, ...rest] = results.slice(0, CANDIDATES);
  if (first === undefined) return false;
  if (fits(first)) return true;
  const near = rest.filter((other) => other.score >= NEAR_SCORE * first.score);
  return near.length > 0 && strongFirst() && near.some(fits);
}
