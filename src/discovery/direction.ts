// A request that turns one thing into another says which way: "1.5 ether to wei", "ETH in wei",
// "vitalik.eth -> address". Tools that convert write it the same way in their descriptions
// ("Format a wei value to ether", "Parse an ether string to wei"), and the two tools of a pair
// share every word, so only the order tells them apart. A tool whose description turns the
// request's target into its source, and nowhere its source into its target, scores less. Read
// from the request's words and the tools' own descriptions, so it holds for any catalog.

import type { Tool } from '../catalog/tools.js';
import type { Ranked } from './bm25.js';
import { LOOKED_AT, type Share } from './rescore.js';
import { splitWords, term } from './words.js';

/** A tool that converts the other way scores this share of its score. */
const REVERSED = 0.8;
/** The words on each side of a connector that name what is converted: `a wei value`, `its Ethereum address`. */
const SIDE = 3;
/** Words that join a source to its target in a tool's description. */
const TOOL_CONNECTORS = new Set(['to', 'into']);
/** In a request also `in`: "1.5 ETH in wei", "the price of bitcoin in euro". */
const REQUEST_CONNECTORS = new Set([...TOOL_CONNECTORS, 'in']);
/** Arrows, read as `to`. */
const ARROW = /\s*(?:->|→|=>)\s*/g;
/** Where a sentence or a clause ends: a side does not reach across it. */
const CLAUSE_END = /[.;:!?](?:\s|$)/;

interface Direction {
  from: ReadonlySet<string>;
  to: ReadonlySet<string>;
}

/** Each source and target `text` joins with one of `connectors`, as terms: SIDE words either side, within a clause. */
export function directionsIn(text: string, connectors: ReadonlySet<string>): Direction[] {
  const found: Direction[] = [];
  for (const clause of text.replace(ARROW, ' to ').split(CLAUSE_END)) {
    const words = splitWords(clause).map((word) => word.toLowerCase());
    words.forEach((word, at) => {
      if (!connectors.has(word)) return;
      const from = words.slice(Math.max(0, at - SIDE), at).flatMap(term);
      const to = words.slice(at + 1, at + 1 + SIDE).flatMap(term);
      if (from.length > 0 && to.length > 0) found.push({ from: new Set(from), to: new Set(to) });
    });
  }
  return found;
}

const meet = (one: ReadonlySet<string>, other: ReadonlySet<string>) => [...one].some((word) => other.has(word));

/** Each tool's directions, from its route's description: read once per tool. */
const toolDirections = new WeakMap<Tool, readonly Direction[]>();

function directionsOf(tool: Tool): readonly Direction[] {
  let found = toolDirections.get(tool);
  if (found === undefined) {
    found = directionsIn(tool.route.description, TOOL_CONNECTORS);
    toolDirections.set(tool, found);
  }
  return found;
}

/**
 * The share (rescore.ts) that scores each tool that converts the request's target into its
 * source, and never its source into its target, REVERSED of its score; none for a request that
 * joins nothing, or when none of the best `results` says a direction.
 */
export function requestDirectionShare(
  query: string,
  results: readonly Ranked[],
  toolAt: (document: number) => Tool,
): Share | undefined {
  // Most tools say no direction: the request is read only when one of the best does.
  if (!results.slice(0, LOOKED_AT).some(({ document }) => directionsOf(toolAt(document)).length > 0)) return undefined;
  const asked = directionsIn(query, REQUEST_CONNECTORS);
  if (asked.length === 0) return undefined;
  return (document) => {
    const said = directionsOf(toolAt(document));
    if (said.length === 0) return 1;
    const along = asked.some(({ from, to }) => said.some((tool) => meet(tool.from, from) && meet(tool.to, to)));
    const against = asked.some(({ from, to }) => said.some((tool) => meet(tool.to, from) && meet(tool.from, to)));
    return against && !along ? REVERSED : 1;
  };
}
