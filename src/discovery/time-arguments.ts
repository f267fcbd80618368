// When a request is about (`last month`, `next weekend`, `this week`, `tomorrow morning`,
// `letzte Woche`, `la semaine dernière`) is an argument, as a date is: a tool that shares
// `week` or `last` with it (a 52-week high, the last update) is no closer to what is asked. The
// "none" rule (coverage.ts) leaves such words out, as it does numbers. A span word alone (`long
// weekends`, `picture of the day`) can be what is wanted and still counts.

import { fold, requestSplit, term } from './words.js';

/** Words of a span of time, in the languages the tables know, as their terms. */
const SPANS = new Set(
  (
    'day days week weeks weekend month months year years night morning evening afternoon hour hours minute minutes ' +
    'quarter season decade woche wochen wochenende monat monate jahr jahre nacht semaine mois annee jour jours ' +
    'semana ano dia settimana mese anno giorno maand jaar dag'
  )
    .split(' ')
    .flatMap(term),
);

/** Words before a span that make it a time: `last`, `next`, `this`, `past`; German, Spanish, Italian, Dutch, Portuguese ones. */
const BEFORE_SPAN = new Set(
  (
    'last next this past coming previous these today tomorrow yesterday tonight ' +
    'letzte letzten letzter nachste nachsten diese dieser diesem kommende kommenden vergangene vergangenen ' +
    'este esta proximo proxima questa questo prossimo prossima scorso scorsa deze volgende vorige'
  ).split(' '),
);

/** Words after a span that make it a time (French, Spanish, Italian, Portuguese put them after): `la semaine dernière`. */
const AFTER_SPAN = new Set(
  'dernier derniere prochain prochaine passe passee pasado pasada proximo proxima scorso scorsa prossimo prossima passado passada'.split(
    ' ',
  ),
);

/** The terms of the request's words that say when, not what: each span with the word that makes it a time. */
export function timeArguments(text: string): Set<string> {
  const words = requestSplit(text).map(fold);
  const found = new Set<string>();
  // Looked for from the words that make a span a time (a set lookup each): a search pays term() only beside one.
  const take = (span: string | undefined, timing: string) => {
    const terms = span === undefined ? [] : term(span);
    if (!terms.some((each) => SPANS.has(each))) return;
    for (const each of [...terms, ...term(timing)]) found.add(each);
  };
  words.forEach((word, at) => {
    if (BEFORE_SPAN.has(word)) take(words[at + 1], word);
    if (AFTER_SPAN.has(word)) take(words[at - 1], word);
  });
  return found;
}
