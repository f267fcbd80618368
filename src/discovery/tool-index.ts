// The search index over the tools one server serves: BM25 over the weighted fields of
// documents.ts (bm25.ts, on the compact storage of postings.ts), with prefix and typo matching,
// every term through words.ts on both sides. Built from the tools served only: a tool whose key
// is not granted is never in it. `search` says "none" rather than hand back a weak match: the best tool must match
// enough of the request's words (see NONE_*).

import type { Tool } from '../catalog/tools.js';
import { Associations } from './associations.js';
import { rank, findTerm, inFirstFields, type QueryTerm, type Ranked, type RankSettings } from './bm25.js';
import { requestChainShare } from './chains.js';
import { requestDirectionShare } from './direction.js';
import { heldValueShare } from './held-values.js';
import { requestTenseShare } from './tense.js';
import { catalogVerbs, routeNameShare } from './route-words.js';
import { LOOKED_AT, rescoreTop } from './rescore.js';
import { namedNamespaceShare, servedNamespaces, type Namespaces } from './named-namespace.js';
import { saidShare } from './said-share.js';
import { casualTerms, identifierTerms } from './asides.js';
import { coverage, FIELDS_SAYING_WHAT_IT_DOES, LOOSE_FROM } from './coverage.js';
import { FIELDS, toolDocument, type Field } from './documents.js';
import { heldIdentifierShare, preferWithoutIdentifier } from './identifiers.js';
import { cachedPostings, indexKey, textKey } from './index-cache.js';
import { someFits } from './near-fit.js';
import { PostingsBuilder, type Postings } from './postings.js';
import { TermCache, termCacheDir, type TermSources } from './term-cache.js';
import { actionVerb } from './intent.js';
import { TermCounter } from './term-counter.js';
import { requesterDoing } from './own-record.js';
import { timeArguments } from './time-arguments.js';
import type { PieceDocument, TermDocuments } from './term-documents.js';
import { phrases, relatedTerms } from './related-words.js';
import { fold, joinedWords, requestWords, splitWords, term, type RequestTerm } from './words.js';

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

/** Weights of the fields: a tool's own name and its route's description say most, then the author's hints. */
const BOOST: Record<Field, number> = {
  name: 3,
  about: 1.5,
  description: 2.5,
  params: 0.6,
  schemaText: 0.5,
};
const SETTINGS: RankSettings = {
  fieldBoost: FIELDS.map((field) => BOOST[field]),
  prefixWeight: 0.5,
  typoWeight: 0.4,
  relatedWeight: 0.3,
};

/** A request word no tool has matches longer terms it begins from this length, and terms one typo away from one letter more. */
const UNKNOWN_LOOSE_FROM = 3;
/** A request word no tool has, this long, matches terms that share all but its last three letters (at least five). */
const SHARED_FROM = 7;

/**
 * The best tool fits only if it matches at least this share of the request's (distinct,
 * non-filler) terms, weighted by how rare each term is: a request whose rare words match nothing
 * is not answered by a tool that shares its common ones.
 */
const NONE_MIN_COVERAGE = 0.3;

/** Weight of a request's word that looks like a value (words.ts `requestWords`) against one that says what is wanted. */
const VALUE_BOOST = 0.5;

export interface IndexOptions {
  /** The share of a request's weighted terms the best tool must match (NONE_MIN_COVERAGE); 0 answers every request that matches anything. */
  minCoverage?: number;
  /** A folder where built indexes are kept and found again (index-cache.ts); none builds every time. */
  cacheDir?: string;
}

export class ToolIndex {
  private readonly postings: Postings;
  /** The tools by document number. */
  private readonly tools: readonly Tool[];
  private readonly minCoverage: number;
  /** What the served tools' own text teaches about their words (associations.ts): made at the first search that needs it. */
  private readonly associations: Associations;
  /** The catalog's verbs (route-words.ts), read from the tools at the first search. */
  private verbs: ReadonlySet<string> | undefined;
  /** The served namespaces (named-namespace.ts), read from the tools at the first search. */
  private namespaces: Namespaces | undefined;
  /** Whether the postings were read from the index cache rather than built. */
  readonly fromCache: boolean;
  /** When built with a cache folder: how many schema files' terms were read from the per-file cache and how many made. */
  readonly termSources: TermSources = { read: 0, made: 0 };
  /** Settles when what this build made is in the caches: the terms made (written after the build, off a start's path), and on a first start the whole index too. */
  readonly termsStored: Promise<void> = Promise.resolve();

