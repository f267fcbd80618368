// What the served tools' own text teaches about their words, with no outside data (issue 25: word
// lists and vectors from outside were mostly other senses). Each tool is a vector of the terms it
// says what it does with (name, hints, description), weighted by rarity, made from the index's
// postings at the first search that needs it, not at a start. Two uses:
// - feedback: the best few results' common terms lift, among the best ten, those that share them
//   (a request's tool is seldom alone: its neighbours say what the request is about);
// - the "none" rule: a request word the best tool lacks still counts for it, as a word it has only
//   aside does, when the tool has one of the terms that most often stand beside that word in the
//   catalog's tools (`slippage` beside `swap` and `quote`).
// Neither adds a tool the words did not find; a request word no tool has teaches nothing.

import type { Ranked } from './bm25.js';
import { FIELDS_SAYING_WHAT_IT_DOES } from './coverage.js';
import type { Postings } from './postings.js';

/** Feedback: how many of the best results make the centroid, and how many are moved by it. */
const FEEDBACK_FROM = 5;
const FEEDBACK_MOVES = 10;
/** A result's score grows by this share of the best score times its cosine with the centroid. */
const FEEDBACK_WEIGHT = 0.4;
/** The "none" rule: a word's associated terms are its this many strongest. */
const ASSOCIATED_PER_WORD = 5;
/** A term is associated with a word only when it stands beside it in at least this many tools: one tool's wording is no association. */
const TOGETHER_AT_LEAST = 2;

/** Each tool's distinct terms (ascending ids) with their weights, L2-normalised: tool d's are [start[d], start[d + 1]). */
interface TermVectors {
  readonly start: Uint32Array;
  readonly terms: Uint32Array;
  readonly weights: Float32Array;
}

export class Associations {
  private vectors: TermVectors | undefined;
  /** Each term's associated terms, as asked for (a vocabulary is a few thousand terms). */
  private readonly associatedOf = new Map<number, readonly number[]>();

  constructor(private readonly postings: Postings) {}

  /**
   * `results` (best first) with the best FEEDBACK_MOVES moved by how much of their
   * terms they share with the best FEEDBACK_FROM (the centroid of their vectors, each weighted by
   * its score): the terms the request's likely tools have in common say what it is about.
   */
  feedback(results: readonly Ranked[]): Ranked[] {
    if (results.length < 2) return [...results];
    const vectors = this.made();
    const best = (results[0] as Ranked).score;
    const centroid = new Map<number, number>();
    for (const { document, score } of results.slice(0, FEEDBACK_FROM))
      for (let at = vectors.start[document] as number; at < (vectors.start[document + 1] as number); at += 1) {
        const term = vectors.terms[at] as number;
        centroid.set(term, (centroid.get(term) ?? 0) + ((vectors.weights[at] as number) * score) / best);
      }
    let norm = 0;
    for (const weight of centroid.values()) norm += weight * weight;
    if (norm === 0) return [...results];
    norm = Math.sqrt(norm);
    const moved = results.slice(0, FEEDBACK_MOVES).map((result) => {
      let dot = 0;
      for (
        let at = vectors.start[result.document] as number;
        at < (vectors.start[result.document + 1] as number);
        at += 1
      )
        dot += (vectors.weights[at] as number) * (centroid.get(vectors.terms[at] as number) ?? 0);
      return { ...result, score: result.score + (FEEDBACK_WEIGHT * best * dot) / norm };
    });
    // Stable: equal scores keep their order.
    moved.sort((a, b) => b.score - a.score);
    return [...moved, ...results.slice(FEEDBACK_MOVES)];
  }

  /**
   * Of `terms` (vocabulary term ids of request words the tool does not match), those the tool
   * covers by association: it has one of the word's ASSOCIATED_PER_WORD associated terms.
   */
  covered(terms: readonly number[], document: number): number[] {
    if (terms.length === 0) return [];
    const vectors = this.made();
    const own = new Set(vectors.terms.subarray(vectors.start[document], vectors.start[document + 1]));
    return terms.filter((term) => this.associated(term).some((other) => own.has(other)));
  }

