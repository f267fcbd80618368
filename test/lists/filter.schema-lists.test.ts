// A schema against the loaded lists: references resolved (VAL072–VAL074), filters applied,
// enums interpolated (VAL049), the entries frozen for handlers.

import { describe, expect, it } from 'vitest';
import { applyFilter } from '../../src/lists/filter.js';
import type { ListEntry, ListRegistry } from '../../src/lists/types.js';
import { effectiveAllowlist } from '../../src/libraries/allowlist.js';
import { checkSchemaText } from '../../src/schema/check.js';
import type { ListFilter } from '../../src/lists/types.js';
import { codesOf, registryOf } from './helpers.js';

const CHAINS = registryOf({
  name: 'evmChains',
  version: '2.0.0',
  fields: [
    { key: 'alias', type: 'string' },
    { key: 'chainId', type: 'number' },
    { key: 'isTestnet', type: 'boolean' },
    { key: 'etherscanAlias', type: 'string', optional: true },
  ],
  entries: [
    { alias: 'ETHEREUM_MAINNET', chainId: 1, isTestnet: false, etherscanAlias: 'ETH' },
    { alias: 'SEPOLIA_TESTNET', chainId: 11155111, isTestnet: true, etherscanAlias: 'SEPOLIA' },
    { alias: 'BASE_MAINNET', chainId: 8453, isTestnet: false },
    { alias: 'OP_MAINNET', chainId: 10, isTestnet: false, etherscanAlias: 'ETH' },
    { alias: 'POLYGON_MAINNET', chainId: 137, isTestnet: false, etherscanAlias: null },
  ],
});

interface SchemaSpec {
  sharedLists?: unknown[];
  primitive?: string;
  options?: string[];
  tests?: unknown[];
  value?: string;
}

function schemaText({
  sharedLists = [{ ref: 'evmChains', version: '2.0.0' }],
  primitive = 'enum({{evmChains:alias}})',
  options = [],
  tests,
  value = '{{USER_PARAM}}',
}: SchemaSpec): string {
  const main = {
    namespace: 'example',
    name: 'ExampleApi',
    description: 'Balances on many chains.',
    version: '2.0.0',
    root: 'https://api.example.com',
    sharedLists,
    routes: {
      getBalance: {
        method: 'GET',
        path: '/balance',
        description: 'A balance on one chain.',
        parameters: [{ position: { key: 'chain', value, location: 'query' }, z: { primitive, options } }],
        output: { mimeType: 'application/json', schema: { type: 'object' } },
        tests:
          tests ??
          (value === '{{USER_PARAM}}'
            ? [{ _description: 'mainnet', chain: 'ETHEREUM_MAINNET' }]
            : [{ _description: 'fixed' }]),
      },
    },
  };
  return `export const main = ${JSON.stringify(main)};\n`;
}

/** `lists` null: checked without a registry, as unit tests of other stages are. */
function check(spec: SchemaSpec, lists: ListRegistry | null = CHAINS) {
  const result = checkSchemaText('example.mjs', schemaText(spec), {
    allowedLibraries: effectiveAllowlist([]),
    lists: lists ?? undefined,
  });
  return { ...result, codes: codesOf(result.findings.filter((f) => f.severity !== 'info')) };
}

function enumValues(spec: SchemaSpec): string[] | undefined {
  const type = check(spec).schema?.routes[0]?.parameters[0]?.type;
  return type?.kind === 'enum' ? type.values : undefined;
}

