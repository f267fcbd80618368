// The canonical form compileParameters produces: types, bounds, defaults typed per R6,
// optional/handlerOnly flags and value sources.

import { describe, expect, it } from 'vitest';
import { violation } from '../../../src/schema/z-values.js';
import type { CanonicalParam, ParamType } from '../../../src/schema/types.js';
import { compile, fixed, user } from './helpers.js';

/** Compiles one parameter that must come out. */
function one(raw: unknown): CanonicalParam {
  const { params } = compile([raw]);
  expect(params).toHaveLength(1);
  return params[0] as CanonicalParam;
}

describe('primitives and bounds', () => {
  const cases: Array<[string, string, string[], ParamType]> = [
    ['string()', 'string()', [], { kind: 'string' }],
    ['number()', 'number()', [], { kind: 'number' }],
    ['boolean()', 'boolean()', [], { kind: 'boolean' }],
    ['array()', 'array()', [], { kind: 'array' }],
    ['object()', 'object()', [], { kind: 'object' }],
    ['string min/max are lengths', 'string()', ['min(1)', 'max(5)'], { kind: 'string', minLength: 1, maxLength: 5 }],
    ['string length is exact', 'string()', ['length(42)'], { kind: 'string', minLength: 42, maxLength: 42 }],
    [
      'number min/max are values',
      'number()',
      ['min(-1.5)', 'max(1e3)'],
      { kind: 'number', minimum: -1.5, maximum: 1000 },
    ],
    ['array length is an exact item count', 'array()', ['length(2)'], { kind: 'array', minItems: 2, maxItems: 2 }],
    [
      'repeated bounds tighten (AND)',
      'string()',
      ['min(1)', 'min(3)', 'max(9)', 'max(5)'],
      { kind: 'string', minLength: 3, maxLength: 5 },
    ],
    [
      'enum values verbatim, in order',
      'enum(b,A,a c)',
      [],
      { kind: 'enum', values: ['b', 'A', 'a c'], lists: [], listsResolved: true },
    ],
    [
      'enum with a list interpolation',
      'enum(custom,{{evmChains:etherscanAlias}})',
      [],
      {
        kind: 'enum',
        values: ['custom'],
        lists: [{ list: 'evmChains', field: 'etherscanAlias' }],
        listsResolved: false,
      },
    ],
    [
      'numeric enum stays text',
      'enum(1,5,137)',
      [],
      { kind: 'enum', values: ['1', '5', '137'], lists: [], listsResolved: true },
    ],
    [
      'values() fills enum()',
      'enum()',
      ['values(trading-signals,talib)'],
      { kind: 'enum', values: ['trading-signals', 'talib'], lists: [], listsResolved: true },
    ],
    [
      'regex() is a pattern',
      'string()',
      ['regex(^0x[a-fA-F0-9]{40}$)'],
      { kind: 'string', pattern: '^0x[a-fA-F0-9]{40}$' },
    ],
  ];

  it.each(cases)('%s', (_name, primitive, options, type) => {
    expect(one(user('p', primitive, options)).type).toEqual(type);
  });
});

describe('two regex() options', () => {
  it('combine with AND', () => {
    const { type } = one(user('p', 'string()', ['regex(^0x)', 'regex(f$)']));
    expect([violation(type, '0xff'), violation(type, '0xaa'), violation(type, 'ff')]).toEqual([
      null,
      expect.any(String),
      expect.any(String),
    ]);
  });
});

describe('defaults (R6)', () => {
  const cases: Array<[string, string, string, unknown]> = [
    ['number() → number', 'number()', 'default(100)', 100],
    ['negative fractional number', 'number()', 'default(-0.25)', -0.25],
    ['boolean() true', 'boolean()', 'default(true)', true],
    ['boolean() false', 'boolean()', 'default(false)', false],
    ['array() → JSON', 'array()', 'default(["a",1])', ['a', 1]],
    ['object() → JSON', 'object()', 'default({"a":{"b":null}})', { a: { b: null } }],
    ['bare string', 'string()', 'default(usd)', 'usd'],
    ['single quotes removed', 'string()', "default('usd')", 'usd'],
    ['double quotes removed', 'string()', 'default("usd")', 'usd'],
    ['only one pair removed', 'string()', "default(''usd'')", "'usd'"],
    ['unmatched quote kept', 'string()', 'default(\'usd")', '\'usd"'],
    ['empty string', 'string()', 'default()', ''],
    ['numeric-looking string stays a string', 'string()', 'default(10)', '10'],
    ['enum → string', 'enum(1,5,137)', 'default(5)', '5'],
    ['quoted enum', 'enum(asc,desc)', "default('desc')", 'desc'],
    // Issue 14: the escapes inside the quotes are read, not kept.
    [
      'escaped double quotes inside double quotes',
      'string()',
      'default("{ org: \\"uniswap\\" }")',
      '{ org: "uniswap" }',
    ],
    ['escaped single quote inside single quotes', 'string()', "default('it\\'s')", "it's"],
    ['an escaped backslash', 'string()', 'default("a\\\\b")', 'a\\b'],
  ];

  it.each(cases)('%s', (_name, primitive, option, value) => {
    const param = one(user('p', primitive, [option]));
    expect(param.default).toEqual(value);
    expect(param.optional).toBe(true);
  });

  it('no default leaves the property out', () => {
    expect(one(user('p', 'string()'))).not.toHaveProperty('default');
  });
});

