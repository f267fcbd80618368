// A tool's route name says what it is for: `getDangerSites` is the sites in danger, not every
// site; `searchClaimsByImage` searches by an image. Each word of the route name a request does not
// say narrows the tool to something the request did not ask for, so among tools that match the
// request alike, the one whose name adds least comes first ("world heritage sites in Peru" is
// `searchSites`, not `getDangerSites`). Not counted: the namespace's own words (`jplsentry` names
// its `getSentrySummary`) and the catalog's verbs, a word that begins route names in several
// providers (`search`, `query`: what a tool does, not what it is about), read from the tools
// served, so it holds for any catalog. A small share per word: a tie-break, not a ranking.

import type { Tool } from '../catalog/tools.js';
import { splitWords, term } from './words.js';

/** A tool scores this share of its score for each word of its route name the request does not say. */
const PER_UNSAID_WORD = 0.97;
/** A word that begins the route names of at least this many namespaces is one of the catalog's verbs. */
const VERB_NAMESPACES = 5;

/** The catalog's verbs: the terms of route names' first words, each in the route names of VERB_NAMESPACES namespaces or more. */
export function catalogVerbs(tools: readonly Tool[]): ReadonlySet<string> {
  const namespaces = new Map<string, Set<string>>();
  for (const tool of tools) {
    const first = splitWords(tool.route.name)[0];
    if (first === undefined) continue;
    for (const word of term(first)) {
      const seen = namespaces.get(word);
      if (seen === undefined) namespaces.set(word, new Set([tool.namespace]));
      else seen.add(tool.namespace);
    }
  }
  return new Set([...namespaces].filter(([, seen]) => seen.size >= VERB_NAMESPACES).map(([word]) => word));
}

/** Each tool's route-name terms but its namespace's words and numbers, and its first word's terms apart: read once per tool. */
const routeTerms = new WeakMap<Tool, { first: readonly string[]; rest: readonly string[] }>();

function termsOf(tool: Tool): { first: readonly string[]; rest: readonly string[] } {
  let found = routeTerms.get(tool);
  if (found === undefined) {
    const own = new Set(splitWords(tool.namespace).flatMap(term));
    const [first = '', ...rest] = splitWords(tool.route.name);
    const keep = (word: string) => !own.has(word) && !/^\d+$/.test(word);
    found = { first: term(first).filter(keep), rest: [...new Set(rest.flatMap(term))].filter(keep) };
    routeTerms.set(tool, found);
  }
  return found;
}

/**
 * The share of its score each tool keeps (rescore.ts `rescoreTop`): PER_UNSAID_WORD for each word
 * of its route name that is not among `said` (the request's terms), not its namespace's and,
 * first, not one of `verbs` (catalogVerbs).
 */
export function routeNameShare(
  said: ReadonlySet<string>,
  verbs: ReadonlySet<string>,
  toolAt: (document: number) => Tool,
): (document: number) => number {
  return (document) => {
    const { first, rest } = termsOf(toolAt(document));
    let unsaid = 0;
    for (const word of first) if (!verbs.has(word) && !said.has(word) && !rest.includes(word)) unsaid += 1;
    for (const word of rest) if (!said.has(word)) unsaid += 1;
    return unsaid === 0 ? 1 : PER_UNSAID_WORD ** unsaid;
  };
}
