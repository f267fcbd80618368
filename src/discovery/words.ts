// How text becomes search terms, the same for a tool's fields and for a request: names split at
// camelCase, snake_case and digits; lower case without accents; filler words dropped (English and
// German question words and verbs every tool name carries, `get`, `list`; the function words of
// French, Spanish, Italian, Dutch and Portuguese requests); a light stemmer that folds plurals and
// -ing/-ed forms; and tables of the abbreviations and the German, French, Spanish, Italian, Dutch
// and Portuguese words the catalogs and their users write, each mapped to the word the tools use.
// What is not here (real synonyms beyond the tables, other languages, meaning) the ranking does not
// understand. The tables themselves are in word-tables.ts and word-tables-languages.ts.

import { GERMAN_REQUEST_WORDS } from './german-words.js';
import { MORE_FILLER_WORDS, MORE_LANGUAGES_TABLE } from './word-tables-languages.js';
import { FILLER_WORDS, SYNONYMS_TABLE } from './word-tables.js';

const FILLER = new Set([...FILLER_WORDS, ...MORE_FILLER_WORDS]);

/** What the index cache keys on besides the text: a tool indexed under other tables would be found differently. */
export const WORD_TABLES: readonly unknown[] = [[...FILLER], SYNONYMS_TABLE, MORE_LANGUAGES_TABLE];

// Maps, not the objects: a word like `constructor` must not find Object.prototype's.
const SYNONYMS_MAP = new Map([...Object.entries(SYNONYMS_TABLE), ...Object.entries(MORE_LANGUAGES_TABLE)]);
const synonym = (word: string) => SYNONYMS_MAP.get(word);
/** The German and English table alone: a German compound is made of German words (`Leipzig` is no Portuguese `lei`, law). */
const GERMAN_TABLE_MAP = new Map(Object.entries(SYNONYMS_TABLE));
const germanWord = (word: string) => GERMAN_TABLE_MAP.get(word);

/** Splits text into words: at spaces and punctuation, camelCase humps, and a digit before a capitalised word (`ERC20Transfers` → ERC20, Transfers); an acronym's plural stays one word (`NFTs`, `APIs`). */
export function splitWords(text: string): string[] {
  // One regular expression, run as native code: at a start, before V8 has optimised anything, a loop over the character codes in JavaScript cost half as much again.
  const words = text.split(WORD_BREAK);
  // Only the ends can be empty (text that begins or ends with a break): no callback per word to drop them.
  if (words[words.length - 1] === '') words.pop();
  if (words[0] === '') words.shift();
  return words;
}

/**
 * Where words end: anything not a letter or digit, and (zero-width) `aB`, `AB|Cd`, `2|Cd`; not
 * `NF|Ts`: a capital followed by a lone s ends an acronym's plural, not a word's beginning. One
 * pass: the index splits half a megabyte of text.
 */
const WORD_BREAK =
  /[^\p{L}\p{N}]+|(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])(?![A-Z]s(?![a-z]))|(?<=\d)(?=[A-Z][a-z])/u;

/** Lower case, accents and umlauts folded (`für` → fur, `Straße` → strasse). */
export function fold(word: string): string {
  // Most words are plain ASCII letters and digits: nothing to fold but the case.
  if (ASCII.test(word)) return word.toLowerCase();
  return word.toLowerCase().replace(/ß/g, 'ss').normalize('NFD').replace(/\p{M}/gu, '');
}

const ASCII = /^[0-9A-Za-z]*$/;

/** Words whose final s is not a plural. */
const UNSTEMMED = new Set([
  'news',
  'series',
  'species',
  'gas',
  'atlas',
  'canvas',
  'alias',
  'lens',
  'mars',
  'always',
  'ens',
  'dns',
  'sms',
  'ipfs',
  'aws',
  'gps',
  'gtfs',
  'gbfs',
  'iris',
  'this',
]);