  /**
   * The terms that stand most often beside `term` in the tools that say it, each scored by the
   * share of those tools that have it times its rarity (a word every tool has is beside everything).
   */
  private associated(term: number): readonly number[] {
    const known = this.associatedOf.get(term);
    if (known !== undefined) return known;
    const vectors = this.made();
    const having = documentsSaying(this.postings, term);
    const together = new Map<number, number>();
    for (const document of having)
      for (let at = vectors.start[document] as number; at < (vectors.start[document + 1] as number); at += 1) {
        const other = vectors.terms[at] as number;
        if (other !== term) together.set(other, (together.get(other) ?? 0) + 1);
      }
    const { documentCount, documentFrequency } = this.postings;
    const found = [...together]
      .filter(([, count]) => count >= TOGETHER_AT_LEAST)
      .map(([other, count]) => ({
        other,
        strength: (count / having.length) * Math.log(documentCount / (documentFrequency[other] as number)),
      }))
      .sort((a, b) => b.strength - a.strength)
      .slice(0, ASSOCIATED_PER_WORD)
      .map(({ other }) => other);
    this.associatedOf.set(term, found);
    return found;
  }

  private made(): TermVectors {
    return (this.vectors ??= termVectors(this.postings));
  }
}

/** The tools that have `term` in a field that says what they do, ascending, each once. */
function documentsSaying(postings: Postings, term: number): number[] {
  const { fieldCount, fieldStart, documents } = postings;
  const found = new Set<number>();
  for (let field = 0; field < FIELDS_SAYING_WHAT_IT_DOES; field += 1)
    for (
      let at = fieldStart[term * fieldCount + field] as number;
      at < (fieldStart[term * fieldCount + field + 1] as number);
      at += 1
    )
      found.add(documents[at] as number);
  return [...found].sort((a, b) => a - b);
}

/**
 * Each tool's distinct terms of the fields that say what it does, weighted by rarity (log N/df),
 * L2-normalised: two passes over the postings (term by term, so each tool's terms ascend), one to
 * count, one to fill.
 */
function termVectors(postings: Postings): TermVectors {
  const { documentCount, fieldCount, fieldStart, documents, documentFrequency } = postings;
  const termCount = postings.termStart.length - 1;
  const lastTerm = new Int32Array(documentCount);
  const eachPair = (visit: (document: number, term: number) => void) => {
    lastTerm.fill(-1);
    for (let term = 0; term < termCount; term += 1)
      for (let field = 0; field < FIELDS_SAYING_WHAT_IT_DOES; field += 1)
        for (
          let at = fieldStart[term * fieldCount + field] as number;
          at < (fieldStart[term * fieldCount + field + 1] as number);
          at += 1
        ) {
          const document = documents[at] as number;
          if (lastTerm[document] === term) continue;
          lastTerm[document] = term;
          visit(document, term);
        }
  };
  const start = new Uint32Array(documentCount + 1);
  eachPair((document) => (start[document + 1] = (start[document + 1] as number) + 1));
  for (let document = 0; document < documentCount; document += 1)
    start[document + 1] = (start[document + 1] as number) + (start[document] as number);
  const terms = new Uint32Array(start[documentCount] as number);
  const weights = new Float32Array(terms.length);
  const next = Uint32Array.from(start);
  eachPair((document, term) => {
    const at = next[document] as number;
    next[document] = at + 1;
    terms[at] = term;
    weights[at] = Math.log(documentCount / (documentFrequency[term] as number));
  });
  for (let document = 0; document < documentCount; document += 1) {
    const from = start[document] as number;
    const to = start[document + 1] as number;
    let sum = 0;
    for (let at = from; at < to; at += 1) sum += (weights[at] as number) ** 2;
    const norm = Math.sqrt(sum) || 1;
    for (let at = from; at < to; at += 1) weights[at] = (weights[at] as number) / norm;
  }
  return { start, terms, weights };
}