  constructor(tools: readonly Tool[], options: IndexOptions = {}) {
    this.minCoverage = options.minCoverage ?? NONE_MIN_COVERAGE;
    this.tools = [...tools];
    const files = schemaFiles(this.tools);
    // Each tool's text per field, by document number. No closure around toolDocument: V8 would compile both, one with the other inside.
    const documents: PieceDocument[] = this.tools.map(toolDocument);
    const { cacheDir } = options;
    let made: { postings: Postings; cached: boolean };
    if (cacheDir === undefined) {
      made = {
        postings: buildPostings(
          files,
          documents,
          () => null,
          () => undefined,
        ),
        cached: false,
      };
    } else {
      // Each file's text serialised and hashed once (its key in the per-file cache; all of them make the whole index's), and
      // only when a cache is looked in or written: a first start, with nothing cached, hashes after its index is built.
      let fileKeys: string[] | undefined;
      const keyOf = (file: number) =>
        (fileKeys ??= files.map((members) =>
          textKey(
            'terms',
            members.map((at) => documents[at]),
          ),
        ))[file] as string;
      const termCache = new TermCache(termCacheDir(cacheDir));
      const found = cachedPostings(
        cacheDir,
        () =>
          indexKey(
            files.map((_members, file) => keyOf(file)),
            files,
          ),
        this.tools.length,
        () =>
          buildPostings(
            files,
            documents,
            (file) => termCache.read(() => keyOf(file), (files[file] as number[]).length, FIELDS.length),
            (file, terms) => termCache.made(() => keyOf(file), terms),
          ),
      );
      made = found;
      this.termSources = termCache.sources;
      this.termsStored = Promise.all([found.stored, termCache.flush()]).then(() => undefined);
    }
    this.postings = made.postings;
    this.fromCache = made.cached;
    this.associations = new Associations(this.postings);
  }

  get size(): number {
    return this.postings.documentCount;
  }

