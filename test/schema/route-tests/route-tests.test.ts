// checkRouteTests: every TST code it emits, with a near miss, and the tests it returns.
// Parameters are compiled from raw arrays by compileParameters, as the loader does.

import { describe, expect, it } from 'vitest';
import { FindingSink } from '../../../src/report/findings.js';
import { compileParameters } from '../../../src/schema/params.js';
import { checkRouteTests } from '../../../src/schema/route-tests.js';

const TESTS = 'main.routes.r.tests';

type Location = 'insert' | 'query' | 'body';

function user(key: string, primitive: string, options: string[] = [], location: Location = 'query'): unknown {
  return { position: { key, value: '{{USER_PARAM}}', location }, z: { primitive, options } };
}

/** Route parameters: required string `id` (a path slot), optional enum `order`, required number `limit`, fixed `module`. */
const ROUTE = [
  user('id', 'string()', ['min(2)'], 'insert'),
  user('order', 'enum(asc,desc)', ['optional()']),
  user('limit', 'number()', ['max(100)']),
  { position: { key: 'module', value: 'account', location: 'query' }, z: { primitive: 'string()', options: [] } },
];

/** Runs checkRouteTests over `tests`; findings as `CODE path` relative to the tests path. */
function check(tests: unknown, raw: unknown[] = ROUTE) {
  const sink = new FindingSink('t.mjs');
  const params = compileParameters(raw, 'main.routes.r.parameters', {
    sink: new FindingSink('params.mjs'),
    serverKeys: new Set(),
    declaredLists: new Set(['evmChains']),
    method: 'GET',
    pathSlots: new Set(['id']),
  });
  const returned = checkRouteTests(tests, TESTS, params, sink);
  const findings = sink.findings.map((f) => `${f.code} ${f.path?.slice(TESTS.length) ?? ''}`);
  return { returned, findings };
}

const ok = { _description: 'ok', id: 'ab', limit: 10, order: 'asc' };

interface Case {
  name: string;
  tests: unknown[];
  raw?: unknown[];
  findings: string[];
}

