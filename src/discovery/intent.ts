// Whether a request asks to DO something (send, buy, book, delete...) rather than to read: a
// catalog's read-only tools cannot answer it, however many of its words they share ("send 0.1 ETH
// to my friend" is not answered by an address's history). Read from the request's words alone, so
// it holds for any catalog: an English verb of the list as a command (the request's first word, or
// after "please", "can you", "want to", "help me", and before an article, a pronoun, a number or
// "new": "book a hotel", not "book reviews"; "order an Uber", not "order book"), a verb that reads
// as often only before the requester's own ("stake my ETH", not "stake pools"), or an infinitive
// or a command of the German, French, Spanish, Italian, Dutch or Portuguese list anywhere (none is
// a noun: "Termin buchen"). "Send me the news" asks to be told: a verb of delivery followed by "me"
// or "us" reads.

import { fold, splitWords } from './words.js';

/**
 * English verbs that ask a service to change something, in their base (imperative) form. Not those
 * that read as often (call a contract, update me, turn or convert a value, apply for a job: stake,
 * withdraw, rent and the like are commands only in the forms of OWN_ACTIONS) nor those a read-only
 * tool answers with a quote or a transaction to sign (swap, bridge).
 */
const ENGLISH_ACTIONS = new Set(
  (
    'send transfer buy purchase order book reserve create delete remove post publish translate write pay cancel ' +
    'schedule set reset upload edit submit sign deploy install subscribe unsubscribe email text message share ' +
    'rename register add move sell vote tweet invite play save mint upvote downvote retweet unstake file'
  ).split(' '),
);

/**
 * Verbs that read as often as they act (`stake pools`, `withdraw fees`, `stream statistics`, `the
 * claim`, `rent a bike`: the stations that have one): a command only when its object is the
 * requester's own (`stake my ETH`, `withdraw my USDC`, `cast my vote`) or an amount (`withdraw 100
 * USDC`), when it is done "for me" (`stake 10 ETH with Lido for me`), or when said by someone who
 * wants to do it (`I want to stake the ETH`). Not those a read-only tool answers for the
 * requester's own too: list (`list my NFTs` reads them), convert, swap and bridge (a quote), track
 * (a parcel's status), charge or run (where, when).
 */
const OWN_ACTIONS = new Set(
  'stake withdraw deposit claim redeem renew cast delegate undelegate lend borrow rent stream refund'.split(' '),
);
const OWN = new Set(['my', 'our']);
/** A token this long after the verb is an address or a hash, not an amount. */
const IDENTIFIER_LENGTH = 20;

/**
 * Verbs that are commands before these words, whatever follows: a vote cast (`vote yes on`, `vote
 * for`), `top up` (not `top holders`), `sign up`. With `up` the two words are the verb, as a
 * route names it (`topUpPhone`, not `topTraders`).
 */
const COMMAND_PARTICLES = new Map<string, ReadonlySet<string>>([
  ['vote', new Set(['yes', 'no', 'on', 'for', 'against'])],
  ['top', new Set(['up'])],
  ['sign', new Set(['up'])],
]);

/**
 * German, French, Spanish, Italian, Dutch and Portuguese infinitives of the same, and their
 * commands where those are no noun (folded: `überweise`, `envoyez`, `envíame`), each with the
 * English verb a tool's route name and description would say: the catalogs name their routes in
 * English (`sendMessage`, `translateText`).
 */
const FOREIGN_ACTIONS = new Map<string, string>(
  Object.entries({
    // German, French, Spanish; Italian, Dutch, Portuguese (leaving out a command that is another
    // word as well: Italian `compra`, `paga`, `pubblica`; Dutch `boek`, `koop`, `stuur`; Spanish
    // `reserva`; Portuguese `envie`, `publique`: French for a wish and public).
    send:
      'senden schicken sende schicke verschicken verschicke envoyer envoie envoyez enviar mandar enviame mandame envia ' +
      'inviare invia mandare manda sturen versturen verstuur',
    transfer: 'uberweisen uberweise transferer transferir trasferire trasferisci overmaken transfira',
    buy: 'kaufen kaufe acheter achete achetez comprar comprame comprare acquistare acquista kopen compre',
    order: 'bestellen bestelle commander commandez bestel',
    book: 'buchen prenotare prenota boeken',
    reserve: 'reservieren reserviere reserver reservez reservar reservame reserveren reserveer',
    create: 'erstellen anlegen erstelle creer creez crear',
    delete:
      'loschen losche supprimer supprimez borrar eliminar eliminare elimina verwijderen verwijder excluir exclua apagar apague',
    publish: 'veroffentlichen publier publicar pubblicare publiceren',
    translate:
      'ubersetzen ubersetze traduire traduis traduisez traducir traduceme tradurre traduci vertalen vertaal traduzir traduza',
    write:
      'schreiben schreibe ecrire ecris ecrivez escribir escribeme scrivere scrivi schrijven schrijf escrever escreva',
    pay: 'bezahlen bezahle payer payez pagar pagare betalen betaal pague',
    cancel:
      'stornieren storniere kundigen kundige annuler annulez cancelar cancela annullare annulla cancellare cancella annuleren annuleer cancele',
    upload: 'hochladen caricare uploaden',
    sell: 'verkaufen vendre vender vendere vendi verkopen',
    subscribe: 'abonnieren',
    unsubscribe: 'abbestellen',
  }).flatMap(([english, words]) => words.split(' ').map((word) => [word, english] as const)),
);

