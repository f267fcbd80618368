// A count with its noun: the singular for exactly one, the plural for none and for more.

import { describe, expect, it } from 'vitest';
import { plural } from '../../src/shared/plural.js';

describe('plural', () => {
  it('says 0 and 2 with the plural, 1 with the singular', () => {
    expect([0, 1, 2].map((n) => plural(n, 'tool'))).toEqual(['0 tools', '1 tool', '2 tools']);
  });

  it('puts the s on the last word of a phrase', () => {
    expect([0, 1, 2].map((n) => plural(n, 'more key'))).toEqual(['0 more keys', '1 more key', '2 more keys']);
  });
});
