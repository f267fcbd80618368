// The rules of one list file's data: meta, field definitions, entries against them.

import { describe, expect, it } from 'vitest';
import { checkListText } from '../../src/lists/check.js';
import { kebabCase } from '../../src/lists/rules.js';
import { checkSpec, codesOf, listFile } from './helpers.js';

const FIELDS = [
  { key: 'alias', type: 'string' },
  { key: 'chainId', type: 'number' },
  { key: 'isTestnet', type: 'boolean', optional: true },
];

describe('a well-formed list', () => {
  it('is read into its typed, frozen form', () => {
    const { list, sink } = checkSpec({
      name: 'evmChains',
      fields: FIELDS,
      entries: [
        { alias: 'ETH', chainId: 1, isTestnet: false },
        { alias: 'SEP', chainId: 11155111 },
      ],
    });
    expect(sink.findings).toEqual([]);
    expect(list).toMatchObject({ name: 'evmChains', version: '1.0.0', file: 'evm-chains.mjs', dependsOn: [] });
    expect(list?.fields.map((field) => [field.key, field.type, field.optional])).toEqual([
      ['alias', 'string', false],
      ['chainId', 'number', false],
      ['isTestnet', 'boolean', true],
    ]);
    expect(Object.isFrozen(list?.entries[0])).toBe(true);
    expect(Object.isFrozen(list?.fields)).toBe(true);
  });
});

describe('LST rules', () => {
  it.each([
    ['name not camelCase (LST002)', { name: 'EvmChains' }, ['LST002 list.meta.name']],
    ['version not semver (LST003)', { name: 'evmChains', version: '2.0' }, ['LST003 list.meta.version']],
    ['no fields (LST004)', { name: 'evmChains', fields: [] }, ['LST004 list.meta.fields']],
    [
      'field type integer (LST004)',
      { name: 'evmChains', fields: [{ key: 'chainId', type: 'integer' }] },
      ['LST004 list.meta.fields[0].type'],
    ],
    [
      'field key not an identifier (LST004)',
      { name: 'evmChains', fields: [{ key: 'chain id', type: 'string' }], entries: [{ 'chain id': 'x' }] },
      ['LST004 list.meta.fields[0].key'],
    ],
    [
      'two fields with one key (LST004)',
      {
        name: 'evmChains',
        fields: [
          { key: 'code', type: 'string' },
          { key: 'code', type: 'number' },
        ],
      },
      ['LST004 list.meta.fields[1].key'],
    ],
    ['no entries (LST006)', { name: 'evmChains', entries: [] }, ['LST006 list.entries']],
    [
      'an entry that is no object (LST006)',
      { name: 'evmChains', entries: [{ code: 'a' }, 'b'] },
      ['LST006 list.entries[1]'],
    ],
    [
      'required field missing (LST007)',
      { name: 'evmChains', fields: FIELDS, entries: [{ alias: 'ETH' }] },
      ['LST007 list.entries[0]'],
    ],
    [
      "'1' for a number (LST008)",
      { name: 'evmChains', fields: FIELDS, entries: [{ alias: 'ETH', chainId: '1' }] },
      ['LST008 list.entries[0].chainId'],
    ],
    [
      'null for a required field (LST008)',
      { name: 'evmChains', fields: FIELDS, entries: [{ alias: null, chainId: 1 }] },
      ['LST008 list.entries[0].alias'],
    ],
    [
      'an array value (LST008)',
      { name: 'evmChains', fields: FIELDS, entries: [{ alias: ['ETH'], chainId: 1 }] },
      ['LST008 list.entries[0].alias'],
    ],
    [
      'an unknown key (LST012)',
      { name: 'evmChains', fields: FIELDS, entries: [{ alias: 'ETH', chainId: 1, rpc: 'x' }] },
      ['LST012 list.entries[0].rpc'],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(codesOf(checkSpec(spec).sink.findings)).toEqual(expected);
  });

  it('accepts null and absence for optional fields', () => {
    const { sink } = checkSpec({
      name: 'evmChains',
      fields: FIELDS,
      entries: [
        { alias: 'A', chainId: 1, isTestnet: null },
        { alias: 'B', chainId: 2 },
      ],
    });
    expect(sink.findings).toEqual([]);
  });

  it('warns (LST005) about a field without description, and the list still loads', () => {
    const text = `export const list = { meta: { name: 'codes', version: '1.0.0', description: 'Codes.', fields: [{ key: 'code', type: 'string', optional: false }] }, entries: [{ code: 'a' }] };`;
    const { sink, list } = checkListText('codes.mjs', text);
    expect(sink.findings.map((f) => [f.code, f.severity])).toEqual([['LST005', 'warning']]);
    expect(list?.fields[0]?.description).toBe('');
  });

  it('reports a field key that cannot become text (an object whose toString is no function) without throwing', () => {
    // Found by the property test of random list objects (test/fuzz.test.ts).
    const text = `export const list = ${JSON.stringify({ meta: { fields: [{ key: { toString: 0 } }] } })}\n`;
    expect(codesOf(checkListText('codes.mjs', text).sink.findings)).toContain('LST005 list.meta.fields[0]');
  });

  it('reports unknown fields of list, meta and field definitions (LST001, LST004)', () => {
    const text = `export const list = { meta: { name: 'codes', version: '1.0.0', description: 'Codes.', owner: 'x', fields: [{ key: 'code', type: 'string', description: 'A code.', unique: true }] }, entries: [{ code: 'a' }], extra: 1 };`;
    expect(codesOf(checkListText('codes.mjs', text).sink.findings)).toEqual([
      'LST001 list.extra',
      'LST001 list.meta.owner',
      'LST004 list.meta.fields[0].unique',
    ]);
  });

  it('reports a list that is not an object, or has no meta or entries (LST001)', () => {
    expect(codesOf(checkListText('codes.mjs', 'export const list = [];').sink.findings)).toEqual(['LST001 list']);
    expect(codesOf(checkListText('codes.mjs', 'export const list = {};').sink.findings)).toEqual([
      'LST001 list.meta',
      'LST001 list.entries',
    ]);
  });

  it('warns (LST013) when the file name is not the kebab-case of the name', () => {
    const { text } = listFile({ name: 'evmChains' });
    const { sink, list } = checkListText('shared-lists/evmchains.mjs', text);
    expect(codesOf(sink.findings)).toEqual(['LST013 list.meta.name']);
    expect(sink.findings[0]?.hint).toBe('name the file evm-chains.mjs');
    expect(list).not.toBeNull();
    expect(kebabCase('isoCountryCodes')).toBe('iso-country-codes');
    expect(kebabCase('erc20Tokens')).toBe('erc20-tokens');
  });

  it('positions findings where they were written', () => {
    const text =
      "export const list = {\n  meta: { name: 'codes', version: '1.0.0', description: 'Codes.', fields: [{ key: 'n', type: 'number', description: 'N.' }] },\n  entries: [\n    { n: '1' }\n  ]\n};\n";
    expect(checkListText('codes.mjs', text).sink.findings[0]).toMatchObject({ code: 'LST008', line: 4, column: 10 });
  });
});