/** Words after which a verb is a command: "please send", "can you send", "help me send", "let's send" (`s`), "wanna send". */
const BEFORE_COMMAND = new Set(['please', 'pls', 'plz', 'you', 'me', 'us', 's', 'wanna']);
/** Words before `to` that make the verb after it a command: "I want to send", "I'd like to book", "I need to pay". */
const BEFORE_TO = new Set(['want', 'like', 'need', 'have', 'wish']);

/** Words that follow a verb used as a command: its object's article or pronoun, "new" or "all" (a number too). */
const AFTER_COMMAND = new Set(
  'a an the my me our your his her their this that these those some new another all it them us him one two three'.split(
    ' ',
  ),
);

/** Verbs that, followed by "me" or "us", ask to be told something: "send me the latest news" reads. */
const DELIVER = new Set(['send', 'email', 'text', 'message', 'share', 'post']);
const RECEIVER = new Set(['me', 'us']);

/** The action verb (English, folded; two words for `top up`) of a request that asks to do something, or undefined for one that asks to read. */
export function actionVerb(text: string): string | undefined {
  const words = splitWords(text).map(fold);
  for (let at = 0; at < words.length; at += 1) {
    const word = words[at] as string;
    const foreign = FOREIGN_ACTIONS.get(word);
    if (foreign !== undefined) return foreign;
    const own = OWN_ACTIONS.has(word);
    const particles = COMMAND_PARTICLES.get(word);
    if (!ENGLISH_ACTIONS.has(word) && !own && particles === undefined) continue;
    // With `by` after it, "order" sorts: "order the warnings by severity" reads.
    if (word === 'order' && words.indexOf('by', at + 1) > at) continue;
    const before = words[at - 1];
    const after = words[at + 1];
    const wanted = before === 'to' && BEFORE_TO.has(words[at - 2] as string);
    const command = before === undefined || BEFORE_COMMAND.has(before) || (wanted && !planAfterQuestion(text, word));
    if (!command || after === undefined || (DELIVER.has(word) && RECEIVER.has(after))) continue;
    if (particles?.has(after) === true) return after === 'up' ? `${word} up` : word;
    // An amount, not an identifier (`mint 7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU` reads a token by its mint).
    const amount = /\d/.test(after) && !identifierAfter(text, word);
    const object = AFTER_COMMAND.has(after) || amount;
    if (own) {
      if ((OWN.has(after) || amount || forMe(words, at) || (wanted && object)) && !askedAfter(words, at)) return word;
    } else if (object && ENGLISH_ACTIONS.has(word)) return word;
  }
  return undefined;
}

/** Whether the request's text has the verb followed by an address or a hash (a token of IDENTIFIER_LENGTH letters and digits or more). */
function identifierAfter(text: string, verb: string): boolean {
  return new RegExp(`(?:^|\\s)${verb}\\s+[\\p{L}\\p{N}]{${IDENTIFIER_LENGTH},}`, 'iu').test(text);
}

/**
 * Whether the request asks a question and then says what the requester wants to do (`is gas cheap
 * at the moment? want to move some tokens`): the question is the request, the wish its reason.
 */
function planAfterQuestion(text: string, verb: string): boolean {
  const asked = text.indexOf('?');
  if (asked < 0) return false;
  const wish = new RegExp(`(?:${[...BEFORE_TO].join('|')})\\s+to\\s+${verb}(?![\\p{L}])`, 'iu').exec(text.slice(asked));
  return wish !== null;
}

/** Question words: after a verb that reads as often, the request asks where or how to do it (`stake my ETH: which validator pays most`). */
const QUESTION = new Set(['where', 'which', 'what', 'how', 'who', 'whether']);

/** Whether a question word comes after the verb at `at`. */
function askedAfter(words: readonly string[], at: number): boolean {
  return words.slice(at + 1).some((word) => QUESTION.has(word));
}

/** Whether "for me" or "for us" comes after the verb at `at`: it is to be done on the requester's behalf. */
function forMe(words: readonly string[], at: number): boolean {
  for (let next = at + 1; next + 1 < words.length; next += 1)
    if (words[next] === 'for' && RECEIVER.has(words[next + 1] as string)) return true;
  return false;
}