  /** The best-matching tools, best first; empty when none fits the request. */
  find(query: string, options: SearchOptions): SearchHit[] {
    const byWord = requestWords(query);
    const request = byWord.flat();
    // Terms of the whole request rather than of one word: a phrase's, two words joined.
    const extra: RequestTerm[] = [];
    // A phrase that names one thing (`total value locked`) is that thing; its words stay for a tool that writes it out, at half weight.
    const words = splitWords(query).map(fold);
    const spelled = phrases(words);
    if (spelled.terms.length > 0) {
      const phraseWords = new Set([...spelled.used].flatMap((at) => term(words[at] as string)));
      for (const entry of request)
        if (phraseWords.has(entry.term)) Object.assign(entry, { value: true, inPhrase: true });
      for (const word of spelled.terms) extra.push({ term: word, value: false });
    }
    // Two words a tool writes as one count as that one word too, at half weight (as a value), when a tool has
    // it and the two alone say less: one of them is filler or a word no tool has (`data sets`: dataset).
    for (const { terms: joined, parts } of joinedWords(query)) {
      const alone = parts.every((part) => part.length > 0 && part.every((word) => findTerm(this.postings, word) >= 0));
      for (const word of joined)
        if (
          !alone &&
          findTerm(this.postings, word) >= 0 &&
          !request.some((entry) => entry.term === word) &&
          !extra.some((entry) => entry.term === word)
        )
          extra.push({ term: word, value: true });
    }
    request.push(...extra);
    const wanted = [...new Set(request.map((entry) => entry.term))];
    if (wanted.length === 0) return [];
    // A name in the request (`Berlin`, `Tokyo`) is more often an argument than the API meant: it weighs less.
    const values = new Set(request.filter((entry) => entry.value).map((entry) => entry.term));
    for (const entry of request) if (!entry.value) values.delete(entry.term);
    const terms: QueryTerm[] = wanted.map((word) => {
      // A word no tool has is likely an abbreviation (bal), a slip (gass) or another form of a tool's word
      // (redditors, cointegrated): matched loosely whatever its length.
      const unknown = findTerm(this.postings, word) < 0;
      return {
        term: word,
        boost: values.has(word) ? VALUE_BOOST : 1,
        prefix: word.length >= LOOSE_FROM || (unknown && word.length >= UNKNOWN_LOOSE_FROM),
        typo: word.length >= LOOSE_FROM || (unknown && word.length > UNKNOWN_LOOSE_FROM),
        shared: unknown && word.length >= SHARED_FROM ? Math.max(SHARED_FROM - 2, word.length - 3) : 0,
        related: relatedTerms(word).filter((other) => !wanted.includes(other)),
      };
    });
    const keep =
      options.namespace === undefined
        ? undefined
        : (document: number) => this.toolAt(document).namespace === options.namespace;
    const used: number[][] = [];
    const results = preferWithoutIdentifier(
      query,
      new Set(wanted),
      this.preferRequest(query, byWord, this.able(query, rank(this.postings, terms, SETTINGS, keep, used))),
      (document) => this.toolAt(document),
    );
    const best = results[0];
    if (best === undefined) return [];
    const times = timeArguments(query);
    const doing = requesterDoing(query);
    const casual = casualTerms(query);
    const pieces = identifierTerms(query);
    const measure = (candidate: Ranked, words: readonly string[]) =>
      coverage(this.postings, {
        words: byWord,
        extra,
        matched: words,
        document: candidate.document,
        tool: this.toolAt(candidate.document),
        termsUsed: (word) => used[wanted.indexOf(word)] ?? [],
        times,
        doing,
        casual,
        pieces,
      });
    const wordsOf = (candidate: Ranked) => candidate.matched.map((index) => wanted[index] as string);
    const fits = (candidate: Ranked) => {
      const matched = wordsOf(candidate);
      const covers = (words: readonly string[]) => measure(candidate, words) >= this.minCoverage;
      // A request the tool does not cover is still its when the tool has what the words it lacks stand beside in the catalog.
      return covers(matched) || covers([...matched, ...this.coveredByAssociation(wanted, values, candidate)]);
    };
    if (!someFits(results, fits, () => measure(best, wordsOf(best)) > 0)) return [];
    // Tie-breaks among tools that fit (route-words.ts, said-share.ts), after the "none" rule: they order them, they do not say
    // whether one fits. A phrase's words count through its term (`open positions` is a job), as in the "none" rule.
    const phrased = new Set(request.filter((entry) => entry.inPhrase === true).map((entry) => entry.term));
    const toolAt = (document: number) => this.toolAt(document);
    const ordered = rescoreTop(
      results,
      routeNameShare(new Set(wanted), (this.verbs ??= catalogVerbs(this.tools)), toolAt),
      saidShare(
        this.postings,
        terms.filter((entry) => !phrased.has(entry.term)),
      ),
      namedNamespaceShare(
        query,
        (this.namespaces ??= servedNamespaces(this.tools)),
        this.postings,
        results.slice(0, LOOKED_AT),
        toolAt,
      ),
    );
    return this.associations
      .feedback(ordered)
      .slice(0, options.limit)
      .map((result) => {
        const tool = this.toolAt(result.document);
        return { name: tool.name, namespace: tool.namespace, score: Math.round(result.score * 1000) / 1000 };
      });
  }

  /** The request's terms (no values) the best tool does not match but covers by association (associations.ts). */
  private coveredByAssociation(wanted: readonly string[], values: ReadonlySet<string>, best: Ranked): string[] {
    const lacking = wanted.filter((word, index) => !values.has(word) && !best.matched.includes(index));
    const terms = lacking.map((word) => findTerm(this.postings, word));
    const covered = new Set(
      this.associations.covered(
        terms.filter((term) => term >= 0),
        best.document,
      ),
    );
    return lacking.filter((_word, at) => covered.has(terms[at] as number));
  }

