// The ranking's corrections after BM25 (chains.ts, tense.ts, held-values.ts): each scales the
// scores of the best results by what it reads from the request and each tool, and the best are
// sorted again. Only the top of the list is looked at: what is shown is at most 25 tools, and
// sorting hundreds of weak matches at every search cost a fifth of a search's time.

import type { Ranked } from './bm25.js';

/** How many of the best results a correction looks at. */
const LOOKED_AT = 40;

/**
 * `results` (best first) with each of the best LOOKED_AT's score multiplied by `share(document)`
 * (1 leaves it), those sorted again (stably: equal scores keep their order) before the rest.
 */
export function rescoreTop(results: Ranked[], share: (document: number) => number): Ranked[] {
  const top = results.slice(0, LOOKED_AT);
  let moved = false;
  const rescored = top.map((result) => {
    const by = share(result.document);
    if (by === 1) return result;
    moved = true;
    return { ...result, score: result.score * by };
  });
  if (!moved) return results;
  rescored.sort((a, b) => b.score - a.score);
  return [...rescored, ...results.slice(LOOKED_AT)];
}
