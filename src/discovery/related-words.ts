// Words that APIs and the people asking them use for the same thing, and phrases that name one
// thing in several words, written from how APIs commonly describe things (not from a query set's
// misses). Unlike the table of word-tables.ts, which makes two words one term on both sides, these
// only widen a request: a request's word also matches its related words at a lower weight
// (tool-index.ts), so a tool that uses the request's own word still comes first (`cost` finds an
// `estimateGasCost` before a `getPrice`), and the index's terms do not change.

import { term } from './words.js';

/** Each line: words for one thing (one of them may be the table's word for others: picture and photo are image). */
const RELATED_GROUPS: readonly string[] = [
  // Media and people's things.
  'image avatar logo icon thumbnail artwork',
  'film video clip',
  'song track music',
  'author writer',
  'paper publication preprint',
  'comment reply',
  'email mail',
  'definition meaning',
  // Work and money.
  'job position vacancy opening career employment',
  'occupation profession',
  'salary income earnings wage',
  'cost price fee fare charge tariff',
  'company business firm organization organisation corporation enterprise',
  'stock share equity',
  'revenue sales turnover',
  'filing report',
  'holder owner',
  'payment transfer',
  'customs duty tariff',
  // Places and travel.
  'road street highway motorway',
  'route directions itinerary journey trip connection',
  'timetable schedule',
  'hotel accommodation lodging',
  'bike bicycle',
  'car vehicle automobile',
  'railway rail train',
  'country nation',
  // Society and science.
  'law legislation statute regulation act',
  'decision ruling judgment verdict',
  'politician deputy representative mep mp',
  'election vote ballot',
  'drug medicine medication',
  'disease illness',
  'doctor physician',
  'species animal organism',
  'unemployment jobless',
  'population inhabitant resident',
  'pollution pollutant emission',
  'electricity power energy',
  'warning alert advisory',
  'forecast prediction outlook',
  'holiday vacation',
  'patent invention',
  'vulnerability exploit',
  'repository repo',
  'website domain site',
  // Sport.
  'game match fixture',
  'team club',
  'player athlete',
  'standing table ranking leaderboard',
];

/**
 * Phrases a request writes out for what tools call by one word or abbreviation, each to the
 * words it means (folded, as words.ts `fold` leaves them).
 */
const PHRASES: Readonly<Record<string, string>> = {
  'total value locked': 'tvl',
  'profile picture': 'avatar',
  'profile photo': 'avatar',
  'open positions': 'job',
  'market capitalisation': 'market cap',
  'market capitalization': 'market cap',
  'annual percentage yield': 'yield',
  'annual percentage rate': 'yield',
  'gross domestic product': 'gdp',
  'consumer price index': 'inflation',
  'non fungible token': 'nft',
  'non fungible tokens': 'nft',
  'initial public offering': 'ipo',
  'zip code': 'postal',
  'post code': 'postal',
  'point of interest': 'poi',
  'points of interest': 'poi',
  'text message': 'sms',
  'public holiday': 'holiday',
  'public holidays': 'holiday',
};

/** Each term (as the index has it) to the other terms of its groups: made on the first search, not at a start. */
let related: Map<string, string[]> | undefined;

function relatedMap(): Map<string, string[]> {
  if (related !== undefined) return related;
  related = new Map();
  for (const line of RELATED_GROUPS) {
    const group = [...new Set(line.split(' ').flatMap(term))];
    for (const word of group) {
      const others = group.filter((other) => other !== word);
      related.set(word, [...new Set([...(related.get(word) ?? []), ...others])]);
    }
  }
  return related;
}

/** The terms related to `word` (a term), other than itself. */
export function relatedTerms(word: string): readonly string[] {
  return relatedMap().get(word) ?? [];
}

/** Longest phrase, in words: a request is looked at this many words at a time. */
const LONGEST = Math.max(...Object.keys(PHRASES).map((phrase) => phrase.split(' ').length));

/** The terms of the phrases a request's words (folded, in order) spell, and the places of the words they were spelled with. */
export function phrases(words: readonly string[]): { terms: string[]; used: Set<number> } {
  const terms: string[] = [];
  const used = new Set<number>();
  for (let at = 0; at < words.length; at += 1)
    for (let length = Math.min(LONGEST, words.length - at); length >= 2; length -= 1) {
      const meant = PHRASES[words.slice(at, at + length).join(' ')];
      if (meant === undefined) continue;
      terms.push(...meant.split(' ').flatMap(term));
      for (let i = at; i < at + length; i += 1) used.add(i);
      at += length - 1;
      break;
    }
  return { terms, used };
}
