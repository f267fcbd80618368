// The "none" rule reads the tools just below the first (near-fit.ts): one that fits answers the
// request when the first is a strong match that lacks some of its words; a weak first, a tool
// further down or one scoring well below the first does not.

import { describe, expect, it } from 'vitest';
import type { Ranked } from '../../src/discovery/bm25.js';
import { someFits } from '../../src/discovery/near-fit.js';

const ranked = (...scores: number[]): Ranked[] => scores.map((score, document) => ({ document, score, matched: [0] }));
/** Only the tool at `document` fits. */
const only = (document: number) => (result: Ranked) => result.document === document;

describe('someFits', () => {
  it('answers when the first fits, whatever follows', () => {
    expect(someFits(ranked(10, 2), only(0), () => false)).toBe(true);
  });

  it('answers when a tool scoring near the first fits and the first is a strong match', () => {
    expect(someFits(ranked(10, 9.5), only(1), () => true)).toBe(true);
    expect(someFits(ranked(10, 9.8, 9.2), only(2), () => true)).toBe(true);
  });

  it('says none when the first is matched only weakly', () => {
    expect(someFits(ranked(10, 9.5), only(1), () => false)).toBe(false);
  });

  it('says none when the tool that fits scores well below the first or ranks too far down', () => {
    expect(someFits(ranked(10, 8), only(1), () => true)).toBe(false);
    expect(someFits(ranked(10, 9.9, 9.8, 9.7), only(3), () => true)).toBe(false);
  });

  it('asks whether the first is strong only when a near tool is there to read', () => {
    let asked = 0;
    someFits(ranked(10, 5), only(1), () => {
      asked += 1;
      return true;
    });
    expect(asked).toBe(0);
  });

  it('says none for no results', () => {
    expect(
      someFits(
        [],
        () => true,
        () => true,
      ),
    ).toBe(false);
  });
});
