// What a request says beside what it wants, for the "none" rule (coverage.ts): how it is said
// (`rn`, `pls`, `tbh`, `lately`, `everyone`), and the pieces of an identifier it holds (an
// address, a hash, a mint, a DOI: `0x...05Fa` gives `Fa`, `JUPyiwr...` gives `JU`, `U`, `Pi`,
// `10.1016/j.cell...` gives `j`, `cell`). Neither names a need a tool must meet: a casual word
// counts against a tool no more than a number does (only when the tool has it, and then for it),
// and an identifier's pieces count not at all, whatever tool happens to share a letter pair.
// Read from the request's words alone, so it holds for any catalog.

import { requestSplit, term } from './words.js';

/**
 * Words of the way people ask in chat, not of what they ask for: greetings and thanks,
 * abbreviations, hedges and intensifiers, the people a question is about in general
 * (`which coins is everyone searching for`), and adverbs of when that name no span (`hot on base
 * lately`, `rn`). Not adjectives that name what is measured (`how tall`, `how far`, `how big`), nor
 * `people` (`people in space`).
 */
const CASUAL_WORDS = (
  'hey hi hello yo ok okay thanks thank thx ty pls plz lol tbh btw fyi imo imho idk asap rn tho ' +
  'really actually basically literally honestly exactly kinda sorta maybe perhaps probably possibly somehow anyway anyways ' +
  'quick quickly real still already ever even yet again wanna gonna gotta wondering curious ' +
  'everyone everybody anyone anybody someone somebody folks guys ' +
  'lately recently nowadays presently historically ' +
  // The particles of German, Dutch, French, Spanish and Italian speech (`was kostet denn`, `wie hoch ist eigentlich`).
  'denn doch ja mal eben eigentlich schon wohl grad eh etwa eens toch maar wel nou donc alors bon pues oye bueno allora magari'
).split(' ');

const CASUAL = new Set(CASUAL_WORDS.flatMap(term));

/** A held identifier: letters and digits, this long at least, with a digit (an address, a hash, a base58 mint or key). */
const IDENTIFIER = /^(?=[\p{L}\p{N}]*\p{N})[\p{L}\p{N}]{20,}$/u;
/** A DOI (`10.1016/j.cell.2020.02.052`): its pieces are not words. */
const DOI = /^10\.\d{4,}\/\S+$/;

/** A name written in camelCase (`useEffect`, `getBalance`, `iPhone`): one name, not its pieces' words. */
const CAMEL_CASE = /^\p{Ll}+\p{Lu}[\p{L}\p{N}]*$/u;

/**
 * The terms that count only where the tool has them: the request's casual words (CASUAL_WORDS),
 * and the pieces of a name written in camelCase (`docs for the react useEffect hook`: no request
 * for `use` or `effect`).
 */
export function casualTerms(query: string): Set<string> {
  const found = new Set(
    requestSplit(query)
      .flatMap(term)
      .filter((entry) => CASUAL.has(entry)),
  );
  for (const token of query.split(/\s+/))
    if (CAMEL_CASE.test(bare(token))) for (const entry of requestSplit(token).flatMap(term)) found.add(entry);
  return found;
}

/** A token without the punctuation around it. */
function bare(token: string): string {
  return token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
}

/**
 * The terms of the pieces of identifiers the request holds (IDENTIFIER, DOI), less those another
 * word of the request has too: they do not count.
 */
export function identifierTerms(query: string): Set<string> {
  const inIdentifiers = new Set<string>();
  const elsewhere = new Set<string>();
  for (const token of query.split(/\s+/)) {
    const held = IDENTIFIER.test(bare(token)) || DOI.test(bare(token));
    for (const entry of requestSplit(token).flatMap(term)) (held ? inIdentifiers : elsewhere).add(entry);
  }
  for (const entry of elsewhere) inIdentifiers.delete(entry);
  return inIdentifiers;
}
