// Names typed in lower case (words.ts `afterPreposition`, coverage.ts): a word no tool has where
// an argument goes (in a run of at most three words, no filler between, after a preposition or
// holding a number or an acronym) is a value, as a capitalised one is, and does not count against
// the best tool in the "none" rule; elsewhere, or after a possessive, it still does. On the fixture of weather tools that take no words, with every
// counted word required (minCoverage 1), so that one word counted decides.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requestWords } from '../../src/discovery/words.js';
import { useFixtureIndex } from './fixture-index.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'discovery-topics', 'schemas');

describe('words where an argument goes', () => {
  const marked = (request: string) =>
    requestWords(request)
      .flat()
      .filter((entry) => entry.afterPreposition === true)
      .map((entry) => entry.term);

  it('marks the first word after a preposition, an article between, in each language of the tables', () => {
    expect(marked('breweries in the portland area')).toEqual(['portland']);
    expect(marked('Wetter bei köln')).toEqual(['koln']);
    expect(marked('quel temps à lyon')).toEqual(['lyon']);
    expect(marked('luchtkwaliteit bij utrecht')).toEqual(['utrecht']);
  });

  it('not after a possessive, `to`, or an English `a`', () => {
    expect(marked('post this update on my linkedin')).toEqual([]);
    expect(marked('an uber to downtown')).toEqual([]);
    expect(marked('find a plumber')).toEqual([]);
  });
});

describe('the "none" rule and names typed in lower case', () => {
  const { top: names } = useFixtureIndex(SCHEMAS, { minCoverage: 1 });

  it('leaves out words no tool has after a preposition and next to them, as it does capitalised ones', () => {
    expect(names('weather outlook for Portland Oregon')[0]).toBe('skydesk_getOutlook');
    expect(names('weather outlook for portland oregon')[0]).toBe('skydesk_getOutlook');
    expect(names('sunrise times at the seattle waterfront')[0]).toBe('skydesk_getSunrise');
  });

  it('leaves out words no tool has next to a number', () => {
    expect(names('weather outlook 2026 seattle')[0]).toBe('skydesk_getOutlook');
  });

  it('still counts them elsewhere, after a possessive, across a filler word, and a word some tool has', () => {
    expect(names('weather outlook seattle')).toEqual([]);
    expect(names('weather outlook on my seattle')).toEqual([]);
    expect(names('sunrise seattle at 2026')).toEqual([]);
    // sunset is another tool's word: no name, it still counts against the outlook.
    expect(names('weather outlook for sunset')).toEqual([]);
  });
});
