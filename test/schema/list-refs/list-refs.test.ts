import { describe, expect, it } from 'vitest';
import { FindingSink } from '../../../src/report/findings.js';
import { checkListRefs, checkListUsage } from '../../../src/schema/list-refs.js';
import type { CanonicalParam, CanonicalRoute, ListRef } from '../../../src/schema/types.js';

function check(raw: unknown) {
  const sink = new FindingSink('t.mjs');
  const refs = checkListRefs(raw, sink);
  return { refs, findings: sink.findings, codes: sink.findings.map((f) => [f.code, f.path]) };
}

const evmChains = { ref: 'evmChains', version: '2.0.0' };

describe('checkListRefs: VAL070 ref', () => {
  it.each<[string, string]>([
    ['lists/evm-chains', "'evmChains'?"],
    ['../x', "'x'?"],
    ['_lists/evm-chains.mjs', "'evmChains'?"],
    ['evm-chains.mjs', "'evmChains'?"],
  ])('says that %s is a path, not a list name', (ref, suggestion) => {
    const { refs, findings } = check([{ ref, version: '2.0.0' }]);
    expect(findings).toMatchObject([{ code: 'VAL070', severity: 'error', path: 'main.sharedLists[0].ref' }]);
    expect(findings[0]?.hint).toContain('list names, not paths');
    expect(findings[0]?.hint).toContain(suggestion);
    expect(refs).toEqual([]);
  });

  it.each(['evm-chains', '1inch', 'evm_chains', ''])('rejects %j', (ref) => {
    const { findings } = check([{ ref, version: '2.0.0' }]);
    expect(findings.map((f) => [f.code, f.path])).toEqual([['VAL070', 'main.sharedLists[0].ref']]);
    expect(findings[0]?.hint).not.toContain('not paths');
  });

  it.each(['evmChains', 'isoCountryCodes', 'EVMChains2'])('accepts %s', (ref) => {
    expect(check([{ ref, version: '2.0.0' }])).toMatchObject({ refs: [{ ref, version: '2.0.0' }], codes: [] });
  });

  it('reports the second declaration of a list, and keeps the first', () => {
    const { refs, findings } = check([
      evmChains,
      { ref: 'tradingExchanges', version: '2.0.0' },
      { ref: 'evmChains', version: '2.1.0' },
    ]);
    expect(findings.map((f) => [f.code, f.path])).toEqual([['VAL070', 'main.sharedLists[2].ref']]);
    expect(findings[0]?.hint).toContain('main.sharedLists[0].ref');
    expect(refs.map((r) => r.ref)).toEqual(['evmChains', 'tradingExchanges']);
  });
});

describe('checkListRefs: VAL071 version', () => {
  it.each(['2.0', 'v2.0.0', '^2.0.0', '2.0.0-beta', '2.x.0', ''])('rejects %j', (version) => {
    expect(check([{ ref: 'evmChains', version }])).toMatchObject({
      refs: [],
      codes: [['VAL071', 'main.sharedLists[0].version']],
    });
  });

  it('accepts major.minor.patch', () => {
    expect(check([{ ref: 'evmChains', version: '10.20.300' }]).codes).toEqual([]);
  });

  it('reports ref and version of one entry together', () => {
    expect(check([{ ref: 'a/b', version: '2' }]).codes).toEqual([
      ['VAL070', 'main.sharedLists[0].ref'],
      ['VAL071', 'main.sharedLists[0].version'],
    ]);
  });
});

describe('checkListRefs: VAL074 filter', () => {
  const FILTER = 'main.sharedLists[0].filter';
  const withFilter = (filter: unknown) => [{ ...evmChains, filter }];

  it.each<[string, unknown, string[]]>([
    ['exists: false', { key: 'alias', exists: false }, [`${FILTER}.exists`]],
    ['two conditions', { key: 'isTestnet', value: false, in: [false] }, [FILTER]],
    ['no condition', { key: 'isTestnet' }, [FILTER]],
    ['no key', { value: false }, [FILTER]],
    ['an empty key', { key: '', value: false }, [`${FILTER}.key`]],
    ['a key that is no string', { key: 3, value: false }, [`${FILTER}.key`]],
    ['a null value', { key: 'alias', value: null }, [`${FILTER}.value`]],
    ['an object value', { key: 'alias', value: { a: 1 } }, [`${FILTER}.value`]],
    ['an empty in', { key: 'alias', in: [] }, [`${FILTER}.in`]],
    ['an in that is no array', { key: 'alias', in: 'eth' }, [`${FILTER}.in`]],
    ['an in with a non-scalar', { key: 'alias', in: ['eth', ['bsc']] }, [`${FILTER}.in`]],
    ['an unknown field', { key: 'isTestnet', value: false, field: 'x' }, [`${FILTER}.field`]],
    ['the spec-02 field form', { field: 'isTestnet', value: false }, [`${FILTER}.field`, FILTER]],
  ])('rejects %s', (_, filter, paths) => {
    const { refs, codes } = check(withFilter(filter));
    expect(codes).toEqual(paths.map((path) => ['VAL074', path]));
    expect(refs).toEqual([]);
  });

  it.each<[string, unknown]>([
    ['exists', { key: 'etherscanAlias', exists: true }],
    ['value', { key: 'isTestnet', value: false }],
    ['in', { key: 'chainId', in: [1, 137, 'x', true] }],
  ])('accepts the %s form as its canonical filter', (_, filter) => {
    const { refs, codes } = check(withFilter(filter));
    expect(codes).toEqual([]);
    expect(refs).toEqual([{ ...evmChains, filter }]);
  });

  it('copies the in array', () => {
    const filter = { key: 'chainId', in: [1] };
    const { refs } = check(withFilter(filter));
    expect((refs[0]?.filter as { in: unknown[] }).in).not.toBe(filter.in);
  });
});

