// The "none" rule's measure (tool-index.ts NONE_MIN_COVERAGE): how much of a request the best tool
// covers, each request word weighted by how rare it is among the tools and by how surely the tool
// says it (in what it does, or only in its parameters, or only by another form of the word).
// Words that are arguments rather than what is wanted (names, numbers, tickers no tool knows) do
// not count, and several neighbouring words the tool does not have count as one topic when the
// tool takes text to search for: "long covid fatigue" is what a search for articles is given, not
// three pieces of evidence that no tool fits.

import type { Tool } from '../catalog/tools.js';
import { findTerm, inFirstFields } from './bm25.js';
import { FIELDS } from './documents.js';
import type { Postings } from './postings.js';
import { relatedTerms } from './related-words.js';
import type { RequestTerm } from './words.js';

/**
 * How many of FIELDS, from the first, say what a tool does: those before `params` (name, about,
 * description; documents.ts keeps them first).
 */
export const FIELDS_SAYING_WHAT_IT_DOES = FIELDS.indexOf('params');
/** Request words this long match longer terms they begin and terms one typo away; a slip in one is still the word. */
export const LOOSE_FROM = 5;
/**
 * A request's word the best tool has only in its parameters or its schema's lead counts this much
 * of its weight: weaker evidence that the tool does what is asked.
 */
const ASIDE_WEIGHT = 0.75;
const LOOSE_WEIGHT = 0.25;
/** Words in a row a name or a place takes at most (`portland oregon`, `2018 toyota camry`); a longer run is a topic (`graph neural network pruning`). */
const LONGEST_NAME = 3;

/** What the rule reads of a request and of the best tool's match of it. */
export interface Match {
  /** The request's terms word by word, in order (a filler word has none), as words.ts `requestWords` makes them. */
  words: readonly (readonly RequestTerm[])[];
  /** Terms added for the whole request (a phrase's word, two words a tool writes as one). */
  extra: readonly RequestTerm[];
  /** The request's terms the tool matched. */
  matched: readonly string[];
  document: number;
  tool: Tool;
  /** The vocabulary terms each request term matched by (its own, a longer one, one a typo away). */
  termsUsed: (word: string) => readonly number[];
  /** The request's terms that say when it is about (time-arguments.ts): arguments, not what is wanted. */
  times: ReadonlySet<string>;
  /** What the requester did, when the request asks for their own record (own-record.ts): the tool must say it. */
  doing: readonly string[];
  /** The request's casual words' terms (asides.ts): they count only where the tool has them. */
  casual: ReadonlySet<string>;
  /** The terms of the identifiers' pieces (asides.ts): they do not count. */
  pieces: ReadonlySet<string>;
}

/**
 * The share of the request's terms, each weighted by its rarity (IDF), that the tool covers. A
 * value or an acronym no tool knows (a place, a person, an address, a ticker), and a number the
 * tool does not have, do not count: they are arguments. 0 when no word matched is fully evidence
 * (all only in the tool's parameters or schema's lead, or matched loosely): a tool that says none
 * of the request's words in what it does is a weak match.
 */
export function coverage(postings: Postings, match: Match): number {
  const hit = new Set(match.matched);
  if (match.doing.length > 0 && !match.doing.some((word) => hit.has(word))) return 0;
  const weights = new Map<string, number>();
  const unknownArguments = argumentsNoToolHas(postings, match.words);
  for (const entry of [...match.words.flat(), ...match.extra])
    if (
      (counts(postings, entry, hit) || (hit.has(entry.term) && namedLonger(postings, entry.term, match))) &&
      (!unknownArguments.has(entry.term) || hit.has(entry.term)) &&
      !match.times.has(entry.term) &&
      !match.pieces.has(entry.term) &&
      (!match.casual.has(entry.term) || hit.has(entry.term))
    )
      weights.set(entry.term, rarity(postings, entry.term));
  if (takesText(match.tool)) for (const run of unmatchedRuns(match.words, weights, hit)) asOneWord(run, weights);
  let total = 0;
  let covered = 0;
  let strong = false;
  for (const [word, weight] of weights) {
    total += weight;
    if (!hit.has(word)) continue;
    const evidence = evidenceOf(postings, word, match.document, match.termsUsed(word));
    strong ||= evidence === 1;
    covered += weight * evidence;
  }
  return total === 0 || !strong ? 0 : covered / total;
}

function counts(
  postings: Postings,
  { term, value, acronym, inPhrase }: RequestTerm,
  hit: ReadonlySet<string>,
): boolean {
  if (inPhrase === true || ((value || acronym === true) && documentsWith(postings, term) === 0)) return false;
  // A number (`30` minutes, a date's `2024`) is an argument even where some tool's text has it.
  return !(value && /\d/.test(term) && !hit.has(term));
}

/**
 * The terms of request words no tool has that stand where an argument does: in a run of
 * neighbouring words (no filler between) each of which no tool has (or has only in its parameters,
 * as an example or a choice: `lido`, `california`) or is a value, that comes after
 * a preposition (words.ts `afterPreposition`) or holds a number or an acronym, and is no longer than
 * a name: places, names and brands typed in lower case (`breweries in portland oregon`, `recalls
 * on a 2018 toyota camry`), which capitalised would be values. Leaving every word no tool has out of
 * the rule cost "none" on every query set; this leaves out only those where an argument goes.
 */