  /**
   * The results that can do what the request asks: for a request to do something (intent.ts), the
   * tools whose route name begins with the verb (routes are named verb first: a read-only
   * `translateText` does translate, `getReserves` does not reserve), and those that surely write and
   * say they do it (a POST without `meta` is as often a search: `searchGames` sends no email).
   */
  private able(query: string, results: Ranked[]): Ranked[] {
    const verb = actionVerb(query);
    if (verb === undefined) return results;
    // A verb of two words (`top up`) is the route name's first two (`topUpPhone`, not `topTraders`).
    const verbWords = verb.split(' ');
    const verbTerms = verbWords.map((word) => term(word));
    const named = verbTerms.flat();
    const found = named.map((word) => findTerm(this.postings, word));
    return results.filter(({ document }) => {
      const tool = this.toolAt(document);
      const lead = splitWords(tool.route.name).slice(0, verbWords.length).map(fold);
      const sameWord = (word: string, at: number) =>
        word === lead[at] || term(lead[at] as string).some((each) => (verbTerms[at] as string[]).includes(each));
      if (lead.length === verbWords.length && verbWords.every(sameWord)) return true;
      return (
        writesSurely(tool) &&
        found.some((at) => at >= 0 && inFirstFields(this.postings, at, document, FIELDS_SAYING_WHAT_IT_DOES))
      );
    });
  }

  /**
   * The results with the tools made for another chain or another time than the request names,
   * those that take no value of a kind it holds or no identifier it holds, and those that convert
   * the other way, moved down (chains.ts, tense.ts, held-values.ts, identifiers.ts, direction.ts).
   */
  private preferRequest(query: string, words: readonly (readonly RequestTerm[])[], results: Ranked[]): Ranked[] {
    const toolAt = (document: number) => this.toolAt(document);
    // One pass: each correction's share, multiplied.
    return rescoreTop(
      results,
      heldValueShare(query, words, toolAt),
      requestChainShare(query, toolAt),
      requestTenseShare(query, toolAt),
      requestDirectionShare(query, results, toolAt),
      heldIdentifierShare(query, toolAt),
    );
  }

  private toolAt(document: number): Tool {
    return this.tools[document] as Tool;
  }
}

/**
 * Whether a tool surely changes something: its 4.x `meta` says it does not only read (as its MCP
 * annotations do, src/mcp/tool-definition.ts), or, without one, its method is PUT or DELETE.
 */
function writesSurely(tool: Tool): boolean {
  return tool.route.meta === undefined ? tool.method === 'PUT' || tool.method === 'DELETE' : !tool.route.meta.readOnly;
}

/** The places of the tools of each schema file, the files in the order their first tool comes. */
function schemaFiles(tools: readonly Tool[]): number[][] {
  const files = new Map<Tool['schema'], number[]>();
  tools.forEach((tool, at) => {
    const members = files.get(tool.schema);
    if (members === undefined) files.set(tool.schema, [at]);
    else members.push(at);
  });
  return [...files.values()];
}

/**
 * Postings of the tools' documents (`documents[d]` tool d's text; `files[f]` the places of schema
 * file f's tools): each file's terms read by `cached` (the per-file cache, term-cache.ts), or else
 * counted here, its tools' text straight into the postings, and handed to `made` as a function
 * that reads them back (after the build: a first start makes every file's and waits for none).
 * Every tool is added in its place.
 */
function buildPostings(
  files: readonly (readonly number[])[],
  documents: readonly PieceDocument[],
  cached: (file: number) => TermDocuments | null,
  made: (file: number, terms: () => TermDocuments) => void,
): Postings {
  const builder = new PostingsBuilder(FIELDS.length, documents.length);
  const counter = new TermCounter(builder, splitWords, term);
  // Per tool read from the cache: its file's terms, the builder's ids of them, and its place among the file's tools.
  const read: ({ terms: TermDocuments; ids: Uint32Array; at: number } | undefined)[] = [];
  files.forEach((members, file) => {
    const terms = cached(file);
    if (terms === null) {
      made(file, () => builder.termDocuments(members));
      return;
    }
    const ids = builder.intern(terms.terms);
    members.forEach((tool, at) => (read[tool] = { terms, ids, at }));
  });
  for (let tool = 0; tool < documents.length; tool += 1) {
    const found = read[tool];
    if (found === undefined) counter.add(documents[tool] as PieceDocument);
    else builder.add(found.terms.tools[found.at] as number[][], found.ids);
  }
  return builder.build();
}
