// Requests that ask to DO something (intent.ts) are answered only by tools that can: on a fixture
// catalog of a mail API (a read-only history, a search by POST without `meta`, a send that writes)
// and a read-only translator beside an order book.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionVerb } from '../../src/discovery/intent.js';
import { useFixtureIndex } from './fixture-index.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'discovery-words', 'schemas');

describe('actionVerb', () => {
  it('reads an English verb as a command at the start, after please, can you or want to, before its object', () => {
    expect(actionVerb('send an email to my boss')).toBe('send');
    expect(actionVerb('Book a flight from Berlin to Lisbon')).toBe('book');
    expect(actionVerb('can you order me a pizza')).toBe('order');
    expect(actionVerb('I want to transfer 0.1 ETH')).toBe('transfer');
    expect(actionVerb("let's create a new wallet")).toBe('create');
  });

  it('reads a wish said after a question as its reason, not a command', () => {
    expect(actionVerb('is gas cheap at the moment? want to move some tokens on mainnet')).toBeUndefined();
    // A wish alone, or before the question, is still a command.
    expect(actionVerb('I want to move some tokens to my ledger')).toBe('move');
    expect(actionVerb('I want to move some tokens, is gas cheap?')).toBe('move');
  });

  it('leaves the same words as nouns or in questions', () => {
    expect(actionVerb('order book of BTC')).toBeUndefined();
    expect(actionVerb('book reviews by Jane Austen')).toBeUndefined();
    expect(actionVerb('transfer history of USDC')).toBeUndefined();
    expect(actionVerb('emails I sent to my boss')).toBeUndefined();
    expect(actionVerb('hex to text: 0x48656c6c6f')).toBeUndefined();
    expect(actionVerb('who will buy the most')).toBeUndefined();
    // Sent to the one asking: to be told, not to act.
    expect(actionVerb('send me the latest news about bitcoin')).toBeUndefined();
    expect(actionVerb('email me the weather forecast')).toBeUndefined();
    expect(actionVerb('book me a flight to Lisbon')).toBe('book');
    // Ordered by something: sorted, not bought.
    expect(actionVerb('order the weather warnings by severity')).toBeUndefined();
  });

  it('reads a German, French or Spanish infinitive anywhere, as the English verb tools are named with', () => {
    expect(actionVerb('Termin beim Bürgeramt buchen')).toBe('book');
    expect(actionVerb('réserver une table pour deux')).toBe('reserve');
    expect(actionVerb('quiero comprar bitcoin')).toBe('buy');
    expect(actionVerb('Envoyez un courriel à mon patron')).toBe('send');
    expect(actionVerb('Überweise 50 Euro an Anna')).toBe('transfer');
    expect(actionVerb('Wechselkurs Euro Dollar')).toBeUndefined();
  });
});

describe('ToolIndex and a request to do something', () => {
  const { top } = useFixtureIndex(SCHEMAS);

  it('answers with the tool that writes and says it does it, not the read-only ones sharing its words', () => {
    expect(top('send an email to my boss')).toEqual(['mailbox_sendMessage']);
  });

  it('answers none when only read-only tools match, however many words they share', () => {
    expect(top('please buy me a market order')).toEqual([]);
    expect(top('order the book')).toEqual([]);
  });

  it('answers with a read-only tool whose route is named for the action', () => {
    expect(top('translate this paragraph into German')).toEqual(['lingo_translateText']);
  });

  it('ranks as before when the request reads: every matching tool, read-only ones too', () => {
    expect(top('emails I sent to my boss').sort()).toEqual([
      'mailbox_getSentMessages',
      'mailbox_searchMessages',
      'mailbox_sendMessage',
    ]);
    expect(top('order book of BTC')[0]).toBe('lingo_getOrderBook');
  });

  it('answers a request in German or French with the tool that does it in English words', () => {
    expect(top('Schicke eine E-Mail an meinen Chef')[0]).toBe('mailbox_sendMessage');
    expect(top('traduire ce paragraphe en allemand')[0]).toBe('lingo_translateText');
  });
});
