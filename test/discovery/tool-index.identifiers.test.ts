// A provider's tool that needs an identifier (src/discovery/identifiers.ts) against its list, on a
// fixture of a DAO's proposals: one by its required proposal_id, and the list of a space.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFixtureIndex } from './fixture-index.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'discovery-topics', 'schemas');

describe('a tool that needs an identifier the request does not hold', () => {
  const { top } = useFixtureIndex(SCHEMAS);

  it('ranks below the list of its own provider when the two score close', () => {
    expect(top('open governance proposals of the uniswap dao').slice(0, 2)).toEqual([
      'votedesk_listProposals',
      'votedesk_getProposal',
    ]);
    expect(top('governance proposals')[0]).toBe('votedesk_listProposals');
  });

  it('keeps its place when the request holds an identifier, says its word, or asks for what only it gives', () => {
    expect(top('votes on governance proposal 0x3f2a')[0]).toBe('votedesk_getProposal');
    expect(top('votes of a proposal by its id')[0]).toBe('votedesk_getProposal');
    expect(top('state and author of a governance proposal')[0]).toBe('votedesk_getProposal');
  });
});
