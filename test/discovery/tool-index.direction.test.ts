// A request that turns one thing into another (src/discovery/direction.ts) against a tool that
// converts the other way: on a fixture of two temperature conversions that share every word, the
// one from celsius first (a tie keeps it first).

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { directionsIn } from '../../src/discovery/direction.js';
import { useFixtureIndex } from './fixture-index.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'discovery-direction', 'schemas');

describe('a request that says which way', () => {
  const { top } = useFixtureIndex(SCHEMAS);

  it('is answered first by the tool that converts that way: to, into, in, an arrow', () => {
    expect(top('convert 212 fahrenheit to celsius')[0]).toBe('temperatures_fahrenheitToCelsius');
    expect(top('212 fahrenheit in celsius')[0]).toBe('temperatures_fahrenheitToCelsius');
    expect(top('fahrenheit -> celsius')[0]).toBe('temperatures_fahrenheitToCelsius');
    expect(top('turn fahrenheit into celsius')[0]).toBe('temperatures_fahrenheitToCelsius');
    expect(top('celsius to fahrenheit')[0]).toBe('temperatures_celsiusToFahrenheit');
  });

  it('leaves the ranking alone when it says no way', () => {
    expect(top('fahrenheit celsius')[0]).toBe('temperatures_celsiusToFahrenheit');
  });
});

describe('the directions a text says', () => {
  const read = (text: string, connectors: string[]) =>
    directionsIn(text, new Set(connectors)).map(({ from, to }) => [[...from], [...to]]);

  it('are the words either side of a connector, within a clause', () => {
    expect(read('Format a wei value to ether. Shorthand for formatUnits.', ['to'])).toEqual([
      [['wei', 'value'], ['ethereum']],
    ]);
    expect(read('vitalik.eth -> address', ['to'])).toEqual([[['vitalik', 'ethereum'], ['address']]]);
    expect(read('Returns the balance; to see more, page on', ['to'])).toEqual([]);
    expect(read('hospitals in Dresden', ['in'])).toEqual([[['hospital'], ['dresden']]]);
  });
});