function argumentsNoToolHas(postings: Postings, words: readonly (readonly RequestTerm[])[]): Set<string> {
  const unknown = (entries: readonly RequestTerm[]) => entries.every((entry) => saidByNone(postings, entry.term));
  const valueOrCode = (entry: RequestTerm) => (entry.value && /\d/.test(entry.term)) || entry.acronym === true;
  const found = new Set<string>();
  let run: (readonly RequestTerm[])[] = [];
  const close = () => {
    const placed = run.some((entries) =>
      entries.some((entry) => entry.afterPreposition === true || valueOrCode(entry)),
    );
    if (placed && run.length <= LONGEST_NAME)
      for (const entries of run) if (unknown(entries)) for (const entry of entries) found.add(entry.term);
    run = [];
  };
  for (const entries of words)
    if (entries.length > 0 && (unknown(entries) || entries.some((entry) => entry.value || entry.acronym === true)))
      run.push(entries);
    else close();
  close();
  return found;
}

/** Whether the tool takes a string from its caller: words it does not have can be handed to it. */
function takesText(tool: Tool): boolean {
  return tool.route.parameters.some((param) => param.source.kind === 'user' && param.type.kind === 'string');
}

/**
 * Runs of neighbouring request words (no filler between) that count, none of which the tool
 * matched and none a name: each run's terms, in order. A run of two or more is one topic.
 */
function unmatchedRuns(
  words: readonly (readonly RequestTerm[])[],
  weights: ReadonlyMap<string, number>,
  hit: ReadonlySet<string>,
): string[][] {
  const runs: string[][] = [];
  const placed = new Set<string>();
  let run: string[] = [];
  const close = () => {
    if (run.length > 1) runs.push(run);
    run = [];
  };
  for (const word of words) {
    const counted = word.filter((entry) => weights.has(entry.term));
    if (counted.length === 0 || counted.some((entry) => hit.has(entry.term) || entry.value)) {
      close();
      continue;
    }
    for (const { term } of counted)
      if (!placed.has(term)) {
        placed.add(term);
        run.push(term);
      }
  }
  close();
  return runs;
}

/** The run's terms weigh together what its heaviest weighs alone, each in proportion to its own weight. */
function asOneWord(run: readonly string[], weights: Map<string, number>): void {
  const each = run.map((term) => weights.get(term) as number);
  const heaviest = Math.max(...each);
  const sum = each.reduce((a, b) => a + b, 0);
  run.forEach((term, at) => weights.set(term, ((each[at] as number) * heaviest) / sum));
}

/**
 * How much the tool's match of a request word says it does what is asked: fully in a field that
 * says what it does, ASIDE_WEIGHT only in its parameters or schema's lead or by a related word
 * there (related-words.ts: another word for it, not the request's own); a word no tool has that
 * it matched by another form (`termsUsed`) in a field that says what it does fully when long (a
 * slip in a long word is still the word), LOOSE_WEIGHT when short (bal, gass, hora: a short word
 * is easily another's slip), and no more than the word itself would count when that form is only
 * in its parameters.
 */
function evidenceOf(postings: Postings, word: string, document: number, termsUsed: readonly number[]): number {
  const saysIt = (term: number) => inFirstFields(postings, term, document, FIELDS_SAYING_WHAT_IT_DOES);
  const found = findTerm(postings, word);
  if (found >= 0 && saysIt(found)) return 1;
  const related = relatedTerms(word).some((other) => {
    const at = findTerm(postings, other);
    return at >= 0 && saysIt(at);
  });
  if (found >= 0 || related) return ASIDE_WEIGHT;
  if (!termsUsed.some(saysIt)) return Math.min(ASIDE_WEIGHT, LOOSE_WEIGHT);
  return word.length >= LOOSE_FROM ? 1 : LOOSE_WEIGHT;
}

/** log(N / tools with the term), at least 1: a word no tool has counts as rare. */
function rarity(postings: Postings, word: string): number {
  return Math.max(1, Math.log((postings.documentCount + 1) / (documentsWith(postings, word) + 1)));
}

/**
 * Whether the tool says, in what it does, a longer form of a name no tool has (`Zwangsversteigerung`:
 * its `zwangsversteigerungen`): the name is then what it is about, not an argument.
 */
function namedLonger(postings: Postings, word: string, match: Match): boolean {
  if (word.length < LOOSE_FROM) return false;
  return match
    .termsUsed(word)
    .some(
      (term) =>
        postings.text.startsWith(word, postings.termStart[term]) &&
        inFirstFields(postings, term, match.document, FIELDS_SAYING_WHAT_IT_DOES),
    );
}

/**
 * Whether no tool says the term in what it does (its name, hints or description): a word only in
 * parameters, as an example or a choice (`lido`, `california`, `binance`), is a value to pass.
 */
function saidByNone(postings: Postings, word: string): boolean {
  const found = findTerm(postings, word);
  if (found < 0) return true;
  const { fieldCount, fieldStart } = postings;
  return fieldStart[found * fieldCount] === fieldStart[found * fieldCount + FIELDS_SAYING_WHAT_IT_DOES];
}

/** How many tools have the term, in any field. */
function documentsWith(postings: Postings, word: string): number {
  const found = findTerm(postings, word);
  return found < 0 ? 0 : (postings.documentFrequency[found] as number);
}
