// Among the tools a request finds, the one that says more of it, or its rarer words, comes first.
// BM25 sums each word's score, and a tool that says one frequent word often, in its name and its
// description, can pass one that says the request's rarer words once: "flood warnings in Bavaria"
// found the food warnings (`getWarnings`) before the flood alerts that say both words. Each
// tool's score is scaled by the share of the request it says, each word weighted by its rarity
// (a value, a name, at half), fully where it says what the tool does (its name, hints,
// description), at half where only its parameters or its schema's lead have it. A root of the
// share: it decides between tools BM25 scores alike, not against a much better match.

import { findTerm, inFirstFields } from './bm25.js';
import { FIELDS_SAYING_WHAT_IT_DOES } from './coverage.js';
import { FIELDS } from './documents.js';
import type { Postings } from './postings.js';

/** The power of the share a tool's score is scaled by. */
const SHARE_POWER = 0.3;
/** A word only in a tool's parameters or schema's lead counts this much of its weight. */
const ASIDE = 0.5;
/** The least share a tool is scaled by: one that says none of the words is not scored down to nothing. */
const LEAST_SHARE = 0.05;

/** A request's term and its weight in the request (words.ts values weigh less). */
export interface WeightedTerm {
  term: string;
  boost: number;
}

/**
 * The share of its score each tool keeps (rescore.ts `rescoreTop`): the share of `terms` it says,
 * raised to SHARE_POWER. Terms no tool has are left out: they tell no tool apart.
 */
export function saidShare(postings: Postings, terms: readonly WeightedTerm[]): (document: number) => number {
  const weighted = terms.flatMap(({ term, boost }) => {
    const at = findTerm(postings, term);
    if (at < 0) return [];
    const rarity = Math.log((postings.documentCount + 1) / ((postings.documentFrequency[at] as number) + 1));
    return [{ at, weight: rarity * boost }];
  });
  const total = weighted.reduce((sum, { weight }) => sum + weight, 0);
  if (total === 0) return () => 1;
  return (document) => {
    let said = 0;
    for (const { at, weight } of weighted)
      if (inFirstFields(postings, at, document, FIELDS_SAYING_WHAT_IT_DOES)) said += weight;
      else if (inFirstFields(postings, at, document, FIELDS.length)) said += weight * ASIDE;
    return Math.max(said / total, LEAST_SHARE) ** SHARE_POWER;
  };
}
