// Verbs that read as often as they act (stake, withdraw, cast, renew...) ask to DO something when
// their object is the requester's own, when it is done "for me", or when said by someone who wants
// to do it; and commands in Italian, Dutch and Portuguese (intent.ts). On a fixture catalog of
// read-only staking figures and a carrier whose `topPlans` reads and `topUpPhone` writes.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionVerb } from '../../src/discovery/intent.js';
import { useFixtureIndex } from './fixture-index.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'discovery-intent', 'schemas');

describe('actionVerb and the requester’s own things', () => {
  it('reads a verb that reads as often as a command before my or our, or with "for me"', () => {
    expect(actionVerb('stake my ETH with Lido')).toBe('stake');
    expect(actionVerb('withdraw my USDC from Aave')).toBe('withdraw');
    expect(actionVerb('cast my vote in proposal 842')).toBe('cast');
    expect(actionVerb('renew my borrowed books')).toBe('renew');
    expect(actionVerb('stake 10 ETH with lido for me')).toBe('stake');
    expect(actionVerb('I want to stake 5 ETH')).toBe('stake');
    expect(actionVerb('withdraw 100 USDC from Aave')).toBe('withdraw');
  });

  it('leaves the same verbs reading: as nouns, in questions, before another object', () => {
    expect(actionVerb('stake pools on cardano')).toBeUndefined();
    expect(actionVerb('list my NFTs')).toBeUndefined();
    expect(actionVerb('withdrawal queue of the beacon chain')).toBeUndefined();
    expect(actionVerb('can I renew my ID card online')).toBeUndefined();
    expect(actionVerb('top holders of LYX')).toBeUndefined();
    expect(actionVerb('how did my MP vote on Brexit')).toBeUndefined();
    expect(actionVerb('fetch the file behind this CID')).toBeUndefined();
    // A token's mint address, not an amount.
    expect(actionVerb('mint 7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU price')).toBeUndefined();
    expect(actionVerb("j'ai envie de sushi à Paris")).toBeUndefined();
    expect(actionVerb('I need to list the validators')).toBeUndefined();
    // Asking where or which: what there is to choose from reads.
    expect(actionVerb('stake my ETH: which validator pays most')).toBeUndefined();
    expect(actionVerb('I want to deposit 1 ETH, where is the best APY')).toBeUndefined();
  });

  it('reads mint, upvote, file, a vote cast, top up and sign up as commands, and "all" as a command’s object', () => {
    expect(actionVerb('vote on proposal 12 of uniswap')).toBe('vote');
    expect(actionVerb('top up my phone')).toBe('top up');
    expect(actionVerb('please sign up for the newsletter')).toBe('sign up');
    expect(actionVerb('file a patent for my invention')).toBe('file');
    expect(actionVerb('mint an NFT from my cat photo')).toBe('mint');
    expect(actionVerb('upvote this post on hacker news')).toBe('upvote');
    expect(actionVerb('vote yes on the latest proposal')).toBe('vote');
    expect(actionVerb('delete all my tweets from 2015')).toBe('delete');
  });

  it('reads Italian, Dutch and Portuguese commands, and a German one to cancel a contract', () => {
    expect(actionVerb('invia una email al mio capo')).toBe('send');
    expect(actionVerb('prenota un tavolo per due')).toBe('book');
    expect(actionVerb('verstuur een bericht naar Anna')).toBe('send');
    expect(actionVerb('annuleer mijn abonnement')).toBe('cancel');
    expect(actionVerb('traduza este texto para inglês')).toBe('translate');
    expect(actionVerb('Kündige meinen Handyvertrag')).toBe('cancel');
  });
});

describe('ToolIndex and a request to do something with the requester’s own', () => {
  const { top } = useFixtureIndex(SCHEMAS);

  it('answers none when only read-only tools share the words', () => {
    expect(top('stake my ETH with Lido')).toEqual([]);
    expect(top('withdraw my ETH from the validator')).toEqual([]);
  });

  it('still answers the same words asked as a question', () => {
    expect(top('staking rewards of Lido validators')[0]).toBe('stakes_getStakingRewards');
  });

  it('answers "top up my phone" with the route named for both words, not one named top', () => {
    expect(top('top up my phone with 20 euros')).toEqual(['mobile_topUpPhone']);
    expect(top('top phone plans by price')[0]).toBe('mobile_topPlans');
  });
});
