// A shape whose failures become findings says, for every failure it can produce, which code it
// is: otherwise the mapper would fall back to a catch-all code (src/shapes/problems.ts).

import { describe, expect, it } from 'vitest';
import { GROUP_ENTRY_SHAPE, GROUPS_FILE_SHAPE } from '../src/groups/shape.js';
import { LIST_SHAPE } from '../src/lists/list-shape.js';
import { MAIN_SHAPE } from '../src/schema/main-shape.js';
import type { Shape } from '../src/shapes/vocabulary.js';

/** Keywords that can fail on their own (applicators such as allOf only pass on their branches' failures). */
const ASSERTIONS = [
  'type',
  'enum',
  'const',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'required',
  'dependentRequired',
];

/** Where a subschema of `shape` could fail without a code: JSON-pointer-like paths. */
function uncoded(shape: Shape, at = '#'): string[] {
  const gaps: string[] = [];
  if (ASSERTIONS.some((keyword) => keyword in shape) && typeof shape['x-code'] !== 'string') gaps.push(at);
  if (shape.additionalProperties === false && typeof (shape['x-unknown'] as Shape | undefined)?.code !== 'string')
    gaps.push(`${at} (unknown properties)`);
  const children: Array<[string, unknown]> = [
    ...Object.entries((shape.properties as Record<string, unknown> | undefined) ?? {}).map(
      ([key, child]): [string, unknown] => [`properties/${key}`, child],
    ),
    ...((shape.allOf as unknown[] | undefined) ?? []).map((child, index): [string, unknown] => [
      `allOf/${index}`,
      child,
    ]),
    ['items', shape.items],
    ['additionalProperties', shape.additionalProperties],
    ['propertyNames', shape.propertyNames],
  ];
  for (const [step, child] of children) {
    if (child !== null && typeof child === 'object') gaps.push(...uncoded(child as Shape, `${at}/${step}`));
  }
  return gaps;
}

describe('coded shapes', () => {
  it.each([
    ['main', MAIN_SHAPE],
    ['a shared list', LIST_SHAPE],
    ['groups.json', GROUPS_FILE_SHAPE],
    ['a group', GROUP_ENTRY_SHAPE],
  ])('every failure of the shape of %s has a code', (_name, shape) => {
    expect(uncoded(shape)).toEqual([]);
  });

  it('finds a failure without a code', () => {
    expect(
      uncoded({
        type: 'object',
        'x-code': 'VAL002',
        properties: { a: { type: 'string' } },
        additionalProperties: false,
      }),
    ).toEqual(['# (unknown properties)', '#/properties/a']);
  });
});
