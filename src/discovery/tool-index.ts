// The search index over the tools one server serves: MiniSearch (BM25 over the weighted fields of
// documents.ts, with prefix and fuzzy matching for typos), every term through words.ts on both
// sides. Built on first search, from the tools served only: a tool whose key is not granted is
// never in it. `search` says "none" rather than hand back a weak match: the best tool must match
// enough of the request's words (see NONE_*).

import MiniSearch from 'minisearch';
import type { Tool } from '../catalog/tools.js';
import { toolDocument, type ToolDocument } from './documents.js';
import { requestTerms, splitWords, term, type RequestTerm } from './words.js';

export interface SearchHit {
  name: string;
  namespace: string;
  score: number;
}

export interface SearchOptions {
  limit: number;
  /** Only tools of this namespace. */
  namespace?: string;
}

/** Weights of the fields: a tool's own name and the author's hints say most. */
const BOOST: Record<Exclude<keyof ToolDocument, 'id'>, number> = { name: 3, about: 1.5, description: 1.5, params: 0.6, schemaText: 0.5 };
const FIELDS = Object.keys(BOOST);

/**
 * The best tool fits only if it matches at least this share of the request's (distinct,
 * non-filler) terms, weighted by how rare each term is: a request whose rare words match nothing
 * is not answered by a tool that shares its common ones.
 */
const NONE_MIN_COVERAGE = 0.3;

/** Weight of a request's word that looks like a value (words.ts `requestTerms`) against one that says what is wanted. */
const VALUE_BOOST = 0.5;

export interface IndexOptions {
  /** The share of a request's weighted terms the best tool must match (NONE_MIN_COVERAGE); 0 answers every request that matches anything. */
  minCoverage?: number;
}

export class ToolIndex {
  private readonly search: MiniSearch<ToolDocument>;
  private readonly namespaces = new Map<string, string>();
  /** How many tools have each term, in any field. */
  private readonly frequency = new Map<string, number>();

  private readonly minCoverage: number;

  constructor(tools: readonly Tool[], options: IndexOptions = {}) {
    this.minCoverage = options.minCoverage ?? NONE_MIN_COVERAGE;
    // Each document's distinct terms, gathered while MiniSearch processes them: the document frequencies for free.
    let seen = new Set<string>();
    this.search = new MiniSearch<ToolDocument>({
      fields: FIELDS,
      tokenize: splitWords,
      processTerm: (word) => {
        const found = term(word);
        for (const each of found) seen.add(each);
        return found.length === 0 ? null : found;
      },
      searchOptions: { boost: BOOST, prefix: (word) => word.length >= 5, fuzzy: (word) => (word.length >= 5 ? 0.2 : false), weights: { fuzzy: 0.4, prefix: 0.5 }, maxFuzzy: 1 },
    });
    for (const tool of tools) {
      this.namespaces.set(tool.name, tool.namespace);
      seen = new Set();
      this.search.add(toolDocument(tool));
      for (const word of seen) this.frequency.set(word, (this.frequency.get(word) ?? 0) + 1);
    }
  }

  get size(): number {
    return this.search.documentCount;
  }

  /** The best-matching tools, best first; empty when none fits the request. */
  find(query: string, options: SearchOptions): SearchHit[] {
    const request = requestTerms(query);
    const wanted = [...new Set(request.map((entry) => entry.term))];
    if (wanted.length === 0) return [];
    const filter = options.namespace === undefined ? undefined : (result: { id: string }) => this.namespaces.get(result.id) === options.namespace;
    // The terms are processed already: MiniSearch takes them as they are.
    // A name in the request (`Berlin`, `Tokyo`) is more often an argument than the API meant: it weighs less.
    const values = new Set(request.filter((entry) => entry.value).map((entry) => entry.term));
    for (const entry of request) if (!entry.value) values.delete(entry.term);
    const boostTerm = (word: string) => (values.has(word) ? VALUE_BOOST : 1);
    const results = this.search.search(wanted.join(' '), { filter, boostTerm, tokenize: (text) => text.split(' '), processTerm: (word) => word });
    const best = results[0];
    if (!best || this.coverage(request, best.queryTerms) < this.minCoverage) return [];
    return results.slice(0, options.limit).map((result) => ({ name: result.id as string, namespace: this.namespaces.get(result.id) as string, score: Math.round(result.score * 1000) / 1000 }));
  }

  /**
   * The share of the request's terms, each weighted by its rarity (IDF), that `matched` covers. A
   * value no tool knows (a place, a person, an address) does not count: it is an argument.
   */
  private coverage(request: readonly RequestTerm[], matched: readonly string[]): number {
    const hit = new Set(matched);
    const weights = new Map<string, number>();
    for (const { term: word, value } of request) {
      if (value && !this.frequency.has(word)) continue;
      weights.set(word, this.rarity(word));
    }
    let total = 0;
    let covered = 0;
    for (const [word, weight] of weights) {
      total += weight;
      if (hit.has(word)) covered += weight;
    }
    return total === 0 ? 0 : covered / total;
  }

  /** log(N / tools with the term), at least 1: a word no tool has counts as rare. */
  private rarity(word: string): number {
    const count = this.frequency.get(word) ?? 0;
    return Math.max(1, Math.log((this.search.documentCount + 1) / (count + 1)));
  }
}
