// A request that names its chain (src/discovery/chains.ts) against a tool made for another chain,
// on a fixture of two swap quotes: one across Solana's DEXes, said in more of the request's
// words, and one for the EVM chain its caller picks from a list.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chainsNamed } from '../../src/discovery/chains.js';
import { useFixtureIndex } from './fixture-index.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'discovery-chains', 'schemas');

describe('a request that names its chain', () => {
  const { top } = useFixtureIndex(SCHEMAS);

  it('is answered before by a tool that lists the chain than by one made for another', () => {
    expect(top('best route to swap 1000 USDC into DAI on polygon')[0]).toBe('evmswap_getQuote');
    expect(top('swap route for USDC on arbitrum')[0]).toBe('evmswap_getQuote');
  });

  it('names the chain by its own coin, written as a symbol', () => {
    expect(top('best route to swap 10 ETH into USDC')[0]).toBe('evmswap_getQuote');
    expect(top('best route to swap 10 SOL into USDC')[0]).toBe('solswap_getSwapQuote');
  });

  it('leaves the ranking alone when it names the tool’s chain or none', () => {
    expect(top('best route to swap 1000 USDC into DAI on solana')[0]).toBe('solswap_getSwapQuote');
    expect(top('best route to swap 1000 USDC into DAI')[0]).toBe('solswap_getSwapQuote');
  });
});

describe('the chains a text names', () => {
  it('reads a word that means something else only where it names a chain', () => {
    expect([...chainsNamed('block height on base')]).toEqual(['base']);
    expect([...chainsNamed('the base currency of a pair')]).toEqual([]);
    expect([...chainsNamed('pools on Ethereum, Base and Arbitrum')].sort()).toEqual(['arbitrum', 'base', 'ethereum']);
  });
});
