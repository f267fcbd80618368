// The argument bounds (decision R13) with the shortcut for arguments of scalars only: the same
// verdict as the walk over every value (the walk as it stood before the shortcut is the oracle
// here), for flat and nested arguments against bounds around their sizes and depths.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { brokenBound } from '../../src/shared/raw.js';

/** The walk alone, as brokenBound made it for every value before the shortcut. */
function walked(value: unknown, maxDepth: number, maxBytes: number): 'depth' | 'size' | null {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  let bytes = 0;
  while (values.length > 0) {
    const current = values.pop();
    const depth = (depths.pop() as number) + 1;
    if (typeof current === 'string') bytes += current.length + 2;
    else if (typeof current !== 'object' || current === null) bytes += 8;
    else {
      if (depth > maxDepth) return 'depth';
      const items = Array.isArray(current) ? current : Object.values(current);
      bytes += Array.isArray(current) ? 2 + current.length : 2;
      if (!Array.isArray(current)) for (const key of Object.keys(current)) bytes += 4 + key.length;
      for (const item of items) {
        values.push(item);
        depths.push(depth);
      }
    }
    if (bytes > maxBytes) return 'size';
  }
  return null;
}

const scalar = fc.oneof(fc.string({ maxLength: 30 }), fc.double(), fc.boolean(), fc.constant(null));
const flat = fc.dictionary(fc.string({ maxLength: 8 }), scalar, { maxKeys: 6 });
const nested = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 5 });

describe('brokenBound', () => {
  it('gives the walk’s verdict for arguments of scalars and nested ones, at every bound', () => {
    fc.assert(
      fc.property(
        fc.oneof(flat, nested),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 0, max: 300 }),
        (value, maxDepth, maxBytes) => {
          expect(brokenBound(value, { maxDepth, maxBytes })).toBe(walked(value, maxDepth, maxBytes));
        },
      ),
      { numRuns: 4000, seed: 29 },
    );
  });

  it('an object of scalars: depth 0 allows none, and its size is counted to the byte', () => {
    const args = { symbol: 'eth', limit: 5 };
    // 2 for the object, 4 + 6 + 3 + 2 for symbol, 4 + 5 + 8 for limit.
    expect(brokenBound(args, { maxDepth: 1, maxBytes: 34 })).toBeNull();
    expect(brokenBound(args, { maxDepth: 1, maxBytes: 33 })).toBe('size');
    expect(brokenBound(args, { maxDepth: 0, maxBytes: 1_000 })).toBe('depth');
  });
});
