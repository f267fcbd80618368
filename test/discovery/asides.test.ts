// What a request says beside what it wants (asides.ts) does not count against a tool in the
// "none" rule: casual words (`rn`, `lately`, `everyone`) and the pieces of an identifier it holds
// (a DOI's `radar`, an address's `Fa`). On the fixture of weather tools, with every counted word
// required (minCoverage 1) so that one word counted against the tool says none.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { casualTerms, identifierTerms } from '../../src/discovery/asides.js';
import { useFixtureIndex } from './fixture-index.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'discovery-topics', 'schemas');

describe('casualTerms and identifierTerms', () => {
  it('reads the casual words of a request, not its need', () => {
    expect([...casualTerms('which coins is everyone searching for rn')].length).toBe(2);
    expect([...casualTerms('how tall is the tower')]).toEqual([]);
    // The particles of other languages' speech too.
    expect(casualTerms('wie hoch ist eigentlich die Inflation')).toEqual(new Set(['eigentlich']));
    // A name in camelCase (a hook, a unit) is one name: its pieces count only where the tool has them.
    expect(casualTerms('docs for the react useEffect hook')).toEqual(new Set(['use', 'effect']));
    expect(casualTerms('how many kWh a year')).toEqual(new Set(['k', 'wh']));
  });

  it('reads the pieces of an address, a mint and a DOI, less words the request says elsewhere', () => {
    const address = identifierTerms('erc20 transfers of 0x00000000219ab540356cBB839Cbe05303d7705Fa');
    expect(address.has('fa')).toBe(true);
    expect(address.has('transfer')).toBe(false);
    expect(identifierTerms('paper 10.1016/j.cell.2020.02.052').has('cell')).toBe(true);
    expect(identifierTerms('cell paper 10.1016/j.cell.2020.02.052').has('cell')).toBe(false);
    // Short tokens with digits are values of their own (words.ts), not identifiers.
    expect(identifierTerms('erc20 transfers on base 2024')).toEqual(new Set());
  });
});

describe('the "none" rule and what a request says beside its need', () => {
  const { top } = useFixtureIndex(SCHEMAS, { minCoverage: 1 });

  it('does not count a casual word the best tool lacks', () => {
    expect(top('sunrise times rn')[0]).toBe('skydesk_getSunrise');
    expect(top('sunrise times lately, everyone')[0]).toBe('skydesk_getSunrise');
    // A piece of a camelCase name is no word of what is wanted either.
    expect(top('sunrise times for myRadar')[0]).toBe('skydesk_getSunrise');
    // A word of what is wanted still counts.
    expect(top('sunrise times moon')).toEqual([]);
  });

  it('does not count the pieces of a held identifier, though another tool has the word', () => {
    // `radar` is another tool's word: in the DOI it asks for no radar.
    expect(top('sunrise times for 10.1016/j.radar.2020.02.052')[0]).toBe('skydesk_getSunrise');
    expect(top('sunrise times for radar')).toEqual([]);
  });
});
