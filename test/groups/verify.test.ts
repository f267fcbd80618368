// Groups (src/groups/groups-file.ts, verify.ts, write.ts): reading and checking
// `.flowmcp/groups.json`, selecting a group for serving, building and writing one. Real catalogs
// from real schema files; the per-code trigger/near cases live in test/fixtures/codes/GRP*/
// (test/codes.test.ts).

import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkGroups, groupsFindings, selectGroup } from '../../src/groups/verify.js';
import { buildGroup, withGroup, writeGroupsFile } from '../../src/groups/write.js';
import { groupsFilePath, parseGroupsText, readGroupsFile } from '../../src/groups/groups-file.js';
import { TOOL_REFERENCE_PATTERN } from '../../src/groups/shape.js';
import { Catalog } from '../../src/runtime/catalog.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'codes', 'GRP006');
const SEARCH = 'example/things.mjs::searchThings';
const GET = 'example/things.mjs::getThing';
const work = mkdtempSync(join(tmpdir(), 'flowguard-groups-'));

/** A project folder with a copy of the fixture schemas, changed by `edit` if given. */
function project(name: string, edit?: (text: string) => string): string {
  const dir = join(work, name);
  cpSync(join(FIXTURE, 'schemas'), join(dir, 'schemas'), { recursive: true });
  if (edit) {
    const file = join(dir, 'schemas', 'example', 'things.mjs');
    writeFileSync(file, edit(readFileSync(file, 'utf8')));
  }
  return dir;
}

const load = (dir: string) => Catalog.load({ schemas: join(dir, 'schemas'), project: dir, env: {} });
const codes = (findings: ReadonlyArray<{ code: string }>) => findings.map((f) => f.code);

let catalog: Catalog;
let recorded: string;
beforeAll(async () => {
  catalog = await load(project('base'));
  recorded = readFileSync(join(FIXTURE, 'near.groups.json'), 'utf8');
});
afterAll(async () => {
  await catalog.close();
  rmSync(work, { recursive: true, force: true });
});

describe('reading groups.json', () => {
  it('treats a missing file as no groups, without findings', () => {
    const file = readGroupsFile(join(work, 'nowhere', '.flowmcp', 'groups.json'));
    expect(file).toMatchObject({ exists: false, findings: [], groups: [] });
  });

  it('reports text that is not JSON as GRP007 at its line and column', () => {
    const file = parseGroupsText('groups.json', '{\n  "specVersion": "2.0.0",\n  "groups": {},\n}\n');
    expect(file.findings).toHaveLength(1);
    expect(file.findings[0]).toMatchObject({ code: 'GRP007', file: 'groups.json', line: 4, column: 1 });
  });

  it.each([
    ['an array', '[]', ''],
    ['a wrong specVersion', '{ "specVersion": "1.0.0", "groups": {} }', 'specVersion'],
    ['groups as an array', '{ "specVersion": "2.0.0", "groups": [] }', 'groups'],
    ['an unknown top-level key', '{ "specVersion": "2.0.0", "groups": {}, "group": {} }', 'group'],
  ])('reports %s as GRP007 of the file', (_what, text, path) => {
    const file = parseGroupsText('groups.json', text);
    expect(codes(file.findings)).toEqual(['GRP007']);
    if (path) expect(file.findings[0]?.path).toBe(path);
  });

  it('reports every problem of every group together, each with its path and position', () => {
    const text = JSON.stringify(
      {
        specVersion: '2.0.0',
        groups: {
          Bad_Name: { description: 'x', tools: [], hash: null },
          broken: { description: 7, tools: ['nope', SEARCH, SEARCH, 42], hash: 'md5:abc', extra: true },
        },
      },
      null,
      2,
    );
    const file = parseGroupsText('groups.json', text);
    const findings = groupsFindings(checkGroups(file));
    expect(findings.map((f) => `${f.code} ${f.path}`)).toEqual([
      'GRP001 groups.Bad_Name',
      'GRP007 groups.broken.extra',
      'GRP007 groups.broken.description',
      'GRP003 groups.broken.tools[0]',
      'GRP005 groups.broken.tools[2]',
      'GRP003 groups.broken.tools[3]',
      'GRP007 groups.broken.hash',
    ]);
    const tools2 = findings.find((f) => f.path === 'groups.broken.tools[2]');
    expect(text.split('\n')[(tools2?.line ?? 0) - 1]?.slice((tools2?.column ?? 1) - 1)).toBe(`"${SEARCH}",`);
  });

  it('names a group written twice (JSON would keep only the last)', () => {
    const file = parseGroupsText(
      'groups.json',
      '{ "specVersion": "2.0.0", "groups": { "a": { "description": "", "tools": [], "hash": null }, "a": { "description": "", "tools": [], "hash": null } } }',
    );
    expect(groupsFindings(checkGroups(file)).map((f) => `${f.code} ${f.path}`)).toEqual(['GRP007 groups.a']);
  });

  it('never throws on hostile JSON: deep nesting, __proto__ keys, huge numbers', () => {
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    for (const text of [
      `{ "specVersion": "2.0.0", "groups": {}, "x": ${deep} }`,
      `{ "specVersion": "2.0.0", "groups": { "__proto__": { "description": "", "tools": [], "hash": null } } }`,
      `{ "specVersion": "2.0.0", "groups": { "a": { "description": "", "tools": [1e999], "hash": null } } }`,
      `${deep}`,
    ]) {
      const file = parseGroupsText('groups.json', text);
      expect(groupsFindings(checkGroups(file, catalog)).length).toBeGreaterThan(0);
    }
  });
});

