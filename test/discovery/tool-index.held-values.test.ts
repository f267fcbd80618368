// A request that holds a value of a kind only some tools take (src/discovery/held-values.ts)
// against a tool that takes none: on fixtures of clinics near a point beside a search by name, and
// a profile by its address beside the most viewed profiles, each said in more of the request's words;
// and every brewery at once beside the breweries of a city, for a request that holds a name.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdsCoordinates } from '../../src/discovery/held-values.js';
import { useFixtureIndex } from './fixture-index.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'discovery-held-values', 'schemas');

describe('a request that holds coordinates', () => {
  const { top } = useFixtureIndex(SCHEMAS);

  it('is answered first by a tool that takes a latitude and a longitude', () => {
    expect(top('nearest clinic to 50.94, 6.96')[0]).toBe('clinics_getClinicsNearby');
    expect(top('nearest clinic to 50.94,6.96')[0]).toBe('clinics_getClinicsNearby');
  });

  it('leaves the ranking alone without them', () => {
    expect(top('nearest clinic in Cologne')[0]).toBe('clinics_searchClinics');
  });
});

describe('a request that holds an EVM address', () => {
  const { top } = useFixtureIndex(SCHEMAS);

  it('is answered first by a tool that takes an address', () => {
    expect(top('universal profile of 0x0f4180da178ed1c71398a57ca8cb177f69591f1f')[0]).toBe(
      'profiles_getProfileByAddress',
    );
  });

  it('leaves the ranking alone without one, or with a transaction hash', () => {
    expect(top('universal profile')[0]).toBe('profiles_getHotProfiles');
    expect(top('universal profile of 0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060')[0]).toBe(
      'profiles_getHotProfiles',
    );
  });
});

describe('coordinates in a request', () => {
  it('are two numbers side by side, one with a fraction, in range, not in a longer list', () => {
    expect(holdsCoordinates("what's at 48.8584, 2.2945")).toBe(true);
    expect(holdsCoordinates('who represents 38.58, -121.49')).toBe(true);
    expect(holdsCoordinates('weather at 52.52,13.40')).toBe(true);
    expect(holdsCoordinates('1.5 ETH in wei')).toBe(false);
    expect(holdsCoordinates('blocks 19000000 and 19000500')).toBe(false);
    expect(holdsCoordinates('moving average of 5.5, 6.1, 7.2, 8.0')).toBe(false);
    expect(holdsCoordinates('point 95.1, 200.3')).toBe(false);
  });
});

describe('a request that holds any value', () => {
  // Every brewery at once (a limit is all it takes, and it says more of the request's words) beside the breweries of a city.
  const { top } = useFixtureIndex(join(import.meta.dirname, '..', 'fixtures', 'discovery-arguments', 'schemas'));

  it('is answered first by a tool that takes a text from its caller, not only a number: a name, or a word after a preposition', () => {
    expect(top('breweries in Portland')[0]).toBe('breweries_getBreweriesByCity');
    expect(top('breweries in portland')[0]).toBe('breweries_getBreweriesByCity');
    expect(top('Portland breweries')[0]).toBe('breweries_getBreweriesByCity');
  });

  it('leaves a tool that takes nothing first for a request that holds nothing', () => {
    expect(top('all breweries')[0]).toBe('breweries_getAllBreweries');
    expect(top('list every brewery')[0]).toBe('breweries_getAllBreweries');
  });
});
