// The bound on what a document's references and aliases expand to counts the expanded tree, not
// the text: a value shared in many places counts in every place, exactly, so the bound is the
// size of what validation and conversion walk afterwards.

import { describe, expect, it } from 'vitest';
import {
  ExpansionError,
  MAX_EXPANDED_VALUES,
  MissingReferenceError,
  resolveReferences,
} from '../../src/openapi/references.js';

/** A list of `width` references to one list of `leaves` scalars: 1 + 1 + width * (1 + leaves) values once resolved. */
function sharedThroughRefs(width: number, leaves: number) {
  return { uses: Array.from({ length: width }, () => ({ $ref: '#/leaf' })), leaf: Array(leaves).fill(0) };
}

/** The same shape by shared objects (what YAML aliases parse to). */
function sharedThroughAliases(width: number, leaves: number) {
  const leaf = Array(leaves).fill(0);
  return { uses: Array(width).fill(leaf), leaf };
}

describe('resolveReferences', () => {
  // Resolved: the root, `uses`, width copies of the leaf list (1 + leaves each), and `leaf` itself.
  const size = (width: number, leaves: number) => 2 + (width + 1) * (1 + leaves);
  const leaves = 999;
  const width = Math.floor((MAX_EXPANDED_VALUES - 2) / (1 + leaves)) - 1;

  it.each([
    ['$refs', sharedThroughRefs],
    ['YAML aliases', sharedThroughAliases],
  ])('counts every use of a value shared through %s at its full size', (_name, build) => {
    const fits = size(width, leaves);
    expect(fits).toBeLessThanOrEqual(MAX_EXPANDED_VALUES);
    expect(fits + 1 + leaves).toBeGreaterThan(MAX_EXPANDED_VALUES);
    const resolved = resolveReferences(build(width, leaves)) as { uses: unknown[][] };
    expect(resolved.uses).toHaveLength(width);
    expect(resolved.uses[width - 1]).toHaveLength(leaves);
    // One use more passes the bound.
    expect(() => resolveReferences(build(width + 1, leaves))).toThrow(ExpansionError);
  });

  it('keeps a reference into an ancestor as a $ref object, lays siblings over a target and leaves other files unread', () => {
    const resolved = resolveReferences({
      node: {
        type: 'object',
        properties: { child: { $ref: '#/node' }, other: { $ref: '#/leaf', description: 'mine' } },
      },
      leaf: { type: 'string', description: 'theirs' },
      outside: { $ref: './other.json#/x' },
    }) as any;
    expect(resolved.node.properties.child).toEqual({ $ref: '#/node' });
    expect(resolved.node.properties.other).toEqual({ type: 'string', description: 'mine' });
    expect(resolved.outside).toEqual({ $ref: './other.json#/x' });
  });

  it('names a reference to nothing, and a nesting past the depth bound', () => {
    expect(() => resolveReferences({ a: { $ref: '#/nowhere' } })).toThrow(MissingReferenceError);
    let deep: unknown = 0;
    for (let i = 0; i < 600; i++) deep = [deep];
    expect(() => resolveReferences(deep)).toThrow(/nests deeper than 500 levels/);
  });
});