describe('checkListRefs: shape left to Ajv', () => {
  it.each<[string, unknown]>([
    ['sharedLists absent', undefined],
    ['sharedLists that is no array', { evmChains: '2.0.0' }],
    ['an entry that is no object', ['evmChains']],
    ['a ref that is no string', [{ ref: 1, version: '2.0.0' }]],
    ['a ref missing', [{ version: '2.0.0' }]],
    ['a version that is no string', [{ ref: 'evmChains', version: 2 }]],
    ['a filter that is no object', [{ ...evmChains, filter: 'isTestnet' }]],
  ])('skips %s silently', (_, raw) => {
    expect(check(raw)).toMatchObject({ refs: [], codes: [] });
  });

  it('keeps the good entries around a bad one', () => {
    const raw = [evmChains, 'junk', { ref: 'tradingTimeframes', version: '2.0.0' }];
    expect(check(raw)).toMatchObject({ refs: [evmChains, { ref: 'tradingTimeframes', version: '2.0.0' }], codes: [] });
  });
});

describe('checkListUsage: VAL075 unused list', () => {
  function param(key: string, lists: string[]): CanonicalParam {
    return {
      key,
      location: 'query',
      source: { kind: 'user' },
      type: { kind: 'enum', values: [], lists: lists.map((list) => ({ list, field: 'alias' })), listsResolved: false },
      optional: false,
      handlerOnly: false,
    };
  }

  function route(name: string, parameters: CanonicalParam[]): CanonicalRoute {
    return {
      name,
      method: 'GET',
      description: 'd',
      path: [{ kind: 'literal', text: '/x' }],
      pathHasQuery: false,
      parameters,
      tests: [],
    };
  }

  function usage(refs: ListRef[], routes: CanonicalRoute[], handlerSource: string | null) {
    const sink = new FindingSink('t.mjs');
    checkListUsage(refs, routes, handlerSource, sink);
    return sink.findings;
  }

  const refs: ListRef[] = [evmChains, { ref: 'tradingExchanges', version: '2.0.0' }];
  const plain = route('getPlain', [param('q', [])]);

  it('warns for each list that no enum and no handler uses', () => {
    expect(usage(refs, [plain], null)).toMatchObject([
      { code: 'VAL075', severity: 'warning', path: 'main.sharedLists[0]' },
      { code: 'VAL075', severity: 'warning', path: 'main.sharedLists[1]' },
    ]);
  });

  it('accepts a list interpolated in an enum of any route', () => {
    const findings = usage(refs, [plain, route('getChain', [param('chain', ['evmChains'])])], null);
    expect(findings.map((f) => [f.code, f.path])).toEqual([['VAL075', 'main.sharedLists[1]']]);
  });

  it.each([
    '({ sharedLists }) => ({ getPlain: { postRequest: async ({ response }) => ({ response: sharedLists.evmChains }) } })',
    "({ sharedLists }) => { const chains = sharedLists['evmChains']; return {} }",
    '({ sharedLists: { evmChains } }) => ({})',
  ])('accepts a list the handlers name: %s', (source) => {
    expect(usage([evmChains], [plain], source)).toEqual([]);
  });

  it.each([
    '({ sharedLists }) => ({ x: sharedLists.evmChainsTestnet })',
    '({ sharedLists }) => ({ x: sharedLists.myevmChains })',
    '({ sharedLists }) => ({ x: sharedLists.evmChains$ })',
  ])('does not count a longer word: %s', (source) => {
    expect(usage([evmChains], [plain], source).map((f) => f.code)).toEqual(['VAL075']);
  });

  it('reports at the index the list was declared at', () => {
    const sink = new FindingSink('t.mjs');
    const declared = checkListRefs([{ ref: 'bad/ref', version: '2.0.0' }, evmChains], sink);
    checkListUsage(declared, [plain], null, sink);
    expect(sink.findings.map((f) => [f.code, f.path])).toEqual([
      ['VAL070', 'main.sharedLists[0].ref'],
      ['VAL075', 'main.sharedLists[1]'],
    ]);
  });
});
