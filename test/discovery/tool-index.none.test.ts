// The "none" rule's measure (src/discovery/coverage.ts), through ToolIndex, on a fixture of a
// paper search that takes the words to look for, paper counts and weather tools that take none:
// a topic of several words no tool has is what a search is given, not evidence that no tool fits;
// a number is an argument.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFixtureIndex } from './fixture-index.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'discovery-topics', 'schemas');

describe('the "none" rule and words no tool has', () => {
  const { top } = useFixtureIndex(SCHEMAS);

  it('counts neighbouring words the best tool lacks as one topic when the tool takes text to search for', () => {
    // graph, neural, network, pruning: four words no tool has, one topic handed to the search.
    expect(top('papers on graph neural network pruning')[0]).toBe('paperdesk_searchPapers');
    expect(top('research papers on long covid fatigue')[0]).toBe('paperdesk_searchPapers');
  });

  it('still counts them one by one against a tool that takes no text', () => {
    // The counts take no words: they cannot be asked about the topic, and the rule still says none.
    expect(top('paper counts per year on graph neural network pruning')).toEqual([]);
    // Words apart (a filler word between) are not one topic.
    expect(top('papers on graph and neural and network and pruning')).toEqual([]);
  });
});

describe('the "none" rule and numbers', () => {
  // Every counted word must be matched: a number another tool's text has must not count against the best.
  const { top: names } = useFixtureIndex(SCHEMAS, { minCoverage: 1 });

  it('does not count a number the best tool does not have, though another tool has it (30, 2020)', () => {
    expect(names('sunrise times for 30 June 2020')[0]).toBe('skydesk_getSunrise');
    // A word is still counted: `moon` is no number.
    expect(names('sunrise times for 30 June 2020 moon')).toEqual([]);
  });
});

describe('the "none" rule and a name only some tool lists among its parameters', () => {
  const { top } = useFixtureIndex(join(import.meta.dirname, '..', 'fixtures', 'discovery-asides', 'schemas'), {
    minCoverage: 1,
  });

  it('does not count a name another tool has only as a choice of its parameters, after a preposition', () => {
    // `california` is one of the bills' states: a value to pass, as a name no tool has would be.
    expect(top('opinion polls in california')[0]).toBe('pollsdesk_getPolls');
    // A word another tool says in what it does still counts.
    expect(top('opinion polls in legislature')).toEqual([]);
  });
});

describe('the "none" rule and a name the best tool says in a longer form', () => {
  const { top } = useFixtureIndex(join(import.meta.dirname, '..', 'fixtures', 'discovery-asides', 'schemas'));

  it('counts a name no tool has as covered where the tool says a longer form of it (its plural)', () => {
    // `Zwangsversteigerung` is no tool's term, `zwangsversteigerungen` the auctions' own word.
    expect(top('Zwangsversteigerung Wohnung München')[0]).toBe('auctiondesk_searchZwangsversteigerungen');
  });
});