it('reads references to 4.x namespaces (digits and hyphens) as tool references', () => {
  expect(TOOL_REFERENCE_PATTERN.test('open-meteo2/forecast.mjs::getForecast')).toBe(true);
  expect(TOOL_REFERENCE_PATTERN.test('coingecko/prices.mjs::getSimplePrice')).toBe(true);
  expect(TOOL_REFERENCE_PATTERN.test('-bad/prices.mjs::x')).toBe(false);
  expect(TOOL_REFERENCE_PATTERN.test('Upper/prices.mjs::x')).toBe(false);
});

describe('checkGroups against a catalog', () => {
  it('finds nothing wrong with a group recorded from the catalog as it is', () => {
    const report = checkGroups(parseGroupsText('groups.json', recorded), catalog);
    expect(groupsFindings(report)).toEqual([]);
    expect(report.groups.map((group) => [group.name, group.ok, group.tools.map((tool) => tool.reference)])).toEqual([
      ['things', true, [SEARCH, GET]],
    ]);
  });

  it('names the ambiguous reference two files of one base name share (GRP004)', async () => {
    const dir = project('twins');
    cpSync(join(dir, 'schemas', 'example'), join(dir, 'schemas', 'more'), { recursive: true });
    const twins = await load(dir);
    try {
      const findings = groupsFindings(checkGroups(parseGroupsText('groups.json', recorded), twins));
      expect(codes(findings)).toEqual(['GRP004', 'GRP004']);
      expect(findings[0]?.message).toContain('ambiguous');
    } finally {
      await twins.close();
    }
  });
});

