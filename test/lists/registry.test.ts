// The registry: every list of a folder, unique names, dependencies (pin, condition, cycles, depth).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadListRegistry, MAX_DEPTH } from '../../src/lists/registry.js';
import { codesOf, listFile, registryOf, type ListSpec } from './helpers.js';

const COUNTRIES: ListSpec = {
  name: 'countries',
  version: '2.0.0',
  fields: [{ key: 'code', type: 'string' }],
  entries: [{ code: 'de' }, { code: 'at' }],
};
const dependent = (name: string, dependsOn: unknown[]): ListSpec => ({ name, dependsOn });

describe('dependsOn', () => {
  it('loads a list whose parent, pin and condition hold', () => {
    const registry = registryOf(
      COUNTRIES,
      dependent('states', [{ ref: 'countries', version: '2.0.0', condition: { field: 'code', value: 'de' } }]),
    );
    expect(registry.findings).toEqual([]);
    expect([...registry.lists.keys()]).toEqual(['countries', 'states']);
  });

  it.each([
    [
      'an unknown parent',
      [{ ref: 'regions', version: '1.0.0' }],
      'LST009 list.meta.dependsOn[0].ref',
      "no list is named 'regions'",
    ],
    [
      'a pin that is not the loaded version',
      [{ ref: 'countries', version: '1.0.0' }],
      'LST009 list.meta.dependsOn[0].version',
      'pins countries@1.0.0, but the loaded countries is 2.0.0',
    ],
    [
      'a condition no parent entry meets',
      [{ ref: 'countries', version: '2.0.0', condition: { field: 'code', value: 'fr' } }],
      'LST009 list.meta.dependsOn[0].condition',
      'no entry of countries has code === "fr"',
    ],
    [
      'a condition of another type',
      [{ ref: 'countries', version: '2.0.0', condition: { field: 'code', value: 1 } }],
      'LST009 list.meta.dependsOn[0].condition',
      'no entry of countries has code === 1',
    ],
    [
      'a malformed dependency',
      [{ ref: 'countries' }],
      'LST009 list.meta.dependsOn[0].version',
      '`version` is not an exact semver pin',
    ],
  ])('rejects %s (LST009)', (_name, dependsOn, finding, message) => {
    const registry = registryOf(COUNTRIES, dependent('states', dependsOn));
    expect(codesOf(registry.findings)).toEqual([finding]);
    expect(registry.findings[0]?.message).toBe(message);
    expect([...registry.lists.keys()]).toEqual(['countries']);
  });

  it('rejects a list whose parent has errors, naming it', () => {
    const registry = registryOf(
      { ...COUNTRIES, version: 'two' },
      dependent('states', [{ ref: 'countries', version: '2.0.0' }]),
    );
    expect(codesOf(registry.findings)).toEqual(['LST003 list.meta.version', 'LST009 list.meta.dependsOn[0].ref']);
    expect(registry.findings[1]?.message).toBe("the list 'countries' has errors and is not loaded");
    expect(registry.lists.size).toBe(0);
  });

  it('rejects every list of a cycle (LST010), and what depends on it (LST009)', () => {
    const registry = registryOf(
      dependent('alpha', [{ ref: 'beta', version: '1.0.0' }]),
      dependent('beta', [{ ref: 'gamma', version: '1.0.0' }]),
      dependent('gamma', [{ ref: 'alpha', version: '1.0.0' }]),
      dependent('delta', [{ ref: 'alpha', version: '1.0.0' }]),
    );
    expect(codesOf(registry.findings)).toEqual([
      'LST010 list.meta.dependsOn[0]',
      'LST010 list.meta.dependsOn[0]',
      'LST010 list.meta.dependsOn[0]',
      'LST009 list.meta.dependsOn[0].ref',
    ]);
    expect(registry.findings[0]?.message).toBe('dependency cycle: alpha → beta → gamma → alpha');
    expect(registry.lists.size).toBe(0);
  });

  it('rejects a list that depends on itself (LST010)', () => {
    expect(codesOf(registryOf(dependent('alpha', [{ ref: 'alpha', version: '1.0.0' }])).findings)).toEqual([
      'LST010 list.meta.dependsOn[0]',
    ]);
  });

  it(`accepts ${MAX_DEPTH} levels (a root list is level 1) and rejects a 4th (LST011)`, () => {
    const chain = [
      dependent('one', []),
      dependent('two', [{ ref: 'one', version: '1.0.0' }]),
      dependent('three', [{ ref: 'two', version: '1.0.0' }]),
    ];
    expect(registryOf(...chain).findings).toEqual([]);
    const registry = registryOf(
      ...chain,
      dependent('four', [{ ref: 'three', version: '1.0.0' }]),
      dependent('five', [{ ref: 'four', version: '1.0.0' }]),
    );
    expect(codesOf(registry.findings)).toEqual(['LST011 list.meta.dependsOn', 'LST009 list.meta.dependsOn[0].ref']);
    expect(registry.findings[0]?.file).toBe('four.mjs');
    expect([...registry.lists.keys()]).toEqual(['one', 'two', 'three']);
  });

  it('counts the deepest parent: a list with a root parent and a level-3 parent is level 4', () => {
    const registry = registryOf(
      dependent('one', []),
      dependent('two', [{ ref: 'one', version: '1.0.0' }]),
      dependent('three', [{ ref: 'two', version: '1.0.0' }]),
      dependent('mixed', [
        { ref: 'one', version: '1.0.0' },
        { ref: 'three', version: '1.0.0' },
      ]),
    );
    expect(codesOf(registry.findings)).toEqual(['LST011 list.meta.dependsOn']);
  });
});

describe('names', () => {
  it('gives the name to the first file and LST002 to the second', () => {
    const registry = registryOf(COUNTRIES, { ...COUNTRIES, version: '3.0.0' });
    expect(codesOf(registry.findings)).toEqual(['LST002 list.meta.name']);
    expect(registry.lists.get('countries')?.version).toBe('2.0.0');
  });
});

describe('loadListRegistry', () => {
  const dir = mkdtempSync(join(tmpdir(), 'flowguard-lists-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads every .mjs of the folder recursively, in file order', () => {
    mkdirSync(join(dir, 'geo'));
    const countries = listFile(COUNTRIES);
    writeFileSync(join(dir, 'geo', countries.file), countries.text);
    const codes = listFile({ name: 'codes' });
    writeFileSync(join(dir, codes.file), codes.text);
    const registry = loadListRegistry(dir);
    expect(registry.files).toEqual([join(dir, codes.file), join(dir, 'geo', countries.file)]);
    expect([...registry.lists.keys()]).toEqual(['codes', 'countries']);
    expect(registry.lists.get('countries')?.file).toBe(join(dir, 'geo', countries.file));
  });

  it('treats a missing folder as an empty registry', () => {
    expect(loadListRegistry(join(dir, 'missing'))).toEqual({ lists: new Map(), findings: [], files: [] });
  });

  it('loads the bundled lists without a finding', () => {
    const registry = loadListRegistry(join(import.meta.dirname, '..', '..', 'shared-lists'));
    expect(registry.findings).toEqual([]);
    expect([...registry.lists.keys()]).toEqual(['evmChains', 'isoCountryCodes', 'tradingTimeframes']);
  });
});
