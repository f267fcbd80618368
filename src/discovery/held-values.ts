// A request that holds a value of a kind only some tools take hands it to one of them: a place's
// coordinates ("what's at 48.8584, 2.2945", "nearest hospital to 50.94, 6.96") go to a tool that
// takes a latitude and a longitude, an EVM address ("universal profile of 0x0f41...") to one that
// takes an address; any value at all (a name, a number, a word after a preposition: "hospitals in
// Dresden", "holidays 2026 in Bayern") to a tool that takes a text, a choice or a list from its
// caller rather than one that answers one fixed question ("all hospitals", "a random brewery"; a
// limit, a page or a flag takes no name). A tool that takes no such value answers it less well,
// however many of its other words it shares. Read from the request's form and the tools' parameters
// alone, so it holds for any catalog.

import type { Tool } from '../catalog/tools.js';
import type { Share } from './rescore.js';
import { fold, splitWords, type RequestTerm } from './words.js';

interface ValueKind {
  /** Whether a request holds a value of the kind: its text, and its terms word by word (words.ts `requestWords`). */
  heldBy(query: string, words: readonly (readonly RequestTerm[])[]): boolean;
  /** Whether a tool takes one, from what it takes from its caller. */
  takenBy(taken: Taken): boolean;
  /** A tool that takes none scores this share of its score for a request that holds one. */
  without: number;
}

/** Two decimal numbers side by side, at least one with a fraction: `52.52,13.40`, `38.58, -121.49` (not in a longer list: `5.5, 6.1, 7.2` are values). */
const PAIR =
  /(?<![\d.])(-?\d{1,3}(?:\.\d+)?)\s*[,;/]?\s+(-?\d{1,3}(?:\.\d+)?)(?![\d.])|(?<![\d.])(-?\d{1,3}(?:\.\d+)?),(-?\d{1,3}(?:\.\d+)?)(?![\d.])/g;
const LIST_BEFORE = /\d\s*[,;]\s*$/;
const LIST_AFTER = /^\s*[,;]\s*-?\d/;

const LATITUDE = new Set(['lat', 'latitude']);
const LONGITUDE = new Set(['lon', 'lng', 'long', 'longitude']);
/** A key that takes both at once. */
const BOTH = new Set(['coordinates', 'coords', 'latlng', 'latlon', 'lonlat', 'lnglat']);

/** Whether `query` holds a latitude and a longitude. */
export function holdsCoordinates(query: string): boolean {
  for (const match of query.matchAll(PAIR)) {
    const latitude = match[1] ?? match[3];
    const longitude = match[2] ?? match[4];
    if (latitude === undefined || longitude === undefined) continue;
    if (!latitude.includes('.') && !longitude.includes('.')) continue;
    const before = query.slice(0, match.index);
    const after = query.slice(match.index + match[0].length);
    if (LIST_BEFORE.test(before) || LIST_AFTER.test(after)) continue;
    if (Math.abs(Number(latitude)) <= 90 && Math.abs(Number(longitude)) <= 180) return true;
  }
  return false;
}

/** An EVM address: 0x and 40 hex digits (a transaction's hash has 64). */
const EVM_ADDRESS = /(?<![0-9a-z])0x[0-9a-f]{40}(?![0-9a-z])/i;
/** The words of a key that takes an address: `address`, `walletAddress`, `contract`, `owner`... */
const ADDRESS_WORDS = new Set(['address', 'wallet', 'account', 'contract', 'owner', 'holder']);

/** What a tool takes from its caller: its user parameters' keys split into folded words, and whether one can be given a name. */
interface Taken {
  keys: readonly (readonly string[])[];
  aName: boolean;
}

/** The parameter types a name, a place or a number written in words can be given as: not a number, a flag or an object. */
const NAMEABLE = new Set(['string', 'enum', 'array']);

const KINDS: readonly ValueKind[] = [
  {
    heldBy: holdsCoordinates,
    takenBy: ({ keys }) => {
      const has = (names: ReadonlySet<string>) => keys.some((key) => key.some((word) => names.has(word)));
      return (has(LATITUDE) && has(LONGITUDE)) || keys.some((key) => BOTH.has(key.join('')));
    },
    without: 0.5,
  },
  {
    heldBy: (query) => EVM_ADDRESS.test(query),
    takenBy: ({ keys }) => keys.some((key) => key.some((word) => ADDRESS_WORDS.has(word))),
    without: 0.7,
  },
  {
    // Any value (words.ts marks a capitalised word or one with a digit) or a word where an argument goes.
    heldBy: (_query, words) =>
      words.some((word) => word.some((entry) => entry.inPhrase !== true && (entry.value || entry.afterPreposition))),
    takenBy: ({ aName }) => aName,
    without: 0.85,
  },
];

/** What each tool takes: read once per tool. */
const takenOf = new WeakMap<Tool, Taken>();

function takenBy(tool: Tool): Taken {
  let found = takenOf.get(tool);
  if (found === undefined) {
    const user = tool.route.parameters.filter((param) => param.source.kind === 'user');
    found = {
      keys: user.map((param) => splitWords(param.key).map(fold)),
      aName: user.some((param) => NAMEABLE.has(param.type.kind)),
    };
    takenOf.set(tool, found);
  }
  return found;
}

/** The share (rescore.ts) that scores each tool that takes no value of a kind the request holds that kind's `without` of its score; none when it holds none. */
export function heldValueShare(
  query: string,
  words: readonly (readonly RequestTerm[])[],
  toolAt: (document: number) => Tool,
): Share | undefined {
  const held = KINDS.filter((kind) => kind.heldBy(query, words));
  if (held.length === 0) return undefined;
  return (document) => {
    const taken = takenBy(toolAt(document));
    let share = 1;
    for (const kind of held) if (!kind.takenBy(taken)) share *= kind.without;
    return share;
  };
}
