// Ranking over Postings: BM25+ per field (k 1.2, b 0.7, d 0.5), each field weighted, a request's
// terms matched exactly, as the prefix of a longer term, or with one typo; the terms' scores
// summed and multiplied by how many of the request's terms a tool matched. The same scoring as
// MiniSearch's `search` with OR (which this index replaced for its memory and build time), so the
// same rankings: ties keep the order in which tools were first matched.

import type { Postings } from './postings.js';

const K = 1.2;
const B = 0.7;
const D = 0.5;

export interface QueryTerm {
  term: string;
  /** The term's weight in the request. */
  boost: number;
  /** Longer terms starting with it match too. */
  prefix: boolean;
  /** Terms one edit (a letter added, dropped or changed) away match too. */
  typo: boolean;
  /** When above 0: terms that begin with the term's first `shared` letters match too (another form of the word: cointegrated, cointegration). */
  shared?: number;
  /** Other words for the same thing (related-words.ts): each matches too, at RankSettings.relatedWeight. */
  related?: readonly string[];
}

export interface RankSettings {
  /** Each field's weight, in field order. */
  fieldBoost: readonly number[];
  /** A prefix match's weight before it fades with the letters added. */
  prefixWeight: number;
  /** A typo match's weight before it fades with the distance. */
  typoWeight: number;
  /** A related word's match's weight. */
  relatedWeight: number;
}

export interface Ranked {
  document: number;
  score: number;
  /** Indexes of the query terms the document matched. */
  matched: number[];
}

/** Documents that match any query term, best first. */
export function rank(
  postings: Postings,
  query: readonly QueryTerm[],
  settings: RankSettings,
  keep: (document: number) => boolean = () => true,
  /** Filled, when given, with the vocabulary terms each query term matched by (its own, longer ones, one typo away), by query index. */
  termsUsed?: number[][],
): Ranked[] {
  const total = new Float64Array(postings.documentCount);
  const partial = new Float64Array(postings.documentCount);
  // Whether a document has a partial score for the query term at hand.
  const inPartial = new Uint8Array(postings.documentCount);
  // The same for a term's related words.
  const spare = new Float64Array(postings.documentCount);
  const inSpare = new Uint8Array(postings.documentCount);
  const matched: number[][] = [];
  const order: number[] = [];
  query.forEach((entry, index) => {
    const touched: number[] = [];
    const used: number[] = [];
    if (termsUsed !== undefined) termsUsed[index] = used;
    const add = (term: number, weight: number) => {
      used.push(term);
      scoreTerm(postings, term, weight * entry.boost, settings.fieldBoost, partial, inPartial, touched);
    };
    const exact = findTerm(postings, entry.term);
    if (exact >= 0) add(exact, 1);
    const prefixed = new Set<number>();
    if (entry.prefix) {
      for (
        let term = lowerBound(postings, entry.term);
        term < postings.termStart.length - 1 && startsWith(postings, term, entry.term);
        term += 1
      ) {
        const length = termLength(postings, term);
        const distance = length - entry.term.length;
        if (distance === 0) continue;
        prefixed.add(term);
        add(term, (settings.prefixWeight * length) / (length + 0.3 * distance));
      }
    }
    const shared = entry.shared ?? 0;
    if (shared > 0) {
      const start = entry.term.slice(0, shared);
      for (
        let term = lowerBound(postings, start);
        term < postings.termStart.length - 1 && startsWith(postings, term, start);
        term += 1
      ) {
        if (term === exact || prefixed.has(term)) continue;
        prefixed.add(term);
        // The letters past the shared start, on both sides, fade the match as a prefix's added letters do.
        const distance = termLength(postings, term) - shared + (entry.term.length - shared);
        add(term, (settings.prefixWeight * shared) / (shared + 0.3 * distance));
      }
    }
    if (entry.typo) {
      for (const term of oneEditAway(postings, entry.term)) {
        if (prefixed.has(term)) continue;
        const length = termLength(postings, term);
        add(term, (settings.typoWeight * length) / (length + 1));
      }
    }
    // A related word counts only for a tool that has not matched the word itself: `estimateGasCost`, which says
    // `gas price` too, does not pass `getGasPrice` for `gas price` by adding `cost`.
    const related = (entry.related ?? []).map((word) => findTerm(postings, word)).filter((term) => term >= 0);
    if (related.length > 0) {
      const direct = new Set(touched);
      const widened: number[] = [];
      for (const term of related)
        scoreTerm(postings, term, settings.relatedWeight * entry.boost, settings.fieldBoost, spare, inSpare, widened);
      for (const document of widened) {
        if (!direct.has(document)) {
          partial[document] = spare[document] as number;
          touched.push(document);
        }
        spare[document] = 0;
        inSpare[document] = 0;
      }
    }
    for (const document of touched) {
      const list = matched[document];
      if (list === undefined) {
        matched[document] = [index];
        order.push(document);
      } else list.push(index);
      total[document] = (total[document] as number) + (partial[document] as number);
      partial[document] = 0;
      inPartial[document] = 0;
    }
  });
  const ranked = order.filter(keep).map((document) => {
    const terms = matched[document] as number[];
    return { document, score: (total[document] as number) * terms.length, matched: terms };
  });
  // Stable: equal scores keep the order of first match.
  return ranked.sort((a, b) => b.score - a.score);
}

