// Every code compileParameters emits: one parameter set that triggers it, and a close variant
// that does not. Findings are compared as exact lists of `CODE path`.

import { describe, expect, it } from 'vitest';
import { FindingSink } from '../../../src/report/findings.js';
import { compileParameters, type ParamContext } from '../../../src/schema/params.js';
import { BASE, compile, fixed, user } from './helpers.js';

interface Case {
  name: string;
  raw: unknown[];
  ctx?: Partial<Omit<ParamContext, 'sink'>>;
  findings: string[];
}

/** Pairs: the first row of each pair fires the code, the second is its near miss. */
const CASES: Case[] = [
  // VAL059: z written loosely, read as meant (issue 14: an empty enum value was VAL044, optional(x) VAL054)
  { name: 'VAL059 empty enum item', raw: [user('n', 'enum(a,,b)')], findings: ['VAL059 [0].z.primitive'] },
  { name: 'VAL059 trailing comma in an enum', raw: [user('n', 'enum(a,b,)')], findings: ['VAL059 [0].z.primitive'] },
  {
    name: 'VAL059 optional(yes)',
    raw: [user('s', 'string()', ['optional(yes)'])],
    findings: ['VAL059 [0].z.options[0]'],
  },
  {
    name: 'VAL059 two options in one string',
    raw: [user('n', 'number()', ['optional(), default(1000)'])],
    findings: ['VAL059 [0].z.options[0]'],
  },
  {
    name: 'VAL059 near: a regex with a comma after a parenthesis',
    raw: [user('s', 'string()', ['regex(^(a), b$)'])],
    findings: [],
  },

  // VAL095: {{USER_PARAM}} inside text
  {
    name: 'VAL095 %{{USER_PARAM}}%',
    raw: [fixed('q', '%{{USER_PARAM}}%', 'string()')],
    findings: ['VAL095 [0].position.value'],
  },
  { name: 'VAL095 near: {{USER_PARAM}} alone', raw: [user('q', 'string()')], findings: [] },

  // VAL099: a bare {{NAME}} naming the parameter's own key
  {
    name: 'VAL099 {{LATITUDE}} for latitude',
    raw: [fixed('latitude', '{{LATITUDE}}', 'number()')],
    findings: ['VAL099 [0].position.value'],
  },
  {
    name: 'VAL099 with text around it',
    raw: [fixed('query', 'intitle:{{QUERY}}', 'string()')],
    findings: ['VAL099 [0].position.value', 'VAL095 [0].position.value'],
  },
  {
    name: 'VAL099 near: a name of another key is no user input',
    raw: [fixed('lat', '{{LATITUDE}}', 'number()')],
    findings: ['VAL052 [0].position.value'],
  },
  { name: 'VAL099 near: a declared key stays a key', raw: [fixed('api_key', '{{API_KEY}}', 'string()')], findings: [] },

  // VAL042: the caller's input mixed with other placeholders
  {
    name: 'VAL042 {{USER_PARAM}} beside a key',
    raw: [fixed('q', '{{API_KEY}}:{{USER_PARAM}}', 'string()')],
    findings: ['VAL042 [0].position.value'],
  },

  // VAL019: an insert key (only the name the AI sees) is camelCase; a query or body key is the name the API reads (issue 27)
  {
    name: 'VAL019 snake_case insert key',
    raw: [user('chain_id', 'string()', [], 'insert')],
    findings: ['VAL019 [0].position.key', 'VAL094 [0].position.key'],
  },
  {
    name: 'VAL019 not for a snake_case query key (the API reads per_page)',
    raw: [user('per_page', 'number()')],
    findings: [],
  },
  { name: 'VAL019 not for a snake_case body key', raw: [user('vs_currency', 'string()', [], 'body')], findings: [] },
  { name: 'VAL019 camelCase user key', raw: [user('chainId', 'string()')], findings: [] },
  { name: 'VAL019 not for fixed keys (upstream names)', raw: [fixed('api_mode', 'full', 'string()')], findings: [] },

  // VAL044: unknown primitive
  { name: 'VAL044 int()', raw: [user('n', 'int()')], findings: ['VAL044 [0].z.primitive'] },
  { name: 'VAL044 wrong case', raw: [user('n', 'String()')], findings: ['VAL044 [0].z.primitive'] },
  {
    name: 'VAL044 malformed list in enum',
    raw: [user('n', 'enum(a,{{evmChains}})')],
    findings: ['VAL044 [0].z.primitive'],
  },
  { name: 'VAL044 near: number()', raw: [user('n', 'number()')], findings: [] },

  // VAL045: unknown option
  {
    name: 'VAL045 unknown name',
    raw: [user('n', 'string()', ['min(1)', 'required()'])],
    findings: ['VAL045 [0].z.options[1]'],
  },
  { name: 'VAL045 no parentheses', raw: [user('n', 'string()', ['optional'])], findings: ['VAL045 [0].z.options[0]'] },
  { name: 'VAL045 near: optional()', raw: [user('n', 'string()', ['optional()'])], findings: [] },

  // VAL046: enum without values
  { name: 'VAL046 enum()', raw: [user('n', 'enum()')], findings: ['VAL046 [0].z.primitive'] },
  {
    name: 'VAL046 near: enum() filled by values()',
    raw: [user('n', 'enum()', ['values(a,b)'])],
    findings: ['VAL093 [0].z.options[0]'],
  },

  // VAL047: list interpolation outside enum()
  {
    name: 'VAL047 in an option',
    raw: [user('n', 'string()', ['default({{evmChains:alias}})'])],
    findings: ['VAL047 [0].z.options[0]'],
  },
  {
    name: 'VAL047 in a primitive',
    raw: [user('n', 'array({{evmChains:alias}})')],
    findings: ['VAL047 [0].z.primitive'],
  },
  { name: 'VAL047 near: inside enum()', raw: [user('n', 'enum({{evmChains:alias}})')], findings: [] },

  // VAL048: interpolated list must be declared
  {
    name: 'VAL048 undeclared list',
    raw: [user('n', 'enum(x,{{tokens:symbol}})')],
    findings: ['VAL048 [0].z.primitive'],
  },
  { name: 'VAL048 near: declared list', raw: [user('n', 'enum(x,{{evmChains:symbol}})')], findings: [] },

  // VAL051: body on GET/DELETE, sent in the query string (a warning since issue 14)
  {
    name: 'VAL051 body on GET',
    raw: [user('q', 'string()', [], 'body')],
    ctx: { method: 'GET' },
    findings: ['VAL051 [0].position.location'],
  },
  {
    name: 'VAL051 body on DELETE',
    raw: [user('q', 'string()', [], 'body')],
    ctx: { method: 'DELETE' },
    findings: ['VAL051 [0].position.location'],
  },
  { name: 'VAL051 near: body on PUT', raw: [user('q', 'string()', [], 'body')], ctx: { method: 'PUT' }, findings: [] },
  { name: 'VAL051 near: query on GET', raw: [user('q', 'string()')], ctx: { method: 'GET' }, findings: [] },

  // VAL053: fixed value fails its own z
  { name: 'VAL053 fixed number', raw: [fixed('n', 'ten', 'number()')], findings: ['VAL053 [0].position.value'] },
  { name: 'VAL053 near: numeric text', raw: [fixed('n', '10', 'number()')], findings: [] },
  { name: 'VAL053 fixed boolean', raw: [fixed('b', 'yes', 'boolean()')], findings: ['VAL053 [0].position.value'] },
  { name: 'VAL053 near: true', raw: [fixed('b', 'true', 'boolean()')], findings: [] },
  { name: 'VAL053 fixed enum', raw: [fixed('e', 'c', 'enum(a,b)')], findings: ['VAL053 [0].position.value'] },
  { name: 'VAL053 near: enum with a list', raw: [fixed('e', 'c', 'enum(a,{{evmChains:alias}})')], findings: [] },
  {
    name: 'VAL053 fixed string too short',
    raw: [fixed('s', 'ab', 'string()', ['min(3)'])],
    findings: ['VAL053 [0].position.value'],
  },
  {
    name: 'VAL053 near: secret is known only at call time',
    raw: [fixed('n', '{{API_KEY}}', 'number()')],
    findings: [],
  },

  // VAL054: malformed option argument
  { name: 'VAL054 min(x)', raw: [user('s', 'string()', ['min(x)'])], findings: ['VAL054 [0].z.options[0]'] },
  { name: 'VAL054 max()', raw: [user('s', 'string()', ['max()'])], findings: ['VAL054 [0].z.options[0]'] },
  { name: 'VAL054 length(-1)', raw: [user('s', 'string()', ['length(-1)'])], findings: ['VAL054 [0].z.options[0]'] },
  {
    name: 'VAL054 min(1.5) on a string',
    raw: [user('s', 'string()', ['min(1.5)'])],
    findings: ['VAL054 [0].z.options[0]'],
  },
  { name: 'VAL054 near: min(1.5) on a number', raw: [user('n', 'number()', ['min(1.5)'])], findings: [] },
  {
    name: 'VAL054 non-numeric number default',
    raw: [user('n', 'number()', ['default(ten)'])],
    findings: ['VAL054 [0].z.options[0]'],
  },
  {
    name: 'VAL054 quoted number default',
    raw: [user('n', 'number()', ["default('10')"])],
    findings: ['VAL054 [0].z.options[0]'],
  },
  {
    name: 'VAL054 boolean default',
    raw: [user('b', 'boolean()', ['default(yes)'])],
    findings: ['VAL054 [0].z.options[0]'],
  },
  {
    name: 'VAL054 array default not JSON',
    raw: [user('a', 'array()', ['default([1,)'])],
    findings: ['VAL054 [0].z.options[0]'],
  },
  {
    name: 'VAL054 array default of another JSON type',
    raw: [user('a', 'array()', ['default({})'])],
    findings: ['VAL054 [0].z.options[0]'],
  },
  {
    name: 'VAL054 object default that is an array',
    raw: [user('o', 'object()', ['default([])'])],
    findings: ['VAL054 [0].z.options[0]'],
  },
  {
    name: 'VAL054 near: JSON defaults',
    raw: [user('a', 'array()', ['default([1])']), user('o', 'object()', ['default({"a":1})'])],
    findings: [],
  },
  {
    name: 'VAL054 invalid regex',
    raw: [user('s', 'string()', ['regex(^[a-)'])],
    findings: ['VAL054 [0].z.options[0]'],
  },
  {
    name: 'VAL054 values() on a non-enum',
    raw: [user('s', 'string()', ['values(a,b)'])],
    findings: ['VAL054 [0].z.options[0]'],
  },
  {
    name: 'VAL054 values() on a filled enum',
    raw: [user('e', 'enum(a)', ['values(b)'])],
    findings: ['VAL054 [0].z.options[0]'],
  },
  {
    name: 'VAL054 values() with an empty value',
    raw: [user('e', 'enum()', ['values(a,)'])],
    findings: ['VAL054 [0].z.options[0]'],
  },

  // VAL055: duplicate user keys
  {
    name: 'VAL055 two user params',
    raw: [user('id', 'string()'), user('id', 'number()')],
    findings: ['VAL055 [1].position.key'],
  },
  { name: 'VAL055 near: user and fixed', raw: [user('id', 'string()'), fixed('id', 'x', 'string()')], findings: [] },

  // VAL056: default fails its own z
  {
    name: 'VAL056 enum default not a value',
    raw: [user('e', 'enum(a,b)', ['default(c)'])],
    findings: ['VAL056 [0].z.options[0]'],
  },
  { name: 'VAL056 near: enum default is a value', raw: [user('e', 'enum(a,b)', ['default(b)'])], findings: [] },
  {
    name: 'VAL056 near: enum with a list resolves later',
    raw: [user('e', 'enum({{evmChains:alias}})', ['default(eth)'])],
    findings: [],
  },
  {
    name: 'VAL056 string shorter than min, min after default',
    raw: [user('s', 'string()', ["default('ab')", 'min(3)'])],
    findings: ['VAL056 [0].z.options[0]'],
  },
  { name: 'VAL056 near: long enough', raw: [user('s', 'string()', ["default('abc')", 'min(3)'])], findings: [] },
  {
    name: 'VAL056 number above max',
    raw: [user('n', 'number()', ['max(10)', 'default(11)'])],
    findings: ['VAL056 [0].z.options[1]'],
  },
  {
    name: 'VAL056 array too long',
    raw: [user('a', 'array()', ['length(1)', 'default([1,2])'])],
    findings: ['VAL056 [0].z.options[1]'],
  },

  // VAL057: option without effect
  { name: 'VAL057 min on boolean', raw: [user('b', 'boolean()', ['min(1)'])], findings: ['VAL057 [0].z.options[0]'] },
  { name: 'VAL057 max on enum', raw: [user('e', 'enum(a)', ['max(1)'])], findings: ['VAL057 [0].z.options[0]'] },
  {
    name: 'VAL057 length on object',
    raw: [user('o', 'object()', ['length(1)'])],
    findings: ['VAL057 [0].z.options[0]'],
  },
  {
    name: 'VAL057 length on number',
    raw: [user('n', 'number()', ['length(3)'])],
    findings: ['VAL057 [0].z.options[0]'],
  },
  { name: 'VAL057 min on array', raw: [user('a', 'array()', ['min(1)'])], findings: ['VAL057 [0].z.options[0]'] },
  {
    name: 'VAL057 regex on number',
    raw: [user('n', 'number()', ['regex(^1)'])],
    findings: ['VAL057 [0].z.options[0]'],
  },
  {
    name: 'VAL057 near: length on string and array',
    raw: [user('s', 'string()', ['length(3)']), user('a', 'array()', ['length(3)'])],
    findings: [],
  },

  // regex(): the guide's form of a string pattern, read without a finding (VAL092 is retired)
  { name: 'regex on string: no finding', raw: [user('s', 'string()', ['regex(^0x[a-fA-F0-9]{40}$)'])], findings: [] },

  // VAL093: values() idiom
  {
    name: 'VAL093 values fills enum()',
    raw: [user('e', 'enum()', ['optional()', 'values(talib,signals)'])],
    findings: ['VAL093 [0].z.options[1]'],
  },
  { name: 'VAL093 near: values inside enum', raw: [user('e', 'enum(talib,signals)', ['optional()'])], findings: [] },

  // VAL094: insert read only by handlers
  {
    name: 'VAL094 insert without slot',
    raw: [user('address', 'string()', [], 'insert')],
    findings: ['VAL094 [0].position.key'],
  },
  { name: 'VAL094 near: insert with slot', raw: [user('id', 'string()', [], 'insert')], findings: [] },
  { name: 'VAL094 near: query without slot', raw: [user('address', 'string()')], findings: [] },
];

