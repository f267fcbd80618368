// How words become terms (words.ts): the stemmer's rules one by one, and term()'s folding, filler,
// table and compound paths. stem() and term() run once per distinct word of a catalog at every cold
// start, so they are kept cheap (endsWith, a last-letter check, one stem per word); these pin what
// they make, so that a cheaper form cannot change a term (the index and its caches would differ).

import { describe, expect, it } from 'vitest';
import { joinedWords, requestTerms, stem, term } from '../../src/discovery/words.js';

describe('stem', () => {
  it.each([
    // Too short, a digit, or a word whose final s is not a plural: unchanged.
    ['api', 'api'],
    ['news', 'news'],
    ['gas', 'gas'],
    ['eth2', 'eth2'],
    // Not ending in s, -ing or -ed: unchanged.
    ['weather', 'weather'],
    ['price', 'price'],
    ['feed', 'feed'],
    ['ies', 'ies'],
    // -ies → y.
    ['categories', 'category'],
    // -ss, -us, -is are not plurals.
    ['address', 'address'],
    ['status', 'status'],
    ['analysis', 'analysis'],
    // -es after ch, sh, x, ss, z.
    ['matches', 'match'],
    ['wishes', 'wish'],
    ['hashes', 'hash'],
    ['boxes', 'box'],
    ['classes', 'class'],
    ['quizzes', 'quizz'],
    // -ing and -ed, with the e restored and a doubled consonant undone, but not ll or ss.
    ['pricing', 'price'],
    ['created', 'create'],
    ['traded', 'trade'],
    // One syllable ending consonant-vowel-consonant had an e (Porter); a longer stem had none.
    ['trading', 'trade'],
    ['voting', 'vote'],
    ['stored', 'store'],
    ['opened', 'open'],
    ['visited', 'visit'],
    ['delayed', 'delay'],
    // -ied → y; an -eed is left (greed is no past tense).
    ['verified', 'verify'],
    ['greed', 'greed'],
    ['speed', 'speed'],
    ['stopped', 'stop'],
    ['shipped', 'ship'],
    ['calling', 'call'],
    ['passed', 'pass'],
    ['blocking', 'block'],
    // The plural of an -ing noun as its singular.
    ['warnings', 'warn'],
    ['listings', 'list'],
    ['using', 'using'],
    // A plain plural s.
    ['tokens', 'token'],
    ['prices', 'price'],
    ['holders', 'holder'],
  ])('%s → %s', (word, stemmed) => {
    expect(stem(word)).toBe(stemmed);
  });
});

describe('term', () => {
  it.each([
    ['Prices', ['price']],
    ['holders', ['holder']],
    ['the', []],
    ['into', []],
    ['have', []],
    ['TXs', ['transaction']],
    ['ETH', ['ethereum']],
    ['Straße', ['road']],
    ['Wetterwarnungen', ['weather', 'warn']],
    ['Verkehrsmeldung', ['traffic', 'news']],
    ['Gartenzwerg', ['gartenzwerg']],
    ['getBlockNumber', ['getblocknumber']],
  ])('%s → %j', (word, terms) => {
    expect(term(word)).toEqual(terms);
  });
});

describe('joinedWords', () => {
  it("joins neighbouring words of three letters or more, keeping each word's own terms", () => {
    expect(joinedWords('open data sets on chain')).toEqual([
      { terms: ['opendata'], parts: [['open'], []] },
      { terms: ['dataset'], parts: [[], ['set']] },
    ]);
  });
});

describe('German words of the domains APIs serve', () => {
  const found = (text: string) => requestTerms(text).map((entry) => `${entry.term}${entry.value ? '*' : ''}`);

  it.each([
    ['Temperatur', ['temperatur*', 'temperature']],
    ['Fahrplan', ['fahrplan*', 'timetable']],
    ['Apotheken', ['apotheken*', 'pharmacy']],
    ['Nebenwirkungen', ['nebenwirkungen*', 'side', 'effect']],
    // Lower case too, and with a German ending the table's word does not have.
    ['pollenflug', ['pollenflug*', 'pollen']],
    ['leitzinsen', ['leitzinsen*', 'interest', 'rate']],
    // In a compound, as the table's words are (Flughafen + Wetter).
    ['Flughafenwetter', ['flughafenwetter*', 'airport', 'weather']],
  ])('in a request, %s → %j beside the word itself', (word, terms) => {
    expect(found(word)).toEqual(terms);
  });

  it("leaves the index's words as they are: a German tool's text keeps its own", () => {
    expect(term('Temperatur')).toEqual(['temperatur']);
    expect(term('Fahrplan')).toEqual(['fahrplan']);
    // Not an English compound split: only a whole lower-case word is read as German.
    expect(found('flughafenwetter')).toEqual(['flughafenwetter']);
  });
});

describe('requestTerms and English contractions', () => {
  const terms = (text: string) => requestTerms(text).map((entry) => entry.term);

  it('drops the ending of a contraction: a lone s or d is no word of what is wanted', () => {
    expect(terms("what's my credit score")).toEqual(['credit', 'score']);
    expect(terms("I'd like pink floyd's albums")).toEqual(['pink', 'floyd', 'album']);
    expect(terms('what’s the wifi password')).toEqual(['wifi', 'password']);
  });

  it('keeps a letter that is part of a word or a name', () => {
    expect(terms('next S-Bahn')).toContain('s');
    expect(terms("prix de l'essence")).toContain('essence');
  });
});
