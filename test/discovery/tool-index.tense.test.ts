// A request that says when it is about (src/discovery/tense.ts) against a tool whose route name
// says another time, on fixtures of a mood index (its history said in more of the request's words
// than its latest value), the weather (now, in more words than the weather of any day) and rocket
// launches (every one, in more words than the upcoming ones).

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requestTenses } from '../../src/discovery/tense.js';
import { useFixtureIndex } from './fixture-index.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'discovery-tense', 'schemas');

describe('a request that says when', () => {
  const { top } = useFixtureIndex(SCHEMAS);

  it('is answered first by the tool that says its time or none', () => {
    expect(top('is the crypto market greedy or fearful today')[0]).toBe('moodmeter_getMoodLatest');
    expect(top('weather in Cologne tomorrow, temperature and rain')[0]).toBe('skycast_getWeather');
    expect(top('Wetter morgen in Köln')[0]).toBe('skycast_getWeather');
  });

  it('leaves the ranking alone when it says the tool’s time or none', () => {
    expect(top('how the crypto market mood changed, greedy or fearful, over the past month')[0]).toBe(
      'moodmeter_getMoodHistorical',
    );
    expect(top('is the crypto market greedy or fearful')[0]).toBe('moodmeter_getMoodHistorical');
    expect(top('weather in Cologne right now, temperature and rain')[0]).toBe('skycast_getCurrentWeather');
  });
});

describe('a route name that says the time a request asks for', () => {
  const { top } = useFixtureIndex(SCHEMAS);

  it('comes before one that says no time', () => {
    expect(top('next rocket launch')[0]).toBe('rockets_getUpcomingLaunches');
    expect(top('rocket launches next week')[0]).toBe('rockets_getUpcomingLaunches');
  });

  it('does not when the request says no time, or another', () => {
    expect(top('rocket launches')[0]).toBe('rockets_getAllLaunches');
    expect(top('rocket launch history')[0]).toBe('rockets_getAllLaunches');
  });
});

describe('the time a request says', () => {
  it('reads `last` as the past only before a span', () => {
    expect([...requestTenses('gas prices over the last 30 days')]).toEqual(['past']);
    expect([...requestTenses('the last block on ethereum')]).toEqual([]);
    expect([...requestTenses('¿qué tiempo hará mañana?')]).toEqual(['future']);
    expect([...requestTenses('cafes next to the station')]).toEqual([]);
    expect([...requestTenses('the next train to Hamburg')]).toEqual(['future']);
  });
});
