// A request says when it is about: now ("right now", "today", "current"), the past ("history",
// "since 2000", "last month", "on 1 May 2021") or the future ("tomorrow", "next", "upcoming").
// A tool whose route name says another time (`getFearAndGreedHistorical` for "greedy today",
// `getCurrentWeather` for "weather tomorrow") answers it less well than its sibling that says the
// request's time or none; one that says none a little less well than one that says the request's
// (`getUpcomingLaunches` for "next launch", before `getAllLaunches`). Read from the request's words
// and the tools' route names alone, so it holds for any catalog: route names say `Current`,
// `Latest`, `History`, `Forecast` when a provider offers both.

import type { Tool } from '../catalog/tools.js';
import type { Share } from './rescore.js';
import { fold, splitWords } from './words.js';

type Tense = 'now' | 'past' | 'future';

/** Request words that say when (not `live`: where people live is no time), in English, German, French, Spanish, Italian, Dutch and Portuguese. */
const REQUEST_TENSE = new Map<string, Tense>([
  ...[
    'now',
    'currently',
    'current',
    'today',
    'tonight',
    'latest',
    'realtime',
    'jetzt',
    'gerade',
    'aktuell',
    'aktuelle',
    'aktuellen',
    'heute',
    'maintenant',
    'actuel',
    'actuelle',
    'aujourd',
    'ahora',
    'hoy',
    'adesso',
    'oggi',
    'attuale',
    'nu',
    'vandaag',
    'huidige',
    'agora',
    'hoje',
    'atual',
  ].map((word) => [word, 'now'] as const),
  ...[
    'history',
    'historical',
    'historic',
    'historically',
    'past',
    'ago',
    'since',
    'yesterday',
    'previous',
    'verlauf',
    'historisch',
    'historische',
    'gestern',
    'seit',
    'historique',
    'depuis',
    'historial',
    'historico',
    'ayer',
    'desde',
    'storico',
    'ieri',
    'geschiedenis',
    'gisteren',
    'sinds',
    'ontem',
  ].map((word) => [word, 'past'] as const),
  ...[
    'tomorrow',
    'upcoming',
    'forecast',
    'next',
    'future',
    'morgen',
    'demain',
    'prochain',
    'prochaine',
    'manana',
    'proximo',
    'proxima',
    'domani',
    'prossimo',
    'prossima',
    'amanha',
  ].map((word) => [word, 'future'] as const),
]);

/** A span of time just gone: `last month`, `over the past years` (not `last` alone: `the last block` is the latest). */
const LAST_SPAN = /^(?:hours?|days?|nights?|weeks?|months?|years?|decades?|quarters?|\d+)$/;

/** Route-name words that say a time. */
const ROUTE_TENSE = new Map<string, Tense>([
  ['current', 'now'],
  ['latest', 'now'],
  ['live', 'now'],
  ['now', 'now'],
  ['realtime', 'now'],
  ['today', 'now'],
  ['history', 'past'],
  ['historical', 'past'],
  ['historic', 'past'],
  ['archive', 'past'],
  ['timeseries', 'past'],
  ['forecast', 'future'],
  ['upcoming', 'future'],
  ['future', 'future'],
]);

/** A tool whose route name says another time than the request scores this share of its score. */
const OTHER_TENSE = 0.7;
/** One whose route name says no time: it may answer the request's, or any time but that. */
const NO_TENSE = 0.95;

/** The times a request says; empty when it says none. */
export function requestTenses(query: string): Set<Tense> {
  const words = splitWords(query).map(fold);
  const found = new Set<Tense>();
  words.forEach((word, at) => {
    const tense = REQUEST_TENSE.get(word);
    // `next to` is a place, not a time.
    if (tense !== undefined && !(word === 'next' && words[at + 1] === 'to')) found.add(tense);
    if (word === 'last' && LAST_SPAN.test(words[at + 1] ?? '')) found.add('past');
  });
  return found;
}

const routeTenses = new WeakMap<Tool, ReadonlySet<Tense>>();

/** The times a tool's route name says. */
function routeTense(tool: Tool): ReadonlySet<Tense> {
  let found = routeTenses.get(tool);
  if (found === undefined) {
    const said = new Set<Tense>();
    for (const word of splitWords(tool.route.name)) {
      const tense = ROUTE_TENSE.get(fold(word));
      if (tense !== undefined) said.add(tense);
    }
    found = said;
    routeTenses.set(tool, found);
  }
  return found;
}

/** Whether a tool of this time answers a request of that one: a forecast covers today too. */
function answers(tool: Tense, request: Tense): boolean {
  return tool === request || (tool === 'future' && request === 'now');
}

/**
 * `results` (best first) with each tool whose route name says only times the request does not
 * ask for scored OTHER_TENSE of its score, and each whose says none NO_TENSE. A request that says
 * no time, or several, leaves them.
 */
export function requestTenseShare(query: string, toolAt: (document: number) => Tool): Share | undefined {
  const asked = requestTenses(query);
  if (asked.size !== 1) return undefined;
  const [request] = [...asked] as [Tense];
  return (document) => {
    const said = routeTense(toolAt(document));
    if (said.size === 0) return NO_TENSE;
    for (const tense of said) if (answers(tense, request)) return 1;
    return OTHER_TENSE;
  };
}
