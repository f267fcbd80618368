// The one line search_tools (and `flowguard search`) shows of a tool's description: its first
// sentence, which an abbreviation's period does not end (a bundled tool read "for a location, e.g.").

import { expect, it } from 'vitest';
import { firstLine } from '../../src/discovery/meta-tools.js';

it('takes the first sentence, past the periods of abbreviations', () => {
  expect(firstLine('One line of plain text for a location, e.g. "Berlin: +12°C". Cached for a minute.')).toBe(
    'One line of plain text for a location, e.g. "Berlin: +12°C".',
  );
  expect(firstLine('Balances (i.e. native coins) of an address. Paginated.')).toBe(
    'Balances (i.e. native coins) of an address.',
  );
  expect(firstLine('Gas prices vs. the base fee! More here.')).toBe('Gas prices vs. the base fee!');
});

it('ends at the first sentence, the first line, or 200 characters', () => {
  expect(firstLine('Current price. In any currency.')).toBe('Current price.');
  expect(firstLine('No period here\nsecond line.')).toBe('No period here');
  expect(firstLine('Version 2.5 of the API answers. Second.')).toBe('Version 2.5 of the API answers.');
  expect(firstLine('x'.repeat(300))).toBe(`${'x'.repeat(199)}…`);
  expect(firstLine('')).toBe('');
});