describe('the content record', () => {
  type Stored = { groups: { things: Record<string, unknown> & { content: Record<string, Record<string, string>> } } };
  const stored = () => JSON.parse(recorded) as Stored;
  const select = (data: unknown) =>
    selectGroup(catalog, parseGroupsText('groups.json', JSON.stringify(data)), 'things');

  it('is read with the group, and matches the catalog it was recorded from', () => {
    const selection = selectGroup(catalog, parseGroupsText('groups.json', recorded), 'things');
    expect(selection.ok).toBe(true);
    if (!selection.ok) return;
    expect(selection.group.content).toEqual({
      files: { 'example/things.mjs': expect.stringMatching(/^sha256:/) },
      lists: {},
      libraries: {},
    });
  });

  it.each([
    [
      'contentHash without content',
      (data: Stored) => delete (data.groups.things as Record<string, unknown>).content,
      'groups.things.contentHash',
    ],
    ['content without contentHash', (data: Stored) => delete data.groups.things.contentHash, 'groups.things.content'],
    [
      'a contentHash that is no hash',
      (data: Stored) => (data.groups.things.contentHash = 'sha256:abc'),
      'groups.things.contentHash',
    ],
    [
      'an unknown section',
      (data: Stored) => (data.groups.things.content.scripts = {}),
      'groups.things.content.scripts',
    ],
    [
      'a section that is no object',
      (data: Stored) => ((data.groups.things.content as Record<string, unknown>).lists = []),
      'groups.things.content.lists',
    ],
    [
      'a file entry that is no hash',
      (data: Stored) => (data.groups.things.content.files!['example/things.mjs'] = 'changed'),
      'groups.things.content.files["example/things.mjs"]',
    ],
    [
      'an empty library version',
      (data: Stored) => (data.groups.things.content.libraries!.ethers = ''),
      'groups.things.content.libraries.ethers',
    ],
  ])('reports %s as GRP007 at its place', (_what, spoil, path) => {
    const data = stored();
    spoil(data);
    const selection = select(data);
    expect(selection.findings.map((f) => `${f.code} ${f.path}`)).toEqual([`GRP007 ${path}`]);
  });

  it('says so when the contentHash was edited by hand (GRP008 at contentHash)', () => {
    const data = stored();
    data.groups.things.contentHash = `sha256:${'0'.repeat(64)}`;
    const selection = select(data);
    expect(selection.findings.map((f) => `${f.code} ${f.path}: ${f.message}`)).toEqual([
      'GRP008 groups.things.contentHash: the contentHash does not match the content record: the file was edited by hand',
    ]);
  });

  it('names entries the catalog no longer has, and entries it has that were not recorded', () => {
    const data = stored();
    data.groups.things.content.files!['other/gone.mjs'] = `sha256:${'1'.repeat(64)}`;
    data.groups.things.content.libraries!.ethers = '6.0.0';
    delete data.groups.things.content.files!['example/things.mjs'];
    expect(select(data).findings.map((f) => `${f.code} ${f.path}: ${f.message}`)).toEqual([
      'GRP008 groups.things.content.files: schema file example/things.mjs is not in the content record',
      'GRP008 groups.things.content.files["other/gone.mjs"]: schema file other/gone.mjs is in the content record but none of the group\'s tools is in it',
      'GRP008 groups.things.content.libraries.ethers: library ethers (6.0.0) is no longer required',
    ]);
  });

  it('never throws on hostile keys in it: each is an entry like any other', () => {
    const hash = `sha256:${'2'.repeat(64)}`;
    const text = JSON.stringify(stored()).replace(
      '"lists":{}',
      `"lists":{"__proto__":"${hash}","constructor":"${hash}"}`,
    );
    const selection = selectGroup(catalog, parseGroupsText('groups.json', text), 'things');
    expect(selection.findings.map((f) => `${f.code} ${f.message}`)).toEqual([
      'GRP008 shared list __proto__ is no longer referenced',
      'GRP008 shared list constructor is no longer referenced',
    ]);
  });
});

