// The ranking's corrections after BM25 (chains.ts, tense.ts, held-values.ts): each scales the
// scores of the best results by what it reads from the request and each tool, and the best are
// sorted again. Only the top of the list is looked at: what is shown is at most 25 tools, and
// sorting hundreds of weak matches at every search cost a fifth of a search's time.

import type { Ranked } from './bm25.js';

/** The share of its score a correction leaves a tool, by its document number; none where the request gives the correction nothing to do. */
export type Share = (document: number) => number;

/** How many of the best results a correction looks at. */
export const LOOKED_AT = 40;

/**
 * `results` (best first) with each of the best LOOKED_AT's score multiplied by every one of
 * `shares(document)` (1 leaves it; an absent share is skipped), those sorted again (stably: equal scores keep their order)
 * before the rest. The array is the search's own, made for it by `rank`: it is sorted in place, not
 * copied (a weak request matches a thousand tools, and the corrections run one after another).
 */
export function rescoreTop(results: Ranked[], ...shares: (Share | undefined)[]): Ranked[] {
  const applied = shares.filter((share) => share !== undefined);
  if (applied.length === 0) return results;
  const top = results.slice(0, LOOKED_AT);
  let moved = false;
  const rescored = top.map((result) => {
    let by = 1;
    for (const share of applied) by *= share(result.document);
    if (by === 1) return result;
    moved = true;
    // The shape `rank` makes (a spread would make another, and every comparison after it slower).
    return { document: result.document, score: result.score * by, matched: result.matched };
  });
  if (!moved) return results;
  rescored.sort((a, b) => b.score - a.score);
  rescored.forEach((result, at) => (results[at] = result));
  return results;
}