describe('filters', () => {
  const entries = CHAINS.lists.get('evmChains')?.entries ?? [];
  const aliases = (filter: ListFilter | undefined) => applyFilter(entries, filter).map((entry) => entry.alias);

  it.each<[string, ListFilter | undefined, string[]]>([
    [
      'no filter keeps every entry',
      undefined,
      ['ETHEREUM_MAINNET', 'SEPOLIA_TESTNET', 'BASE_MAINNET', 'OP_MAINNET', 'POLYGON_MAINNET'],
    ],
    [
      'value: strict equality',
      { key: 'isTestnet', value: false },
      ['ETHEREUM_MAINNET', 'BASE_MAINNET', 'OP_MAINNET', 'POLYGON_MAINNET'],
    ],
    ['value: no type coercion', { key: 'chainId', value: '1' }, []],
    [
      'exists: present and not null',
      { key: 'etherscanAlias', exists: true },
      ['ETHEREUM_MAINNET', 'SEPOLIA_TESTNET', 'OP_MAINNET'],
    ],
    ['in: membership', { key: 'chainId', in: [1, 137, 999] }, ['ETHEREUM_MAINNET', 'POLYGON_MAINNET']],
  ])('%s', (_name, filter, expected) => {
    expect(aliases(filter)).toEqual(expected);
  });

  it('hands handlers the filtered entries, deep-frozen: writes throw in strict mode', () => {
    const { schema } = check({
      sharedLists: [{ ref: 'evmChains', version: '2.0.0', filter: { key: 'isTestnet', value: true } }],
      tests: [{ _description: 'sepolia', chain: 'SEPOLIA_TESTNET' }],
    });
    const lists = schema?.resolvedLists ?? {};
    expect(lists.evmChains?.map((entry) => entry.alias)).toEqual(['SEPOLIA_TESTNET']);
    const entry = lists.evmChains?.[0] as Record<string, unknown>;
    expect(() => {
      entry.alias = 'MAINNET';
    }).toThrow(TypeError);
    expect(() => (lists.evmChains as ListEntry[]).push({})).toThrow(TypeError);
    expect(() => {
      (lists as Record<string, unknown>).other = [];
    }).toThrow(TypeError);
  });

  it('leaves resolvedLists empty without a registry', () => {
    expect(check({}, null).schema?.resolvedLists).toEqual({});
  });
});

describe('references against the registry', () => {
  it.each([
    [
      'a list that is not loaded (VAL072)',
      { sharedLists: [{ ref: 'evmChainz', version: '2.0.0' }] },
      [
        'VAL072 main.sharedLists[0].ref',
        'VAL048 main.routes.getBalance.parameters[0].z.primitive',
        'VAL075 main.sharedLists[0]',
      ],
    ],
    [
      'another version (VAL073)',
      { sharedLists: [{ ref: 'evmChains', version: '1.0.0' }] },
      ['VAL073 main.sharedLists[0].version'],
    ],
    [
      'a filter key that is no field (VAL074)',
      { sharedLists: [{ ref: 'evmChains', version: '2.0.0', filter: { key: 'testnet', value: false } }] },
      ['VAL074 main.sharedLists[0].filter.key'],
    ],
    [
      'a filter value of another type (VAL074)',
      { sharedLists: [{ ref: 'evmChains', version: '2.0.0', filter: { key: 'isTestnet', value: 'false' } }] },
      ['VAL074 main.sharedLists[0].filter.value'],
    ],
    [
      'an in-filter item of another type (VAL074)',
      { sharedLists: [{ ref: 'evmChains', version: '2.0.0', filter: { key: 'chainId', in: [1, '137'] } }] },
      ['VAL074 main.sharedLists[0].filter.in'],
    ],
    [
      'a ref written as a path (VAL070)',
      { sharedLists: [{ ref: 'lists/evm-chains', version: '2.0.0' }] },
      ['VAL070 main.sharedLists[0].ref', 'VAL048 main.routes.getBalance.parameters[0].z.primitive'],
    ],
    [
      'a field the list does not have (VAL049)',
      { primitive: 'enum({{evmChains:slug}})' },
      ['VAL049 main.routes.getBalance.parameters[0].z.primitive'],
    ],
  ])('reports %s', (_name, spec, expected) => {
    expect(check(spec).codes).toEqual(expected);
  });

  it('says which lists are loaded when a ref is not', () => {
    const finding = check({ sharedLists: [{ ref: 'evmChainz', version: '2.0.0' }] }).findings[0];
    expect(finding?.hint).toBe('loaded lists: evmChains');
  });

  it('suggests the list name for a ref written as a path', () => {
    const finding = check({ sharedLists: [{ ref: 'lists/evm-chains', version: '2.0.0' }] }).findings[0];
    expect(finding?.hint).toContain("'evmChains'?");
  });

  it('checks the form of refs only, without a registry', () => {
    expect(
      check({ sharedLists: [{ ref: 'nowhere', version: '9.9.9' }], primitive: 'enum({{nowhere:x}})' }, null).codes,
    ).toEqual([]);
  });
});