describe('selectGroup', () => {
  it('gives the group and its tools, in the group order, when everything matches', () => {
    const selection = selectGroup(catalog, parseGroupsText('groups.json', recorded), 'things');
    expect(selection.ok).toBe(true);
    if (!selection.ok) return;
    expect(selection.tools.map((tool) => tool.name)).toEqual(['example_searchThings', 'example_getThing']);
    expect(selection.tools.every((tool) => catalog.tools.includes(tool))).toBe(true);
    expect(selection.group.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('reads the file itself when given a path', () => {
    const dir = project('path');
    writeGroupsFile(groupsFilePath(dir), JSON.parse(recorded));
    expect(selectGroup(catalog, groupsFilePath(dir), 'things').ok).toBe(true);
  });

  it('refuses a group one of whose tools changed, naming that tool (GRP006)', async () => {
    const changed = await load(
      project('changed', (text) => text.replace("options: ['min(2)']", "options: ['min(3)']")),
    );
    try {
      const selection = selectGroup(changed, parseGroupsText('groups.json', recorded), 'things');
      expect(selection.ok).toBe(false);
      // The tool hash names the tool; the content record names the file it is in.
      expect(codes(selection.findings)).toEqual(['GRP006', 'GRP008']);
      expect(selection.findings[0]).toMatchObject({ path: 'groups.things.tools[0]' });
      expect(selection.findings[0]?.message).toContain(`tool ${SEARCH} changed`);
      expect(selection.findings[0]?.hint).toContain('flowguard group create things --force');
      expect(selection.findings[1]).toMatchObject({
        path: 'groups.things.content.files["example/things.mjs"]',
        message: 'schema file example/things.mjs changed',
      });
    } finally {
      await changed.close();
    }
  });

  it('refuses a group one of whose tools is gone (GRP004), still naming a changed one (GRP006)', async () => {
    const gone = await load(
      project('gone', (text) =>
        text.replace(/\n {8}getThing: \{[\s\S]*?\n {8}\},/, '').replace("options: ['min(2)']", "options: ['min(4)']"),
      ),
    );
    try {
      const selection = selectGroup(gone, parseGroupsText('groups.json', recorded), 'things');
      expect(selection.ok).toBe(false);
      expect(selection.findings.map((f) => `${f.code} ${f.path}`)).toEqual([
        'GRP004 groups.things.tools[1]',
        'GRP006 groups.things.tools[0]',
        'GRP008 groups.things.content.files["example/things.mjs"]',
      ]);
      expect(selection.findings[0]?.message).toContain(`'${GET}' resolves to no loaded tool`);
    } finally {
      await gone.close();
    }
  });

  it('names a tool whose schema file is rejected, with its first error', async () => {
    // A root over http is a file-level error (VAL017): nothing of the file loads.
    const rejected = await load(project('rejected', (text) => text.replace("root: 'https://", "root: 'http://")));
    try {
      const selection = selectGroup(rejected, parseGroupsText('groups.json', recorded), 'things');
      expect(codes(selection.findings)).toEqual(['GRP004', 'GRP004']);
      expect(selection.findings[0]?.hint).toMatch(/things\.mjs cannot be loaded \(VAL017/);
    } finally {
      await rejected.close();
    }
  });

  it('says when the group is not there, and which are (GRP004)', () => {
    const selection = selectGroup(catalog, parseGroupsText('groups.json', recorded), 'thing');
    expect(selection.ok).toBe(false);
    expect(codes(selection.findings)).toEqual(['GRP004']);
    expect(selection.findings[0]?.hint).toBe('groups in this file: things');
    const missing = selectGroup(catalog, join(work, 'none', 'groups.json'), 'things');
    expect(missing.findings[0]?.message).toContain('the file does not exist');
  });

  it("is not stopped by another group's problems, and is stopped by the file's own", () => {
    const data = JSON.parse(recorded) as { groups: Record<string, unknown> };
    data.groups.Broken = { description: 1, tools: 'x', hash: null };
    expect(selectGroup(catalog, parseGroupsText('groups.json', JSON.stringify(data)), 'things').ok).toBe(true);
    const selection = selectGroup(
      catalog,
      parseGroupsText('groups.json', recorded.replace('"2.0.0"', '"2.1.0"')),
      'things',
    );
    expect(selection.ok).toBe(false);
    expect(codes(selection.findings)).toEqual(['GRP007']);
  });

  it('says so when a hand-written group has no toolHashes and its hash differs (GRP006 without a tool)', () => {
    const data = JSON.parse(recorded) as { groups: { things: Record<string, unknown> } };
    delete data.groups.things.toolHashes;
    expect(selectGroup(catalog, parseGroupsText('groups.json', JSON.stringify(data)), 'things').ok).toBe(true);
    data.groups.things.hash = `sha256:${'0'.repeat(64)}`;
    const selection = selectGroup(catalog, parseGroupsText('groups.json', JSON.stringify(data)), 'things');
    expect(codes(selection.findings)).toEqual(['GRP006']);
    expect(selection.findings[0]).toMatchObject({ path: 'groups.things.hash' });
  });

  it('accepts an empty group with hash null, and refuses tools without a hash', () => {
    const empty = parseGroupsText(
      'groups.json',
      '{ "specVersion": "2.0.0", "groups": { "new": { "description": "", "tools": [], "hash": null } } }',
    );
    expect(selectGroup(catalog, empty, 'new')).toMatchObject({ ok: true, tools: [] });
    const unrecorded = parseGroupsText(
      'groups.json',
      `{ "specVersion": "2.0.0", "groups": { "new": { "description": "", "tools": ["${GET}"], "hash": null } } }`,
    );
    expect(codes(selectGroup(catalog, unrecorded, 'new').findings)).toEqual(['GRP006', 'GRP009']);
  });
});

describe('buildGroup and writeGroupsFile', () => {
  it('records a group from references or tool names, with its hashes, and writes it atomically with stable key order', () => {
    const dir = project('write');
    const target = groupsFilePath(dir);
    writeGroupsFile(target, {
      specVersion: '2.0.0',
      groups: { zeta: { description: 'kept', tools: [], hash: null, extra: 'kept as it is' } },
    });
    const file = readGroupsFile(target);
    const built = buildGroup(catalog, file, 'things', [SEARCH, 'example_getThing'], {
      description: 'near GRP006: recorded from the schema as it is now',
    });
    expect(built.findings).toEqual([]);
    writeGroupsFile(target, withGroup(file, 'things', built.group as never));
    const text = readFileSync(target, 'utf8');
    const written = JSON.parse(text) as { groups: Record<string, Record<string, unknown>> };
    expect(Object.keys(written.groups)).toEqual(['zeta', 'things']);
    expect(written.groups.zeta).toEqual({ description: 'kept', tools: [], hash: null, extra: 'kept as it is' });
    expect(Object.keys(written.groups.things as object)).toEqual([
      'description',
      'tools',
      'hash',
      'toolHashes',
      'contentHash',
      'content',
    ]);
    // The same bytes the fixture recorded: 2-space JSON, a final newline, the same hashes.
    const fixture = JSON.parse(recorded) as { groups: { things: unknown } };
    expect(written.groups.things).toEqual(fixture.groups.things);
    expect(text).toBe(`${JSON.stringify(written, null, 2)}\n`);
    expect(readdirSync(join(dir, '.flowmcp'))).toEqual(['groups.json']);
  });

  it('a groups file that cannot be written is ERR013 naming it, not an error without a code', () => {
    // A folder with a file in it at the file's place: no rename replaces it.
    const target = join(project('unwritable'), 'groups.json');
    mkdirSync(target);
    writeFileSync(join(target, 'taken'), 'x');
    expect(() => writeGroupsFile(target, { specVersion: '2.0.0', groups: {} })).toThrow(
      expect.objectContaining({ code: 'ERR013', message: expect.stringContaining(`cannot write ${target}: EISDIR`) }),
    );
  });

  it('replaces a group in place, keeping the order of the others', () => {
    const data = {
      specVersion: '2.0.0',
      groups: {
        a: { description: '', tools: [], hash: null },
        things: { description: 'old', tools: [], hash: null },
        z: { description: '', tools: [], hash: null },
      },
    };
    const file = parseGroupsText('groups.json', JSON.stringify(data));
    const built = buildGroup(catalog, file, 'things', [GET]);
    expect(Object.keys(withGroup(file, 'things', built.group as never).groups as object)).toEqual(['a', 'things', 'z']);
  });

  it('refuses what a stored group would be refused for, with the same codes', () => {
    const file = parseGroupsText('groups.json', '{ "specVersion": "2.0.0", "groups": {} }');
    const built = buildGroup(catalog, file, 'Things', [
      SEARCH,
      SEARCH,
      'example/things::getThing',
      'example/things.mjs::nothing',
    ]);
    expect(built.group).toBeNull();
    expect(codes(built.findings).sort()).toEqual(['GRP001', 'GRP003', 'GRP004', 'GRP005']);
    expect(() =>
      withGroup(parseGroupsText('groups.json', '[]'), 'x', { description: '', tools: [], hash: null }),
    ).toThrow(/not rewritten/);
  });
});

describe('the bundled example', () => {
  it('.flowmcp/groups.json verifies against the bundled catalog', async () => {
    const bundled = await Catalog.load({ schemas: join(ROOT, 'schemas'), project: ROOT, env: {} });
    try {
      const report = checkGroups(readGroupsFile(groupsFilePath(ROOT)), bundled);
      expect(groupsFindings(report)).toEqual([]);
      expect(report.groups.length).toBeGreaterThan(0);
      for (const group of report.groups) {
        expect(group.ok).toBe(true);
        expect(selectGroup(bundled, groupsFilePath(ROOT), group.name).ok).toBe(true);
      }
    } finally {
      await bundled.close();
    }
  });
});
