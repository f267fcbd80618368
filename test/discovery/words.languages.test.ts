// Requests in French, Spanish, Italian, Dutch and Portuguese (word-tables-languages.ts, through
// words.ts `term` on both sides): their function words dropped, their words for what catalogs
// offer read as the tools' English word; a German compound still read from German words only.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { term, terms } from '../../src/discovery/words.js';
import { useFixtureIndex } from './fixture-index.js';

describe('the other languages of the tables', () => {
  it.each([
    ['terremoti', ['earthquake']],
    ['feestdag', ['holiday']],
    ['luchtkwaliteit', ['air', 'quality']],
    ['recetas', ['recipe']],
    ['Previsioni', ['forecast']],
    ['ziekenhuizen', ['hospital']],
    ['museu', ['museum']],
    ['wisselkoers', ['exchange', 'rate']],
  ])('%s → %j', (word, expected) => {
    expect(term(word)).toEqual(expected);
  });

  it('drops their function words', () => {
    expect(terms('wanneer is de volgende feestdag')).toEqual(['de', 'next', 'holiday']);
    expect(terms('quali sono le notizie di oggi')).toEqual(['news']);
    expect(terms('quantos habitantes tem o Brasil')).toEqual(['population', 'brasil']);
    // Their prepositions too: a preposition no tool has must not count against a tool.
    expect(terms('vuelos desde Madrid hasta Roma')).toEqual(['flight', 'madrid', 'roma']);
    expect(terms('musea nabij Utrecht')).toEqual(['museum', 'utrecht']);
  });

  it('reads a German compound from German words only', () => {
    // lei is Portuguese for law; Leipzig is a city, not a law.
    expect(term('Leipzig')).toEqual(['leipzig']);
  });
});

describe('ranking requests in those languages', () => {
  const { top } = useFixtureIndex(join(import.meta.dirname, '..', 'fixtures', 'discovery-topics', 'schemas'));

  it('finds the tool an English request finds', () => {
    expect(top('Quel temps fait-il à Lyon ?')[0]).toBe(top('weather in Lyon')[0]);
    expect(top('che tempo fa a Roma')[0]).toBe(top('weather in Rome')[0]);
    expect(top('weer in Utrecht')).not.toEqual([]);
  });
});