describe('compileParameters findings', () => {
  it.each(CASES)('$name', ({ raw, ctx, findings }) => {
    expect(compile(raw, ctx).findings).toEqual(findings);
  });
});

describe('malformed shapes are left to Ajv', () => {
  const broken: Array<[string, unknown]> = [
    ['null', null],
    ['a string', 'param'],
    ['no z', { position: { key: 'a', value: '{{USER_PARAM}}', location: 'query' } }],
    ['no position', { z: { primitive: 'string()', options: [] } }],
    ['empty key', user('', 'string()')],
    [
      'value not a string',
      { position: { key: 'a', value: 5, location: 'query' }, z: { primitive: 'string()', options: [] } },
    ],
    ['header location', user('a', 'string()', [], 'header' as 'query')],
    [
      'primitive not a string',
      { position: { key: 'a', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 1, options: [] } },
    ],
    [
      'options missing',
      { position: { key: 'a', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()' } },
    ],
    ['an option not a string', user('a', 'string()', [1 as unknown as string])],
  ];

  it.each(broken)('%s: skipped without findings', (_name, item) => {
    expect(compile([item, user('ok', 'string()')])).toMatchObject({ findings: [], params: [{ key: 'ok' }] });
  });

  it('parameters that are not an array yield nothing', () => {
    expect(compile({ a: 1 })).toEqual({ params: [], findings: [] });
  });
});

describe('finding details', () => {
  it('carries severity, file, full path and a message naming the problem', () => {
    const sink = new FindingSink('t.mjs');
    compileParameters([user('n', 'number()', ['max(10)', 'default(11)'])], BASE, {
      sink,
      serverKeys: new Set(),
      declaredLists: new Set(),
      method: 'GET',
      pathSlots: new Set(),
    });
    expect(sink.findings).toEqual([
      {
        code: 'VAL056',
        severity: 'error',
        file: 't.mjs',
        path: `${BASE}[0].z.options[1]`,
        message: 'default 11 is greater than 10',
        hint: 'pick a default the z block accepts',
      },
    ]);
  });

  it('leaves a parameter with an unknown primitive out of the output', () => {
    expect(compile([user('n', 'int()'), user('m', 'number()')]).params.map((p) => p.key)).toEqual(['m']);
  });
});
