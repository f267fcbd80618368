// A provider's tool that needs an identifier (a required `id`, `address`, `hash`, `slug`...) ranks
// below its search or list when the request holds no identifier: "open proposals in the Uniswap
// DAO" asks for the list, not for one proposal by its id, though both tools say "proposal". Read
// from the tools' parameters and the request's form alone, so it holds for any catalog: a request
// with a digit may carry an id, an address or a hash, and one that says the identifier's word
// ("for my address") has it. Only a tie-break within a namespace: the tool is passed only by a
// tool of its own provider that needs none and scores close to it. The other way round, a request
// that holds an identifier ("details of study NCT04368728", "citations of 10.1038/nature14539",
// "CVE-2024-3094") is answered by a tool that takes one sooner than by a search or a list.

import type { Tool } from '../catalog/tools.js';
import type { Ranked } from './bm25.js';
import type { Share } from './rescore.js';
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
  'accession',
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
/** A tool that needs no identifier scores this share of its score for a request that holds one. */
const WITHOUT_HELD_IDENTIFIER = 0.9;

/**
 * A word of a request that is an identifier: five digits or more among letters (`NCT04368728`,
 * `P69905`, `0x742d...`), twenty characters or more with a digit (a Solana address, a CID), or
 * digits joined by `-`, `.` or `/` (`0028-0836`, `10.1038/nature14539`); not a number
 * (`19000000`, `1000.5`), a date (`2024-01-01`) or a standard's name (`ERC20`, `ISO8601`).
 */
function identifierLike(word: string): boolean {
  if (!/\d/.test(word) || NUMBER.test(word) || DATE.test(word)) return false;
  return (word.match(/\d/g) ?? []).length >= 5 || word.length >= 20 || (word.length >= 5 && /\d[-./]\d/.test(word));
}
const NUMBER = /^\d+(?:[.,]\d+)?$/;
const DATE = /^\d{4}-\d{1,2}-\d{1,2}$/;
/** Punctuation around a word (`(P69905)`, `0028-0836?`). */
const AROUND = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;

/** Whether a request holds an identifier (identifierLike). */
export function holdsIdentifier(query: string): boolean {
  return query.split(/\s+/).some((word) => identifierLike(word.replace(AROUND, '')));
}

/** The share (rescore.ts) that scores each tool that needs no identifier WITHOUT_HELD_IDENTIFIER of its score; none when the request holds no identifier. */
export function heldIdentifierShare(query: string, toolAt: (document: number) => Tool): Share | undefined {
  if (!holdsIdentifier(query)) return undefined;
  return (document) => (identifiersOf(toolAt(document)).length > 0 ? 1 : WITHOUT_HELD_IDENTIFIER);
}

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
