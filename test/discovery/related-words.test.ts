// Other words for the same thing and phrases for one thing (related-words.ts), on a fixture of
// tools that name things otherwise than people ask: an avatar, TVL, jobs beside lending positions.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { phrases, relatedTerms } from '../../src/discovery/related-words.js';
import { fold, splitWords } from '../../src/discovery/words.js';
import { useFixtureIndex } from './fixture-index.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'discovery-words', 'schemas');

describe('related words and phrases', () => {
  it("relates a term to its group's other terms, as the index has them (picture is the table's image)", () => {
    expect(relatedTerms('image')).toEqual(expect.arrayContaining(['avatar', 'logo']));
    expect(relatedTerms('avatar')).toContain('image');
    expect(relatedTerms('job')).toEqual(expect.arrayContaining(['position', 'career']));
    expect(relatedTerms('image')).not.toContain('image');
    expect(relatedTerms('gas')).toEqual([]);
  });

  it('finds the phrases a request spells and the places of their words', () => {
    const found = phrases(splitWords('Total Value Locked of aave and its profile picture').map(fold));
    expect(found.terms).toEqual(['tvl', 'avatar']);
    expect([...found.used]).toEqual([0, 1, 2, 7, 8]);
  });
});

describe('ToolIndex and words the tools say otherwise', () => {
  const { top } = useFixtureIndex(SCHEMAS);

  it('finds a tool by a phrase for its one word', () => {
    expect(top('total value locked in aave')[0]).toBe('namebook_getProtocolTvl');
    expect(top('profile picture of an ENS name')[0]).toBe('namebook_getAvatar');
    expect(top('open positions at Siemens')[0]).toBe('namebook_searchJobs');
  });

  it('finds a tool by a related word', () => {
    expect(top('logo of a name')[0]).toBe('namebook_getAvatar');
    expect(top('vacancies in Berlin')[0]).toBe('namebook_searchJobs');
  });

  it("ranks a tool that has the request's own word before one that has only a related word", () => {
    expect(top('my open lending positions')[0]).toBe('namebook_getPositions');
  });
});
