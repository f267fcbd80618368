// dataEqual: the deep equality the generated validators use for uniqueItems (src/shapes/data-equal.ts).

import { describe, expect, it } from 'vitest';
import { dataEqual } from '../../src/shapes/data-equal.js';

describe('dataEqual', () => {
  it('compares primitives by value, NaN equal to itself', () => {
    expect(dataEqual(1, 1)).toBe(true);
    expect(dataEqual('a', 'a')).toBe(true);
    expect(dataEqual(NaN, NaN)).toBe(true);
    expect(dataEqual(1, '1')).toBe(false);
    expect(dataEqual(null, {})).toBe(false);
    expect(dataEqual(0, null)).toBe(false);
  });

  it('compares arrays item by item and objects key by key, in any key order', () => {
    expect(dataEqual([1, { a: [2] }], [1, { a: [2] }])).toBe(true);
    expect(dataEqual([1, 2], [2, 1])).toBe(false);
    expect(dataEqual([1], [1, 2])).toBe(false);
    expect(dataEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(dataEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(dataEqual({ a: undefined }, { b: undefined })).toBe(false);
    expect(dataEqual([], {})).toBe(false);
    expect(dataEqual({ length: 0 }, [])).toBe(false);
  });

  it('reads keys named toString and valueOf as data and calls nothing', () => {
    expect(dataEqual({}, { toString: false })).toBe(false);
    expect(dataEqual({ toString: false }, { toString: false })).toBe(true);
    expect(dataEqual({ valueOf: 1 }, { valueOf: 2 })).toBe(false);
    const trap = {
      toString: () => expect.unreachable('toString called'),
      valueOf: () => expect.unreachable('valueOf called'),
    };
    expect(dataEqual(trap, { ...trap })).toBe(true);
  });
});