describe('optional()', () => {
  it.each([
    ['first', ['optional()', 'min(1)']],
    ['last', ['min(1)', 'optional()']],
    ['with a default', ['default(x)', 'optional()']],
  ])('counts in any position: %s', (_name, options) => {
    expect(one(user('p', 'string()', options)).optional).toBe(true);
  });

  it('absent means required', () => {
    expect(one(user('p', 'string()', ['min(1)'])).optional).toBe(false);
  });

  it('optional(x) is optional (corpus idiom)', () => {
    expect(one(user('p', 'string()', ['optional(true)'])).optional).toBe(true);
  });

  it('options written in one string are read one by one (corpus idiom)', () => {
    const param = one(user('p', 'number()', ['optional(), default(1000)']));
    expect([param.optional, param.default]).toEqual([true, 1000]);
  });
});

describe('enum values', () => {
  it("an empty value (a trailing comma, corpus idiom) is the choice '', as the reference accepts it", () => {
    expect(one(user('p', 'enum(latest,listings,)')).type).toEqual({
      kind: 'enum',
      values: ['latest', 'listings', ''],
      lists: [],
      listsResolved: true,
    });
  });
});

describe('sources and locations', () => {
  it('{{USER_PARAM}} is a user source', () => {
    expect(one(user('id', 'string()', [], 'insert'))).toEqual({
      key: 'id',
      location: 'insert',
      source: { kind: 'user' },
      type: { kind: 'string' },
      optional: false,
      handlerOnly: false,
    });
  });

  it('a fixed value is a literal template with its value typed by its z (R6)', () => {
    expect(one(fixed('module', 'account', 'string()')).source).toEqual({
      kind: 'template',
      template: [{ kind: 'literal', text: 'account' }],
      typed: 'account',
    });
    expect(one(fixed('limit', '100', 'number()')).source).toEqual({
      kind: 'template',
      template: [{ kind: 'literal', text: '100' }],
      typed: 100,
    });
    expect(one(fixed('live', 'true', 'boolean()')).source).toEqual({
      kind: 'template',
      template: [{ kind: 'literal', text: 'true' }],
      typed: true,
    });
  });

  it.each([
    ['{{SERVER_PARAM:API_KEY}}', []],
    ['{{API_KEY}}', []],
  ])('a server placeholder %s is a secret slot', (value, findings) => {
    const compiled = compile([fixed('apikey', `Bearer ${value}`, 'string()')]);
    expect(compiled.findings).toEqual(findings);
    expect(compiled.params[0]?.source).toEqual({
      kind: 'template',
      template: [
        { kind: 'literal', text: 'Bearer ' },
        { kind: 'secret', key: 'API_KEY' },
      ],
    });
  });

  it('an insert without a path slot is handler-only', () => {
    expect(one(user('address', 'string()', [], 'insert')).handlerOnly).toBe(true);
  });

  it('keeps array order and compiles every sound parameter', () => {
    const { params } = compile([user('b', 'string()', [], 'body'), user('q', 'number()'), fixed('f', 'x', 'string()')]);
    expect(params.map((p) => `${p.location}:${p.key}`)).toEqual(['body:b', 'query:q', 'query:f']);
  });

  it.each(['GET', 'DELETE'] as const)('a body parameter on %s goes into the query string (corpus idiom)', (method) => {
    const { params } = compile([user('address', 'string()', [], 'body')], { method });
    expect(params[0]?.location).toBe('query');
  });

  it('{{USER_PARAM}} inside text is the user source with the text around it', () => {
    expect(one(fixed('q', '%{{USER_PARAM}}%', 'string()')).source).toEqual({ kind: 'user', around: ['%', '%'] });
    expect(one(fixed('sql', 'a {{USER_PARAM}} b {{USER_PARAM}}', 'string()')).source).toEqual({
      kind: 'user',
      around: ['a ', ' b ', ''],
    });
  });

  it('{{LATITUDE}} for the key latitude is the user source, in any case convention', () => {
    expect(one(fixed('latitude', '{{LATITUDE}}', 'number()')).source).toEqual({ kind: 'user' });
    expect(one(fixed('forecastDays', '{{FORECAST_DAYS}}', 'number()')).source).toEqual({ kind: 'user' });
    expect(one(fixed('stop_id', '{{stopId}}', 'string()')).source).toEqual({ kind: 'user' });
  });

  it('a description next to position and z, or inside z, is kept', () => {
    expect(one({ ...(user('q', 'string()') as object), description: 'Search text' }).description).toBe('Search text');
    expect(
      one({
        position: { key: 'q', value: '{{USER_PARAM}}', location: 'query' },
        z: { primitive: 'string()', options: [], description: 'In z' },
      }).description,
    ).toBe('In z');
  });
});
