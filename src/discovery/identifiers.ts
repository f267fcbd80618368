// A provider's tool that needs an identifier (a required `id`, `address`, `hash`, `slug`...) ranks
// below its search or list when the request holds no identifier: "open proposals in the Uniswap
// DAO" asks for the list, not for one proposal by its id, though both tools say "proposal". Read
// from the tools' parameters and the request's form alone, so it holds for any catalog: a request
// with a digit may carry an id, an address or a hash, and one that says the identifier's word
// ("for my address") has it. Only a tie-break within a namespace: the tool is passed only by a
// tool of its own provider that needs none and scores close to it.

import type { Tool } from '../catalog/tools.js';
import type { Ranked } from './bm25.js';
import { fold, splitWords, term } from './words.js';

/** The last word of a parameter's key that makes it an identifier (`proposal_id`, `walletAddress`, `txHash`). */
const IDENTIFIER_WORDS = [
  'id',
  'ids',
  'address',
  'hash',
  'slug',
  'uuid',
  'cid',
  'doi',
  'orcid',
  'isbn',
  'identifier',
  'number',
  'key',
];
/** A key that can end in one of them: most keys (`q`, `chain`, `limit`) are not split into words at all. */
const MAY_END_IN_IDENTIFIER = new RegExp(`(?:${IDENTIFIER_WORDS.join('|')})$`, 'i');
const IDENTIFIER = new Set(IDENTIFIER_WORDS);

/** A tool needing an identifier the request lacks scores this share of its score where a tool of its namespace needing none comes this close. */
const WITHOUT_IDENTIFIER = 0.85;
/** How many of the best results are looked at: the tie-break is about the top of the list. */
const LOOKED_AT = 10;

/**
 * `results` (best first) with each tool that needs an identifier the request does not hold moved
 * below the tools of its namespace that need none and score at least WITHOUT_IDENTIFIER of it.
 * `said`: the request's terms.
 */
export function preferWithoutIdentifier(
  query: string,
  said: ReadonlySet<string>,
  results: Ranked[],
  toolAt: (document: number) => Tool,
): Ranked[] {
  // A digit anywhere: an id, an address, a hash or a number the request hands over.
  if (/\d/.test(query)) return results;
  const top = results.slice(0, LOOKED_AT);
  const needs = top.map(({ document }) =>
    identifiersOf(toolAt(document)).some((words) => !words.some((word) => said.has(word))),
  );
  if (!needs.includes(true)) return results;
  const rescored = top.map((result, at) => {
    if (!needs[at]) return result;
    const { namespace } = toolAt(result.document);
    const rival = top.some(
      (other, i) =>
        !needs[i] && toolAt(other.document).namespace === namespace && other.score >= result.score * WITHOUT_IDENTIFIER,
    );
    return rival ? { ...result, score: result.score * WITHOUT_IDENTIFIER } : result;
  });
  // Stable: equal scores keep their order.
  rescored.sort((a, b) => b.score - a.score);
  return [...rescored, ...results.slice(LOOKED_AT)];
}

/** Each tool's required identifiers, as the terms of their word: read once per tool, not per search. */
const identifiers = new WeakMap<Tool, readonly (readonly string[])[]>();

function identifiersOf(tool: Tool): readonly (readonly string[])[] {
  let found = identifiers.get(tool);
  if (found === undefined) {
    found = tool.route.parameters.flatMap((param) => {
      if (param.source.kind !== 'user' || param.optional || !MAY_END_IN_IDENTIFIER.test(param.key)) return [];
      const last = splitWords(param.key).at(-1);
      return last !== undefined && IDENTIFIER.has(fold(last)) ? [term(last)] : [];
    });
    identifiers.set(tool, found);
  }
  return found;
}
