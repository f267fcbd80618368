// When a request is about is an argument, not what it asks for (time-arguments.ts): the "none"
// rule leaves `this week`, `last month`, `next weekend` out, so a tool that says `week` or `last`
// for its own reasons (a 52-week high, the last update) does not answer a request about
// something else. On a fixture catalog of one stock quote.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { timeArguments } from '../../src/discovery/time-arguments.js';
import { useFixtureIndex } from './fixture-index.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'discovery-times', 'schemas');

describe('timeArguments', () => {
  it('reads a span after last, next, this or their German, Spanish, Italian, Dutch word, and before French dernier', () => {
    expect([...timeArguments('how much did I spend on groceries last month')].sort()).toEqual(['last', 'month']);
    expect([...timeArguments('hotel prices in Rome next weekend')].sort()).toEqual(['next', 'weekend']);
    expect([...timeArguments('horoscope for Leo this week')]).toEqual(['week']);
    expect([...timeArguments('Pegelstand letzte Woche')]).toEqual(['woche']);
    expect([...timeArguments('la semaine dernière à Paris')]).toContain('week');
  });

  it('leaves a span that is what is wanted or part of it', () => {
    expect(timeArguments('long weekends in Germany').size).toBe(0);
    expect(timeArguments('astronomy picture of the day').size).toBe(0);
    expect(timeArguments('4 hour candles for bitcoin').size).toBe(0);
    expect(timeArguments('the last block on ethereum').size).toBe(0);
  });
});

describe('ToolIndex and a request’s time', () => {
  const { top } = useFixtureIndex(SCHEMAS);

  it('answers none when the best tool shares only the words of when the request is about', () => {
    expect(top('horoscope for Leo this week')).toEqual([]);
    expect(top('how much did I spend on groceries last month')).toEqual([]);
  });

  it('still answers a request about the tool’s own words', () => {
    expect(top('52 week high of AAPL')).toEqual(['quotes_getQuote']);
    expect(top('stock quote for AAPL this week')).toEqual(['quotes_getQuote']);
  });
});
