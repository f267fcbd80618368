// A request that holds coordinates (src/discovery/coordinates.ts) against a tool that takes none,
// on a fixture of clinics near a point and a search by name said in more of the request's words.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdsCoordinates } from '../../src/discovery/coordinates.js';
import { useFixtureIndex } from './fixture-index.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'discovery-coordinates', 'schemas');

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
