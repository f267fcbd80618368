// A request for the requester's own record (`how many steps did I walk`) is answered only by a
// tool that says what was done (own-record.ts); a tool sharing another word of it answers
// something else. On a fixture catalog of recipe steps and a stock quote.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requesterDoing } from '../../src/discovery/own-record.js';
import { useFixtureIndex } from './fixture-index.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'discovery-times', 'schemas');

describe('requesterDoing', () => {
  it('reads what the requester did after "did I" or "did we"', () => {
    expect(requesterDoing('how many steps did I walk today')).toEqual(['walk']);
    expect(requesterDoing('how much did we spend on groceries')).toEqual(['spend']);
  });

  it('reads nothing in a request that names whose record it is, or that is not about the requester', () => {
    expect(requesterDoing('how much gas did I pay from 0x4838b106fce9647bdf1e7877bf73ce8b0bad5f97')).toEqual([]);
    expect(requesterDoing('how many steps does a carbonara take')).toEqual([]);
    expect(requesterDoing('did I get liquidated')).toEqual([]);
  });
});

describe('ToolIndex and the requester’s own record', () => {
  const { top } = useFixtureIndex(SCHEMAS);

  it('answers none when the best tool does not say what the requester did', () => {
    expect(top('how many steps did I walk today')).toEqual([]);
  });

  it('still answers the shared word asked of the tool’s own thing', () => {
    expect(top('how many steps does a carbonara recipe take')[0]).toBe('recipes_getRecipeSteps');
  });
});