describe('interpolation', () => {
  it('puts static values first, then the field over the filtered entries in order, skipping absent and null, without repeats', () => {
    expect(
      enumValues({
        primitive: 'enum(custom,ETH,{{evmChains:etherscanAlias}})',
        tests: [{ _description: 'eth', chain: 'ETH' }],
      }),
    ).toEqual(['custom', 'ETH', 'SEPOLIA']);
    expect(
      enumValues({
        primitive: 'enum({{evmChains:alias}})',
        sharedLists: [{ ref: 'evmChains', version: '2.0.0', filter: { key: 'isTestnet', value: false } }],
      }),
    ).toEqual(['ETHEREUM_MAINNET', 'BASE_MAINNET', 'OP_MAINNET', 'POLYGON_MAINNET']);
  });

  it('turns numbers into text and joins several interpolations in order', () => {
    const values = enumValues({
      primitive: 'enum({{evmChains:chainId}},{{evmChains:etherscanAlias}})',
      tests: [{ _description: 'mainnet', chain: '1' }],
    });
    expect(values).toEqual(['1', '11155111', '8453', '10', '137', 'ETH', 'SEPOLIA']);
  });

  it('marks the enum resolved only with a registry', () => {
    const type = check({}, null).schema?.routes[0]?.parameters[0]?.type;
    expect(type).toEqual({
      kind: 'enum',
      values: [],
      lists: [{ list: 'evmChains', field: 'alias' }],
      listsResolved: false,
    });
    expect(check({}).schema?.routes[0]?.parameters[0]?.type).toMatchObject({ listsResolved: true });
  });

  it('checks tests against the interpolated values (TST004)', () => {
    const spec = {
      sharedLists: [{ ref: 'evmChains', version: '2.0.0', filter: { key: 'etherscanAlias', exists: true } }],
      tests: [
        { _description: 'base', chain: 'BASE_MAINNET' },
        { _description: 'mainnet', chain: 'ETHEREUM_MAINNET' },
      ],
    };
    expect(check(spec).codes).toEqual(['TST004 main.routes.getBalance.tests[0].chain']);
    expect(check(spec, null).codes).toEqual([]);
  });

  it('checks defaults and fixed values against the interpolated values (VAL056, VAL053)', () => {
    expect(check({ options: ['default(GOERLI)'] }).codes).toEqual([
      'VAL056 main.routes.getBalance.parameters[0].z.options[0]',
    ]);
    expect(check({ options: ['default(BASE_MAINNET)'] }).codes).toEqual([]);
    expect(check({ value: 'GOERLI' }).codes).toEqual(['VAL053 main.routes.getBalance.parameters[0].position.value']);
    expect(check({ value: 'OP_MAINNET' }).codes).toEqual([]);
  });

  it('reports an enum whose lists yield no values (VAL046)', () => {
    const spec = {
      sharedLists: [{ ref: 'evmChains', version: '2.0.0', filter: { key: 'chainId', in: [5] } }],
      tests: [{ _description: 'none' }],
    };
    expect(check(spec).codes).toContain('VAL046 main.routes.getBalance.parameters[0].z.primitive');
  });
});
