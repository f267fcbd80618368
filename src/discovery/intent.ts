// Whether a request asks to DO something (send, buy, book, delete...) rather than to read: a
// catalog's read-only tools cannot answer it, however many of its words they share ("send 0.1 ETH
// to my friend" is not answered by an address's history). Read from the request's words alone, so
// it holds for any catalog: an English verb of the list as a command (the request's first word, or
// after "please", "can you", "want to", "help me", and before an article, a pronoun, a number or
// "new": "book a hotel", not "book reviews"; "order an Uber", not "order book"), or an infinitive
// or a command of the German, French or Spanish list anywhere (none is a noun: "Termin buchen").
// "Send me the news" asks to be told: a verb of delivery followed by "me" or "us" reads.

import { fold, splitWords } from './words.js';

/**
 * English verbs that ask a service to change something, in their base (imperative) form. Not those
 * that read as often (call a contract, update me, turn or convert a value, apply for a job) nor
 * those a read-only tool answers with a quote, a transaction to sign or what is available (swap,
 * stake, mint; rent a bike: the stations that have one).
 */
const ENGLISH_ACTIONS = new Set(
  (
    'send transfer buy purchase order book reserve create delete remove post publish translate write pay cancel ' +
    'schedule set reset upload edit submit sign deploy install subscribe unsubscribe email text message share ' +
    'rename register add move sell vote tweet invite play save'
  ).split(' '),
);

/**
 * German, French and Spanish infinitives of the same, and their commands where those are no noun
 * (folded: `überweise`, `envoyez`, `envíame`), each with the English verb a tool's route name and
 * description would say: the catalogs name their routes in English (`sendMessage`, `translateText`).
 */
const FOREIGN_ACTIONS = new Map<string, string>(
  Object.entries({
    send: 'senden schicken sende schicke envoyer envoie envoyez enviar mandar enviame mandame',
    transfer: 'uberweisen uberweise transferer transferir',
    buy: 'kaufen kaufe acheter achete achetez comprar comprame',
    order: 'bestellen bestelle commander commandez',
    book: 'buchen',
    reserve: 'reservieren reserviere reserver reservez reservar reservame',
    create: 'erstellen anlegen erstelle creer creez crear',
    delete: 'loschen losche supprimer supprimez borrar eliminar',
    publish: 'veroffentlichen publier publicar',
    translate: 'ubersetzen ubersetze traduire traduis traduisez traducir traduceme',
    write: 'schreiben schreibe ecrire ecris ecrivez escribir escribeme',
    pay: 'bezahlen bezahle payer payez pagar',
    cancel: 'stornieren storniere kundigen annuler annulez cancelar',
    upload: 'hochladen',
    sell: 'verkaufen vendre vender',
  }).flatMap(([english, words]) => words.split(' ').map((word) => [word, english] as const)),
);

/** Words after which a verb is a command: "please send", "can you send", "help me send", "let's send" (`s`), "wanna send". */
const BEFORE_COMMAND = new Set(['please', 'pls', 'plz', 'you', 'me', 'us', 's', 'wanna']);
/** Words before `to` that make the verb after it a command: "I want to send", "I'd like to book", "I need to pay". */
const BEFORE_TO = new Set(['want', 'like', 'need', 'have', 'wish']);

/** Words that follow a verb used as a command: its object's article or pronoun, or "new" (a number too). */
const AFTER_COMMAND = new Set(
  'a an the my me our your his her their this that these those some new another it them us him one two three'.split(
    ' ',
  ),
);

/** Verbs that, followed by "me" or "us", ask to be told something: "send me the latest news" reads. */
const DELIVER = new Set(['send', 'email', 'text', 'message', 'share', 'post']);
const RECEIVER = new Set(['me', 'us']);

/** The action verb (English, folded) of a request that asks to do something, or undefined for one that asks to read. */
export function actionVerb(text: string): string | undefined {
  const words = splitWords(text).map(fold);
  for (let at = 0; at < words.length; at += 1) {
    const word = words[at] as string;
    const foreign = FOREIGN_ACTIONS.get(word);
    if (foreign !== undefined) return foreign;
    if (!ENGLISH_ACTIONS.has(word)) continue;
    // With `by` after it, "order" sorts: "order the warnings by severity" reads.
    if (word === 'order' && words.indexOf('by', at + 1) > at) continue;
    const before = words[at - 1];
    const after = words[at + 1];
    const command =
      before === undefined || BEFORE_COMMAND.has(before) || (before === 'to' && BEFORE_TO.has(words[at - 2] as string));
    if (!command || after === undefined || (DELIVER.has(word) && RECEIVER.has(after))) continue;
    if (AFTER_COMMAND.has(after) || /\d/.test(after)) return word;
  }
  return undefined;
}
