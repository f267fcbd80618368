import { describe, expect, it } from 'vitest';
import { numericText, violation } from '../../src/schema/z-values.js';
import type { ParamType } from '../../src/schema/types.js';

const enumOf = (
  values: string[],
  lists: Array<{ list: string; field: string }> = [],
  listsResolved = lists.length === 0,
): ParamType => ({ kind: 'enum', values, lists, listsResolved });

const CASES: Array<[string, ParamType, unknown, string | null]> = [
  ['string ok', { kind: 'string' }, 'abc', null],
  ['string wrong type', { kind: 'string' }, 5, 'is not a string'],
  ['string null', { kind: 'string' }, null, 'is not a string'],
  ['minLength', { kind: 'string', minLength: 3 }, 'ab', 'is shorter than 3 characters'],
  ['maxLength', { kind: 'string', maxLength: 2 }, 'abc', 'is longer than 2 characters'],
  ['length counts code points', { kind: 'string', maxLength: 1 }, '😀', null],
  ['pattern ok', { kind: 'string', pattern: '^0x[0-9a-f]+$' }, '0xbeef', null],
  ['pattern fails', { kind: 'string', pattern: '^0x[0-9a-f]+$' }, 'beef', 'does not match ^0x[0-9a-f]+$'],
  ['number ok', { kind: 'number' }, 1.5, null],
  ['number as text', { kind: 'number' }, '5', 'is not a finite number'],
  ['number infinite', { kind: 'number' }, Infinity, 'is not a finite number'],
  ['number NaN', { kind: 'number' }, NaN, 'is not a finite number'],
  ['minimum', { kind: 'number', minimum: 1 }, 0, 'is less than 1'],
  ['maximum', { kind: 'number', maximum: 10 }, 11, 'is greater than 10'],
  ['bounds inclusive', { kind: 'number', minimum: 1, maximum: 1 }, 1, null],
  ['boolean ok', { kind: 'boolean' }, false, null],
  ['boolean as text', { kind: 'boolean' }, 'true', 'is not true or false'],
  ['enum member', enumOf(['asc', 'desc']), 'desc', null],
  ['enum is case-sensitive', enumOf(['asc', 'desc']), 'DESC', 'is not one of asc, desc'],
  ['enum numeric text', enumOf(['1', '5', '137']), '5', null],
  ['enum all numeric: matching number', enumOf(['1', '5', '137']), 5, null],
  ['enum all numeric: other number', enumOf(['1', '5', '137']), 6, 'is not one of 1, 5, 137'],
  ['enum mixed: no numbers', enumOf(['1', 'x']), 1, 'is not one of 1, x'],
  [
    'enum with lists: any string until resolved',
    enumOf(['custom'], [{ list: 'evmChains', field: 'alias' }]),
    'BASE_MAINNET',
    null,
  ],
  [
    'enum with lists: still a scalar',
    enumOf([], [{ list: 'evmChains', field: 'alias' }]),
    ['eth'],
    'is not a string or number',
  ],
  [
    'enum with resolved lists: member',
    enumOf(['custom', 'ETHEREUM_MAINNET'], [{ list: 'evmChains', field: 'alias' }], true),
    'ETHEREUM_MAINNET',
    null,
  ],
  [
    'enum with resolved lists: not a member',
    enumOf(['custom', 'ETHEREUM_MAINNET'], [{ list: 'evmChains', field: 'alias' }], true),
    'BASE_MAINNET',
    'is not one of custom, ETHEREUM_MAINNET',
  ],
  ['array ok', { kind: 'array' }, [1, 'a'], null],
  ['array wrong type', { kind: 'array' }, 'a,b', 'is not an array'],
  ['minItems', { kind: 'array', minItems: 2 }, [1], 'has fewer than 2 items'],
  ['maxItems', { kind: 'array', maxItems: 1 }, [1, 2], 'has more than 1 items'],
  ['object ok', { kind: 'object' }, { a: 1 }, null],
  ['object not an array', { kind: 'object' }, [], 'is not an object'],
  ['object not null', { kind: 'object' }, null, 'is not an object'],
];

describe('violation', () => {
  it.each(CASES)('%s', (_name, type, value, expected) => {
    expect(violation(type, value)).toBe(expected);
  });
});

describe('numericText', () => {
  it.each([
    ['10', 10],
    ['-0.5', -0.5],
    ['1e3', 1000],
    ['.5', 0.5],
    ['', null],
    [' 1', null],
    ['0x10', null],
    ['Infinity', null],
    ['1e999', null],
    ['ten', null],
  ])('%j → %j', (text, value) => {
    expect(numericText(text)).toBe(value);
  });
});
