// A catalog's lists folder read on request (openListFolder): only the files of the lists asked
// for and of their parents, the file named after a list first, every file only for a name that
// no such file declares; the same owner of a name as `validate`'s full registry; SEC207 past
// the size limit.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadListRegistry, openListFolder } from '../../src/lists/registry.js';
import { codesOf, listFile, type ListSpec } from './helpers.js';

const COUNTRIES: ListSpec = { name: 'countries', version: '2.0.0', entries: [{ code: 'de' }, { code: 'at' }] };
const STATES: ListSpec = {
  name: 'states',
  dependsOn: [{ ref: 'countries', version: '2.0.0', condition: { field: 'code', value: 'de' } }],
};
const COLORS: ListSpec = { name: 'colors' };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'flowguard-lists-on-request-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Writes the spec's list file into `dir` (under `as`, when given) and returns its path. */
function write(spec: ListSpec, as?: string): string {
  const { file, text } = listFile(spec);
  const path = join(dir, as ?? file);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** A file no parser accepts: any attempt to check it shows as SEC016. */
function writeBroken(name: string): string {
  const path = join(dir, name);
  writeFileSync(path, 'export const list = {');
  return path;
}

describe('openListFolder', () => {
  it('reads the file of the list asked for and of its parents, and no other', () => {
    const countries = write(COUNTRIES);
    const states = write(STATES);
    writeBroken('broken.mjs');
    write(COLORS);
    const folder = openListFolder(dir);
    expect(folder.files).toEqual([]);
    expect(folder.lists.get('states')?.entries).toEqual([{ code: 'a' }]);
    expect(folder.files).toEqual([countries, states]);
    expect(folder.findings).toEqual([]);
    expect([...folder.lists.keys()]).toEqual(['countries', 'states']);
  });

  it('finds a list whose file is named otherwise by checking every file, once', () => {
    const palette = write(COLORS, 'palette.mjs');
    const broken = writeBroken('broken.mjs');
    const folder = openListFolder(dir);
    expect(folder.lists.get('colors')?.file).toBe(palette);
    expect(folder.files).toEqual([broken, palette]);
    expect(codesOf(folder.findings)).toEqual(['SEC016', 'LST013 list.meta.name']);
    expect(folder.lists.get('nothing')).toBeUndefined();
    expect(folder.findings).toHaveLength(2);
  });

  it('once it has read every file, holds and reports what validate does', () => {
    write(COUNTRIES);
    write(STATES);
    write(COLORS, 'palette.mjs');
    write({ name: 'alpha', dependsOn: [{ ref: 'beta', version: '1.0.0' }] });
    write({ name: 'beta', dependsOn: [{ ref: 'alpha', version: '1.0.0' }] });
    write({ ...COUNTRIES, version: '3.0.0' }, join('more', 'countries.mjs'));
    const folder = openListFolder(dir);
    folder.lists.get('colors');
    const everything = loadListRegistry(dir);
    expect({ lists: new Map(folder.lists), findings: folder.findings, files: folder.files }).toEqual(everything);
    expect([...everything.lists.keys()]).toEqual(['countries', 'colors', 'states']);
  });

  it('gives a name to the file named after it without reading the others, as validate does (LST002)', () => {
    const misnamed = write({ ...COLORS, version: '2.0.0' }, 'a-colors.mjs');
    const named = write(COLORS);
    const folder = openListFolder(dir);
    expect(folder.lists.get('colors')?.version).toBe('1.0.0');
    expect(folder.files).toEqual([named]);

    const everything = loadListRegistry(dir);
    expect(everything.lists.get('colors')?.version).toBe('1.0.0');
    expect(everything.findings.map((f) => `${f.code} ${f.file}`)).toEqual([`LST013 ${misnamed}`, `LST002 ${misnamed}`]);
    expect(everything.findings[1]?.message).toBe(`the list name 'colors' is already taken by ${named}`);
  });

  it('reports LST002 between two files named after one list', () => {
    const first = write(COLORS);
    const second = write({ ...COLORS, version: '2.0.0' }, join('more', 'colors.mjs'));
    const folder = openListFolder(dir);
    expect(folder.lists.get('colors')?.file).toBe(first);
    expect(folder.findings.map((f) => `${f.code} ${f.file}`)).toEqual([`LST002 ${second}`]);
  });

  it('reports LST002 on a duplicate read later for another name', () => {
    write(COLORS);
    const stray = write(COLORS, 'palette.mjs');
    const folder = openListFolder(dir);
    folder.lists.get('colors');
    expect(folder.findings).toEqual([]);
    expect(folder.lists.get('palette')).toBeUndefined();
    expect(folder.findings.map((f) => `${f.code} ${f.file}`)).toEqual([`LST013 ${stray}`, `LST002 ${stray}`]);
  });

  it('resolves dependencies on request: a parent in a cycle fails the list that needs it', () => {
    write({ name: 'alpha', dependsOn: [{ ref: 'beta', version: '1.0.0' }] });
    write({ name: 'beta', dependsOn: [{ ref: 'alpha', version: '1.0.0' }] });
    write({ name: 'delta', dependsOn: [{ ref: 'alpha', version: '1.0.0' }] });
    const folder = openListFolder(dir);
    expect(folder.lists.get('delta')).toBeUndefined();
    expect(codesOf(folder.findings)).toEqual(['LST010 list.meta.dependsOn[0]', 'LST009 list.meta.dependsOn[0].ref']);
    expect(folder.lists.size).toBe(0);
  });

  it('leaves a list file past maxFileBytes unparsed (SEC207), naming its size, the limit and the setting', () => {
    const big = write({ ...COLORS, entries: Array.from({ length: 100 }, (_, i) => ({ code: `c${i}` })) });
    const folder = openListFolder(dir, { maxFileBytes: 1024 });
    expect(folder.lists.get('colors')).toBeUndefined();
    expect(folder.files).toEqual([big]);
    const [finding] = folder.findings;
    expect(finding?.code).toBe('SEC207');
    expect(finding?.message).toMatch(
      /^the file is \d{4} bytes \(\d+\.?\d* KiB\); the limit \(limits\.maxFileBytes\) is 1024 bytes \(1 KiB\), so the file was not parsed$/,
    );
    expect(openListFolder(dir).lists.get('colors')?.entries).toHaveLength(100);
  });

  it('fingerprints every file without parsing any, so a change to any of them shows to the next load', () => {
    const colors = write(COLORS);
    writeBroken('broken.mjs');
    const folder = openListFolder(dir);
    const before = folder.fingerprint();
    expect(before).toHaveLength(2);
    expect(folder.files).toEqual([]);
    writeFileSync(colors, listFile({ ...COLORS, entries: [{ code: 'b' }] }).text);
    expect(openListFolder(dir).fingerprint()).not.toEqual(before);
  });

  it('checks a list from the bytes its fingerprint read, not from the file changed since', () => {
    const colors = write(COLORS);
    const folder = openListFolder(dir);
    const fingerprint = folder.fingerprint();
    writeFileSync(colors, listFile({ ...COLORS, entries: [{ code: 'b' }] }).text);
    // A check cache keyed on this fingerprint must hold the check of the version it names.
    expect(folder.lists.get(COLORS.name)?.entries).toEqual([{ code: 'a' }]);
    expect(folder.fingerprint()).toEqual(fingerprint);
  });
});