const CASES: Case[] = [
  // TST003: a required user parameter is missing
  { name: 'TST003 missing required', tests: [{ _description: 'x', id: 'ab', order: 'asc' }], findings: ['TST003 [0]'] },
  { name: 'TST003 near: all required present', tests: [ok], findings: [] },
  {
    name: 'TST003 near: a default makes it optional',
    tests: [{ _description: 'x' }],
    raw: [user('n', 'number()', ['default(1)'])],
    findings: ['TST008 '],
  },
  {
    name: 'TST003 a required handler-only insert counts',
    tests: [{ _description: 'x' }],
    raw: [user('address', 'string()', [], 'insert')],
    findings: ['TST003 [0]'],
  },

  // TST004: a value fails its z
  { name: 'TST004 number written as a string', tests: [{ ...ok, limit: '10' }], findings: ['TST004 [0].limit'] },
  { name: 'TST004 number above max', tests: [{ ...ok, limit: 101 }], findings: ['TST004 [0].limit'] },
  { name: 'TST004 enum value not listed', tests: [{ ...ok, order: 'up' }], findings: ['TST004 [0].order'] },
  { name: 'TST004 string too short', tests: [{ ...ok, id: 'a' }], findings: ['TST004 [0].id'] },
  { name: 'TST004 near: value at max', tests: [{ ...ok, limit: 100 }], findings: [] },
  {
    name: 'TST004 near: enum with a list resolves later',
    tests: [{ _description: 'x', chain: 'BASE_MAINNET' }],
    raw: [user('chain', 'enum({{evmChains:alias}})')],
    findings: [],
  },
  {
    name: 'TST004 numeric enum accepts the number',
    tests: [{ _description: 'x', chainId: 137 }],
    raw: [user('chainId', 'enum(1,137)')],
    findings: [],
  },

  // TST005: values JSON cannot carry (1e999 reads as Infinity); never judged against z as well
  { name: 'TST005 infinite number', tests: [{ ...ok, limit: Infinity }], findings: ['TST005 [0].limit'] },
  {
    name: 'TST005 deep inside a value',
    tests: [{ _description: 'x', ids: [1, { a: -Infinity }] }],
    raw: [user('ids', 'array()')],
    findings: ['TST005 [0].ids[1].a'],
  },
  { name: 'TST005 undefined', tests: [{ ...ok, limit: undefined }], findings: ['TST005 [0].limit'] },
  {
    name: 'TST005 on a foreign key too',
    tests: [{ ...ok, extra: NaN }],
    findings: ['TST005 [0].extra', 'TST006 [0].extra'],
  },
  {
    name: 'TST005 near: large finite number',
    tests: [{ _description: 'x', ids: [1e308, null] }],
    raw: [user('ids', 'array()')],
    findings: [],
  },

  // TST006: a key that names no user parameter
  { name: 'TST006 unknown key', tests: [{ ...ok, chain: 'eth' }], findings: ['TST006 [0].chain'] },
  { name: 'TST006 fixed parameter key', tests: [{ ...ok, module: 'account' }], findings: ['TST006 [0].module'] },
  { name: 'TST006 near: only user keys', tests: [{ ...ok }], findings: [] },

  // TST007: an enum that never varies
  { name: 'TST007 same enum value twice', tests: [ok, { ...ok, id: 'cd' }], findings: ['TST007 '] },
  { name: 'TST007 near: values vary', tests: [ok, { ...ok, order: 'desc' }], findings: [] },
  { name: 'TST007 near: shown once', tests: [ok, { _description: 'y', id: 'cd', limit: 1 }], findings: [] },
  {
    name: 'TST007 near: a one-value enum cannot vary',
    tests: [
      { _description: 'x', side: 'buy' },
      { _description: 'y', side: 'buy' },
    ],
    raw: [user('side', 'enum(buy)')],
    findings: [],
  },

  // TST008: an optional parameter no test shows
  { name: 'TST008 optional never shown', tests: [{ _description: 'x', id: 'ab', limit: 1 }], findings: ['TST008 '] },
  { name: 'TST008 near: shown in one test', tests: [{ _description: 'x', id: 'ab', limit: 1 }, ok], findings: [] },
];

describe('checkRouteTests findings', () => {
  it.each(CASES)('$name', ({ tests, raw, findings }) => {
    expect(check(tests, raw).findings).toEqual(findings);
  });

  it('reports with severity, a message and a hint that says how to fix it', () => {
    const sink = new FindingSink('t.mjs');
    checkRouteTests(
      [{ _description: 'x', n: '5' }],
      TESTS,
      [
        {
          key: 'n',
          location: 'query',
          source: { kind: 'user' },
          type: { kind: 'number' },
          optional: false,
          handlerOnly: false,
        },
      ],
      sink,
    );
    expect(sink.findings).toEqual([
      {
        code: 'TST004',
        severity: 'error',
        file: 't.mjs',
        path: `${TESTS}[0].n`,
        message: '`n` "5" is not a finite number',
        hint: 'write a value the parameter accepts, as the caller would send it: numbers and booleans without quotes',
      },
    ]);
  });
});

describe('returned tests', () => {
  it('are the objects with a string _description, in order', () => {
    const second = { _description: 'second', id: 'cd', limit: 2 };
    const { returned, findings } = check([ok, null, 'x', [], { id: 'ab' }, { _description: 3 }, second]);
    expect(returned).toEqual([ok, second]);
    // Ajv reported the malformed ones (TST002); they are not judged again.
    expect(findings).toEqual([]);
  });

  it.each([[undefined], [{}], ['tests']])('non-array tests %j yield nothing and no findings', (tests) => {
    expect(check(tests)).toEqual({ returned: [], findings: [] });
  });
});