function scoreTerm(
  postings: Postings,
  term: number,
  weight: number,
  fieldBoost: readonly number[],
  scores: Float64Array,
  scored: Uint8Array,
  touched: number[],
): void {
  const { fieldCount, fieldStart, documents, frequencies, fieldLength, averageFieldLength, documentCount } = postings;
  for (let field = 0; field < fieldCount; field += 1) {
    const from = fieldStart[term * fieldCount + field] as number;
    const to = fieldStart[term * fieldCount + field + 1] as number;
    const matching = to - from;
    if (matching === 0) continue;
    const inverse = Math.log(1 + (documentCount - matching + 0.5) / (matching + 0.5));
    const average = averageFieldLength[field] as number;
    for (let at = from; at < to; at += 1) {
      const document = documents[at] as number;
      const frequency = frequencies[at] as number;
      const length = fieldLength[document * fieldCount + field] as number;
      const score = inverse * (D + (frequency * (K + 1)) / (frequency + K * (1 - B + (B * length) / average)));
      if (scored[document] === 0) {
        scored[document] = 1;
        touched.push(document);
      }
      scores[document] = (scores[document] as number) + weight * (fieldBoost[field] as number) * score;
    }
  }
}

/** Whether `document` has vocabulary term `term` in any of the fields before `fieldsBefore` (a binary search per field: each field's documents ascend). */
export function inFirstFields(postings: Postings, term: number, document: number, fieldsBefore: number): boolean {
  const { fieldCount, fieldStart, documents } = postings;
  for (let field = 0; field < fieldsBefore; field += 1) {
    let low = fieldStart[term * fieldCount + field] as number;
    let high = fieldStart[term * fieldCount + field + 1] as number;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((documents[middle] as number) < document) low = middle + 1;
      else high = middle;
    }
    if (low < (fieldStart[term * fieldCount + field + 1] as number) && documents[low] === document) return true;
  }
  return false;
}

export function termLength(postings: Postings, term: number): number {
  return (postings.termStart[term + 1] as number) - (postings.termStart[term] as number);
}

/** Compares `word` with vocabulary term `term` as strings compare (UTF-16 code units). */
function compareTo(postings: Postings, word: string, term: number): number {
  const start = postings.termStart[term] as number;
  const length = termLength(postings, term);
  const shared = Math.min(length, word.length);
  for (let i = 0; i < shared; i += 1) {
    const difference = word.charCodeAt(i) - postings.text.charCodeAt(start + i);
    if (difference !== 0) return difference;
  }
  return word.length - length;
}

/** The first term not before `word` in the sorted vocabulary. */
function lowerBound(postings: Postings, word: string): number {
  let low = 0;
  let high = postings.termStart.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareTo(postings, word, middle) > 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The term's id, or -1. */
export function findTerm(postings: Postings, word: string): number {
  const at = lowerBound(postings, word);
  return at < postings.termStart.length - 1 && compareTo(postings, word, at) === 0 ? at : -1;
}

function startsWith(postings: Postings, term: number, prefix: string): boolean {
  return termLength(postings, term) >= prefix.length && postings.text.startsWith(prefix, postings.termStart[term]);
}

/** Terms exactly one edit (insertion, deletion, substitution, or two neighbouring letters swapped) away from `word`. */
function oneEditAway(postings: Postings, word: string): number[] {
  const found: number[] = [];
  const { byLength, lengthStart, text, termStart } = postings;
  const longest = lengthStart.length - 2;
  for (let length = Math.max(1, word.length - 1); length <= Math.min(longest, word.length + 1); length += 1) {
    for (let at = lengthStart[length] as number; at < (lengthStart[length + 1] as number); at += 1) {
      const term = byLength[at] as number;
      if (isOneEdit(word, text, termStart[term] as number, length)) found.push(term);
    }
  }
  return found;
}

/** Whether `word` and text[start, start + length) differ by exactly one edit (`prcie` and price count: a swap is one slip of the fingers). */
function isOneEdit(word: string, text: string, start: number, length: number): boolean {
  let head = 0;
  const shorter = Math.min(word.length, length);
  while (head < shorter && word.charCodeAt(head) === text.charCodeAt(start + head)) head += 1;
  if (
    word.length === length &&
    head + 1 < length &&
    word.charCodeAt(head) === text.charCodeAt(start + head + 1) &&
    word.charCodeAt(head + 1) === text.charCodeAt(start + head) &&
    word.slice(head + 2) === text.slice(start + head + 2, start + length)
  )
    return true;
  // What follows the first difference must be the same, after skipping one letter of the longer (or one of each).
  const skipWord = word.length >= length ? 1 : 0;
  const skipTerm = length >= word.length ? 1 : 0;
  if (head === shorter && word.length === length) return false;
  for (let i = head + skipWord, j = head + skipTerm; i < word.length || j < length; i += 1, j += 1) {
    if (i >= word.length || j >= length || word.charCodeAt(i) !== text.charCodeAt(start + j)) return false;
  }
  return true;
}