/**
 * A light suffix stemmer: plurals and the -ing/-ed forms fold onto one stem (`prices`, `pricing`
 * → price; `holders` → holder; `verified` → verify; `trading` → trade). Deliberately weaker than
 * Porter: it leaves words it is unsure of (`greed`, `speed`: an -eed is rarely a past tense).
 */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  // Every rule below cuts an s, -ing or -ed: the words that end otherwise (most of a catalog's) go no further.
  const last = word.charCodeAt(word.length - 1);
  if (last !== S && last !== G && last !== D) return word;
  if (/\d/.test(word) || UNSTEMMED.has(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  // endsWith, not `/(?:ss|us|is)$/`: a regular expression anchored at the end is run from every
  // place of the word, and the index stems every distinct word of a catalog at a start.
  if (word.endsWith('ss') || word.endsWith('us') || word.endsWith('is')) return word;
  if (word.endsWith('es') && ES_PLURAL.some((ending) => word.endsWith(ending))) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 5) return restoreE(word.slice(0, -3));
  if (word.endsWith('ied') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ed') && word.length > 4 && !word.endsWith('eed')) return restoreE(word.slice(0, -2));
  // The plural of an -ing noun folds as its singular does (`warnings`, `warning` → warn).
  if (word.endsWith('ings') && word.length > 6) return restoreE(word.slice(0, -4));
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/** Endings whose -es is the plural's (`matches` → match): what is left ends in ch, sh, x, ss or z. */
const ES_PLURAL = ['ches', 'shes', 'xes', 'sses', 'zes'];

const charCode = (letter: string) => letter.charCodeAt(0);
const VOWELS = [...'aeiou'].map(charCode);
const [D, G, L, S] = [charCode('d'), charCode('g'), charCode('l'), charCode('s')];

/** A lower-case ASCII consonant (y counts): what `[b-df-hj-np-tv-z]` matches. */
function isConsonant(code: number): boolean {
  return code >= charCode('b') && code <= charCode('z') && !VOWELS.includes(code);
}

/** `pric` → price, `trad` → trade: a stem cut before -ing/-ed gets its e back where English drops it. */
function restoreE(base: string): string {
  // A doubled final consonant is undone (`stopp` → stop), but not ll or ss (`call`, `pass`). Compared
  // as character codes: a back-reference regular expression cost a cold start 16 ms to compile.
  const last = base.charCodeAt(base.length - 1);
  if (last === base.charCodeAt(base.length - 2) && isConsonant(last) && last !== L && last !== S)
    return base.slice(0, -1);
  if (/[^aeiou][aeiou][cgkvsz]$/.test(base) || /(?:at|iz|ur|ang|anc)$/.test(base) || shortSyllable(base))
    return `${base}e`;
  return base;
}

const [W, X, Y] = [charCode('w'), charCode('x'), charCode('y')];

/**
 * Porter's rule for the e English drops before -ing/-ed: a stem of one syllable ending
 * consonant-vowel-consonant (not w, x or y) had one (`trad` → trade, `vot` → vote, `stor` →
 * store); a longer one did not (`open`, `visit`, `filter`).
 */
function shortSyllable(base: string): boolean {
  const at = base.length - 1;
  const last = base.charCodeAt(at);
  if (at < 2 || !isConsonantAt(base, at) || isConsonantAt(base, at - 1) || !isConsonantAt(base, at - 2)) return false;
  if (last === W || last === X || last === Y) return false;
  // One vowel-consonant run: no vowel before the one at `at - 1`.
  for (let i = 0; i < at - 2; i += 1) if (!isConsonantAt(base, i)) return false;
  return true;
}

/** Whether the letter at `at` is a consonant: y is one at the start and after a vowel. */
function isConsonantAt(word: string, at: number): boolean {
  const code = word.charCodeAt(at);
  if (code === Y) return at === 0 || !isConsonantAt(word, at - 1);
  return isConsonant(code);
}

/** One word as search terms: folded, mapped through the table, stemmed; none for a filler word, two for a known German compound. */
export function term(word: string): string[] {
  const folded = fold(word);
  if (folded.length === 0 || FILLER.has(folded)) return [];
  // Stemmed once: the index makes every distinct word of a catalog into terms at a start.
  const stemmed = stem(folded);
  const mapped = synonym(folded) ?? synonym(stemmed);
  if (mapped !== undefined) return mapped.includes(' ') ? phrase(mapped) : [stem(mapped)];
  return compound(folded) ?? [stemmed];
}

/** A table value of several words (`market cap`) as their terms. */
function phrase(words: string): string[] {
  return words.split(' ').flatMap((word) => (FILLER.has(word) ? [] : [stem(word)]));
}

/** Every beginning, of three letters or more, of a word of the German and English table: how far a word can begin one (the other languages' tables have their compounds whole, `luchtkwaliteit`). */
const TABLE_STARTS = new Set(
  [...GERMAN_TABLE_MAP.keys()].flatMap((key) =>
    Array.from({ length: Math.max(0, key.length - 2) }, (_, at) => key.slice(0, at + 3)),
  ),
);

/** `wetterwarnungen` → weather, warning: a word made of two words of the German table (German joins them), else null. */
function compound(word: string): string[] | null {
  // Most words begin with no word of the table: one lookup rather than one per place to cut (the index makes thousands of words).
  if (word.length < 8) return null;
  for (let cut = 3; cut <= word.length - 3; cut += 1) {
    const start = word.slice(0, cut);
    // No longer start is a word of the table either: the cuts stop where the table's words do.
    if (!TABLE_STARTS.has(start)) return null;
    const head = germanWord(start);
    if (head === undefined) continue;
    // A joining s (Verkehrsmeldung) is allowed between the parts.
    const rest = word.slice(cut);
    const tail =
      germanWord(rest) ?? germanWord(stem(rest)) ?? (rest.startsWith('s') ? germanWord(rest.slice(1)) : undefined);
    if (tail !== undefined) return [stem(head), stem(tail)];
  }
  return null;
}

/** A term of a request, and whether its word looks like a value (a name, a number, an address) rather than a word for what is wanted. */
export interface RequestTerm {
  term: string;
  value: boolean;
  /** Written in capitals (`AAPL`, `NRW`): what is wanted as often as a name, but when no tool knows it, a code or a ticker to pass. */
  acronym?: boolean;
  /** A word of a phrase that names one thing (related-words.ts): the phrase's term says what is wanted; the word weighs half and is not counted towards "none". */
  inPhrase?: boolean;
  /** The first word after a preposition (`in`, `near`, `von`, `près de`; articles between): where a request names an argument, a place or a name typed in lower case as often as not. */
  afterPreposition?: boolean;
}

/**
 * The terms of a request. A word with a digit (`0xabc`, `10115`) or a capitalised word
 * (`Tokyo`, `Hinton`; not an acronym) is marked as a value: when no tool knows it, it is an argument to pass, not a sign that the
 * request is about something no tool does.
 */
export function requestTerms(text: string): RequestTerm[] {
  return requestWords(text).flat();
}

/** The terms of a request word by word, in its order: a filler word has none (coverage.ts reads which words are neighbours). */
export function requestWords(text: string): RequestTerm[][] {
  const split = requestSplit(text);
  const byWord = split.map((word) => {
    // An acronym (`USDC`, `NASA`) names what is wanted as often as not: only a capitalised word is taken for a name.
    const value = /\d/.test(word) || /^\p{Lu}\p{Ll}/u.test(word);
    const acronym = /^\p{Lu}{2,}s?$/u.test(word);
    const found = term(word).map((entry) => (acronym ? { term: entry, value, acronym } : { term: entry, value }));
    const parts = found.length === 1 ? germanParts(word, found[0]?.term as string) : [];
    // The word itself stays, as a name: a tool may use the whole compound, a German tool the word.
    return parts.length === 0 ? found : [{ term: found[0]?.term as string, value: true }, ...parts];
  });
  markAfterPrepositions(
    split.map((word) => word.toLowerCase()),
    byWord,
  );
  return byWord;
}

/** A request's words as requestWords reads them, one for each of its entries. */
export function requestSplit(text: string): string[] {
  return splitWords(text.replace(CONTRACTION, ''));
}

/** An English contraction's ending (`what's`, `I'd`, `don't`, `floyd's`): a letter or two that say nothing of what is wanted. */
const CONTRACTION = /(?<=\p{L})['’](?:s|d|t|m|ll|re|ve)(?![\p{L}\p{N}])/giu;

/**
 * Prepositions before an argument (in lower case, with and without their accents), in the languages
 * the tables know: `in portland`, `for the week`, `bei köln`, `à lyon`, `cerca de madrid`, `vicino
 * roma`, `bij utrecht`, `perto de lisboa`. Not `to`: it as often joins the request's topic (`an
 * uber from the airport to downtown`); not a bare `a` (English's article) nor `no`, `na`, `uber` (English words).
 */
const BEFORE_ARGUMENT = new Set(
  (
    'in of for near at from by about on around inside outside with ' +
    'mit im für fur von vom bei beim nach aus um über zum zur nahe ab ' +
    'à au aux de du des en dans pour près pres chez sur avec ' +
    'del al para por cerca desde con ' +
    'di da nel nella nei sul della dei vicino ' +
    'van voor bij uit op rond nabij met ' +
    'em do dos das perto com'
  ).split(' '),
);

/** `on my linkedin`, `in meiner Stadt`: what a possessive goes with is the user's own thing, what a tool must be about, not a name. */
const POSSESSIVES = new Set(
  (
    'my our your his her their mein meine meinem meinen meiner unser unsere dein deine ' +
    'mon ma mes notre nos ton ta tes votre vos mi mis tu tus nuestro nuestra ' +
    'mio mia miei mie nostro nostra tuo tua mijn onze jouw uw meu minha meus minhas nosso nossa'
  ).split(' '),
);

/** Marks the first word with terms after a preposition (filler words between, an article, `the`; not a possessive), in place. */
function markAfterPrepositions(lowered: readonly string[], byWord: RequestTerm[][]): void {
  let after = false;
  lowered.forEach((word, at) => {
    const entries = byWord[at] as RequestTerm[];
    if (entries.length > 0) {
      if (after) for (const entry of entries) entry.afterPreposition = true;
      after = BEFORE_ARGUMENT.has(word);
    } else if (BEFORE_ARGUMENT.has(word)) after = true;
    else if (POSSESSIVES.has(word)) after = false;
  });
}

/** German words of the domains APIs serve, for requests only (word-tables.ts). */
const GERMAN_REQUEST_MAP = new Map(Object.entries(GERMAN_REQUEST_WORDS));
/** The German and English table's word or, in a request, the German domain word's (not the other languages': a German compound's parts are German words). */
const germanRequestWord = (word: string) => germanWord(word) ?? GERMAN_REQUEST_MAP.get(word);

/**
 * The English terms a request word the table does not map stands for in German: a capitalised one
 * read as a compound (knownParts), a lower-case one only as a whole German domain word (`pollenflug`;
 * an English compound is not split).
 */
function germanParts(word: string, made: string): RequestTerm[] {
  const folded = fold(word);
  if (made !== stem(folded)) return [];
  if (/^\p{Lu}/u.test(word)) return knownParts(folded);
  const whole = inflected(folded, (part) => GERMAN_REQUEST_MAP.get(part));
  return whole === undefined ? [] : termsOf(whole);
}

/** German endings of plural and case, cut to find a word of the table (`wechselkurse` → wechselkurs). */
const GERMAN_ENDINGS = ['en', 'er', 'es', 'e', 'n', 's'];

/** `lookup`'s word for `word` or for it without a German ending; undefined when neither is there. */
function inflected(word: string, lookup: (word: string) => string | undefined = germanRequestWord): string | undefined {
  const found = lookup(word);
  if (found !== undefined) return found;
  for (const ending of GERMAN_ENDINGS)
    if (word.length - ending.length >= 4 && word.endsWith(ending)) {
      const base = lookup(word.slice(0, -ending.length));
      if (base !== undefined) return base;
    }
  return undefined;
}

/**
 * A capitalised request word the table does not know as a whole, read as a German compound (German
 * writes them as one word, the part that names the thing last): the table's words it ends with or
 * begins with, each as a term (`Katastrophenwarnungen` → warning, `Pegelstand` → gauge, `Weihnachtsmärkte`
 * → market). Only for requests: the index's words are the tools' own, mostly English, and making
 * them is on a start's path.
 */
function knownParts(folded: string): RequestTerm[] {
  const whole = inflected(folded);
  if (whole !== undefined) return termsOf(whole);
  if (folded.length < 7) return [];
  let head: string | undefined;
  let tail: string | undefined;
  // The longest known tail (four letters at least) and head (three: Zug).
  for (let cut = 3; cut <= folded.length - 4 && tail === undefined; cut += 1) tail = inflected(folded.slice(cut));
  for (let cut = folded.length - 3; cut >= 3 && head === undefined; cut -= 1) {
    const start = folded.slice(0, cut);
    // A joining s (Ausbildungsplatz is ausbildung, s, platz).
    head = germanRequestWord(start) ?? (start.endsWith('s') ? germanRequestWord(start.slice(0, -1)) : undefined);
  }
  return [...(head === undefined ? [] : termsOf(head)), ...(tail === undefined ? [] : termsOf(tail))];
}

function termsOf(mapped: string): RequestTerm[] {
  return (mapped.includes(' ') ? phrase(mapped) : [stem(mapped)]).map((entry) => ({ term: entry, value: false }));
}

/** Two neighbouring words of a request written as one: the joined word's terms and each word's own. */
export interface Joined {
  terms: string[];
  parts: [string[], string[]];
}

/**
 * A request's neighbouring words written as one (`data sets` → dataset, `on chain` → onchain),
 * each of three letters at least: a tool may write as one word what a request writes as two. The
 * index keeps those it has where the two words alone say less (one is filler or unknown to it).
 */
export function joinedWords(text: string): Joined[] {
  const words = splitWords(text).map(fold);
  const joined: Joined[] = [];
  for (let at = 1; at < words.length; at += 1) {
    const [first, second] = [words[at - 1] as string, words[at] as string];
    if (first.length >= 3 && second.length >= 3 && !/\d/.test(first + second))
      joined.push({ terms: term(first + second), parts: [term(first), term(second)] });
  }
  return joined;
}

/** Every search term of a text, in order, repeats kept. */
export function terms(text: string): string[] {
  return splitWords(text).flatMap(term);
}
