// A request that names a provider asks for that provider's tools: `Rembrandt works in the
// Rijksmuseum`, `what did the dev pay dexscreener for`, `value moved over wormhole`. The name is
// often said as an argument (capitalised, after `in` or `on`), weighs half as a value, and loses
// to another provider's tool that says the request's common words more often. Among the tools
// that fit (after the "none" rule), those of a namespace the request names come first where they
// score near: any other tool keeps OTHER_SHARE of its score. Read from the served tools'
// namespaces, so it holds for any catalog.

import type { Tool } from '../catalog/tools.js';
import { findTerm } from './bm25.js';
import type { Postings } from './postings.js';
import { fold, splitWords, term } from './words.js';

/** The share of its score a tool keeps when the request names another namespace among the results and not its own. */
const OTHER_SHARE = 0.6;
/** A request word this long names a namespace it begins (`wormhole`: wormholescan) or that begins it (`Marktstammdatenregister`). */
const PART_FROM = 5;
/** A word that is part of a namespace's name names it only when at least this share of the tools that say it are of the namespace (`wormhole`, not `daily`: dailymed). */
const OWNED_SHARE = 0.5;
/** How many words' answers are kept (a long-running server reads any words): past it they are read again. */
const OWNED_KEPT = 10_000;
/** A namespace this short is named only by a word in capitals (`ENS`, `IMF`: not German `bis`, until). */
const SHORT_NAME = 3;

/** The served namespaces, sorted, and whether a word names one, as found (ownedBy reads postings). */
export interface Namespaces {
  sorted: readonly string[];
  names: ReadonlySet<string>;
  owned: Map<string, boolean>;
}

export function servedNamespaces(tools: readonly Tool[]): Namespaces {
  const names = new Set(tools.map((tool) => fold(tool.namespace)));
  return { sorted: [...names].sort(), names, owned: new Map() };
}

/**
 * The namespaces the request's words name: a word (or two neighbours joined: `European
 * Parliament`) that is one, or that begins one or one begins, where the tools that say the word
 * are mostly that namespace's (or none says it).
 */
export function namedNamespaces(
  query: string,
  namespaces: Namespaces,
  postings: Postings,
  toolAt: (document: number) => Tool,
): Set<string> {
  const written = splitWords(query);
  const words = written.map(fold);
  const named = new Set<string>();
  const match = (word: string, capitals: boolean, joined: boolean) => {
    const found: string[] = [];
    if (namespaces.names.has(word) && (word.length > SHORT_NAME || capitals)) found.push(word);
    if (!joined && word.length >= PART_FROM) {
      for (let end = PART_FROM; end < word.length; end += 1)
        if (namespaces.names.has(word.slice(0, end))) found.push(word.slice(0, end));
      const { sorted } = namespaces;
      for (let at = firstNotBefore(sorted, word); at < sorted.length && sorted[at]?.startsWith(word); at += 1)
        if (sorted[at] !== word) found.push(sorted[at] as string);
    }
    for (const namespace of found) {
      const key = `${word} ${namespace}`;
      let owned = namespaces.owned.get(key);
      if (owned === undefined) {
        if (namespaces.owned.size >= OWNED_KEPT) namespaces.owned.clear();
        namespaces.owned.set(key, (owned = ownedBy(word, namespace, postings, toolAt)));
      }
      if (owned) named.add(namespace);
    }
  };
  words.forEach((word, at) => {
    match(word, (written[at] as string) === (written[at] as string).toUpperCase(), false);
    const next = words[at + 1];
    if (next !== undefined) match(word + next, false, true);
  });
  return named;
}

/** The place of the first of `sorted` not before `word`. */
function firstNotBefore(sorted: readonly string[], word: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as string) < word) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Whether at least OWNED_SHARE of the tools that have `word` are of `namespace` (or none has it). */
function ownedBy(word: string, namespace: string, postings: Postings, toolAt: (document: number) => Tool): boolean {
  const tools = new Set<number>();
  const { fieldCount, fieldStart, documents } = postings;
  for (const each of term(word)) {
    const at = findTerm(postings, each);
    if (at < 0) continue;
    for (
      let entry = fieldStart[at * fieldCount] as number;
      entry < (fieldStart[(at + 1) * fieldCount] as number);
      entry += 1
    )
      tools.add(documents[entry] as number);
  }
  if (tools.size === 0) return true;
  let own = 0;
  for (const document of tools) if (fold(toolAt(document).namespace) === namespace) own += 1;
  return own >= OWNED_SHARE * tools.size;
}

/**
 * The share of its score each tool keeps (rescore.ts `rescoreTop`): OTHER_SHARE for a tool whose
 * namespace the request does not name, when it names one that some of `results` have; none
 * otherwise.
 */
export function namedNamespaceShare(
  query: string,
  namespaces: Namespaces,
  postings: Postings,
  results: readonly { document: number }[],
  toolAt: (document: number) => Tool,
): ((document: number) => number) | undefined {
  const named = namedNamespaces(query, namespaces, postings, toolAt);
  if (named.size === 0) return undefined;
  if (!results.some(({ document }) => named.has(fold(toolAt(document).namespace)))) return undefined;
  return (document) => (named.has(fold(toolAt(document).namespace)) ? 1 : OTHER_SHARE);
}
