// Tool, group and content hashes (src/groups/hash.ts, decision R10): what they cover and what
// they do not, stable across runs and key order.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  bytesHash,
  contentHash,
  expectedGroupHash,
  groupHash,
  HASH_PATTERN,
  toolHash,
  toolHashInput,
} from '../../src/groups/hash.js';
import { effectiveAllowlist } from '../../src/libraries/allowlist.js';
import { checkSchemaText } from '../../src/schema/check.js';
import type { CanonicalSchema } from '../../src/schema/types.js';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'codes', 'GRP006');
const BASE = readFileSync(join(FIXTURE, 'schemas', 'example', 'things.mjs'), 'utf8');

function schemaOf(text: string): CanonicalSchema {
  const check = checkSchemaText('things.mjs', text, { allowedLibraries: effectiveAllowlist([]) });
  expect(check.findings.filter((f) => f.severity === 'error')).toEqual([]);
  return check.schema as CanonicalSchema;
}

/** The hash of one route of a schema text. */
function hashOf(text: string, route = 'searchThings'): string {
  const schema = schemaOf(text);
  return toolHash(schema, schema.routes.find((candidate) => candidate.name === route) ?? (schema.routes[0] as never));
}

/** `BASE` with one piece of text replaced; fails if the piece is not there. */
function edit(from: string, to: string, text = BASE): string {
  expect(text).toContain(from);
  return text.replace(from, to);
}

describe('toolHash', () => {
  it('is sha256: and 64 lowercase hex digits, and the same in every run (pinned)', () => {
    // The near case of GRP006 recorded these; a change here invalidates every group ever recorded.
    const recorded = JSON.parse(readFileSync(join(FIXTURE, 'near.groups.json'), 'utf8')) as {
      groups: { things: { toolHashes: Record<string, string> } };
    };
    expect(hashOf(BASE, 'searchThings')).toBe(recorded.groups.things.toolHashes['example/things.mjs::searchThings']);
    expect(hashOf(BASE, 'getThing')).toBe(recorded.groups.things.toolHashes['example/things.mjs::getThing']);
    expect(hashOf(BASE)).toMatch(HASH_PATTERN);
  });

  it('does not depend on the key order of main, the route, a parameter or the output schema', () => {
    const reordered = BASE.replace(
      /searchThings: \{[\s\S]*?\n {8}\},\n/,
      `searchThings: {
            tests: [ { query: 'widget', _description: 'search for widgets' } ],
            output: { schema: { items: { type: 'object' }, type: 'array' }, mimeType: 'application/json' },
            parameters: [
                { z: { options: ['min(2)'], primitive: 'string()' }, position: { location: 'query', value: '{{USER_PARAM}}', key: 'query' } },
            ],
            description: 'Search things by name.',
            path: '/things',
            method: 'GET',
        },
`,
    );
    expect(reordered).not.toBe(BASE);
    const movedMain = edit(`    namespace: 'example',\n`, '', reordered).replace(
      `    version: '2.0.0',\n`,
      `    version: '2.0.0',\n    namespace: 'example',\n`,
    );
    expect(hashOf(movedMain)).toBe(hashOf(BASE));
  });

  it('reads corpus idioms and their canonical spelling alike (:id and {{id}})', () => {
    expect(hashOf(edit(`path: '/things/{{id}}'`, `path: '/things/:id'`), 'getThing')).toBe(hashOf(BASE, 'getThing'));
  });

  it.each([
    ['the namespace', `namespace: 'example'`, `namespace: 'examples'`],
    ['the schema version', `version: '2.0.0'`, `version: '2.1.0'`],
    ['the route name', `searchThings: {`, `findThings: {`],
    ['the method', `method: 'GET',\n            path: '/things',`, `method: 'POST',\n            path: '/things',`],
    ['the path', `path: '/things',`, `path: '/things/search',`],
    ['a z option', `options: ['min(2)']`, `options: ['min(3)']`],
    ['a parameter becoming optional', `options: ['min(2)']`, `options: ['min(2)', 'optional()']`],
    ['a default', `options: ['min(2)']`, `options: ['min(2)', 'default(widget)']`],
    [
      'the output schema',
      `schema: { type: 'array', items: { type: 'object' } }`,
      `schema: { type: 'array', items: { type: 'string' } }`,
    ],
    ['text around a user parameter (%{{USER_PARAM}}%)', `value: '{{USER_PARAM}}'`, `value: '%{{USER_PARAM}}%'`],
  ])('changes with %s', (_what, from, to) => {
    const changed = edit(from, to);
    const route = to.startsWith('findThings') ? 'findThings' : 'searchThings';
    expect(hashOf(changed, route)).not.toBe(hashOf(BASE));
  });

  it('changes with a parameter key (tests follow it, and are not hashed)', () => {
    expect(hashOf(edit(`query: 'widget' }`, `q: 'widget' }`, edit(`key: 'query'`, `key: 'q'`)))).not.toBe(hashOf(BASE));
  });

  it('changes with a parameter location', () => {
    const post = edit(`method: 'GET',\n            path: '/things',`, `method: 'POST',\n            path: '/things',`);
    expect(hashOf(edit(`location: 'query' }`, `location: 'body' }`, post))).not.toBe(hashOf(post));
  });

  it('changes with the output mimeType', () => {
    const text = edit(
      `mimeType: 'application/json', schema: { type: 'array', items: { type: 'object' } }`,
      `mimeType: 'text/plain', schema: { type: 'string', format: 'base64' }`,
    );
    expect(hashOf(edit(`mimeType: 'text/plain'`, `mimeType: 'image/png'`, text))).not.toBe(hashOf(text));
  });

  it('changes with main.sharedLists (every ref, its version and its filter)', () => {
    const withList = (entry: string) =>
      edit(
        `    root: 'https://api.example.com',\n`,
        `    root: 'https://api.example.com',\n    sharedLists: [ ${entry} ],\n`,
      );
    const plain = hashOf(withList(`{ ref: 'evmChains', version: '2.0.0' }`));
    expect(plain).not.toBe(hashOf(BASE));
    expect(hashOf(withList(`{ ref: 'evmChains', version: '2.0.1' }`))).not.toBe(plain);
    expect(
      hashOf(withList(`{ ref: 'evmChains', version: '2.0.0', filter: { key: 'isTestnet', value: false } }`)),
    ).not.toBe(plain);
  });

  it.each([
    [
      'the route description',
      `description: 'Search things by name.'`,
      `description: 'Search every thing by its name.'`,
    ],
    [
      'the tests',
      `{ _description: 'search for widgets', query: 'widget' },`,
      `{ _description: 'search for gadgets', query: 'gadget' },`,
    ],
    [
      'the schema description',
      `description: 'Looks up things in the Example API.'`,
      `description: 'Things, looked up.'`,
    ],
    ['the schema name', `name: 'ExampleApi'`, `name: 'ExampleThings'`],
    [
      'the root (not covered, as R10 and chapter 06 say)',
      `root: 'https://api.example.com'`,
      `root: 'https://api2.example.com'`,
    ],
    ['another route', `description: 'One thing by its id.'`, `description: 'One thing.'`],
  ])('does not change with %s', (_what, from, to) => {
    expect(hashOf(edit(from, to))).toBe(hashOf(BASE));
  });

  it('hashes exactly the documented fields, in the documented order', () => {
    const schema = schemaOf(BASE);
    const input = toolHashInput(schema, schema.routes[0] as never) as Record<string, Record<string, unknown>>;
    expect(Object.keys(input)).toEqual(['namespace', 'version', 'route', 'sharedListRefs']);
    expect(Object.keys(input.route as object)).toEqual(['name', 'method', 'path', 'parameters', 'output']);
    const [param] = input.route?.parameters as Array<Record<string, unknown>>;
    expect(param).toEqual({
      key: 'query',
      location: 'query',
      value: '{{USER_PARAM}}',
      type: { kind: 'string', minLength: 2, maxLength: null, pattern: null },
      optional: false,
      default: null,
      handlerOnly: false,
    });
    expect(Object.keys(param as object)).toEqual([
      'key',
      'location',
      'value',
      'type',
      'optional',
      'default',
      'handlerOnly',
    ]);
  });
});

describe('groupHash', () => {
  const a = { ref: 'a/a.mjs::one', hash: `sha256:${'1'.repeat(64)}` };
  const b = { ref: 'b/b.mjs::two', hash: `sha256:${'2'.repeat(64)}` };

  it('does not depend on the order of the tools', () => {
    expect(groupHash([a, b])).toBe(groupHash([b, a]));
    expect(groupHash([a, b])).toMatch(HASH_PATTERN);
  });

  it('is SHA-256 over the sorted { ref, hash } list, as chapter 06 writes it', async () => {
    const { createHash } = await import('node:crypto');
    const expected = `sha256:${createHash('sha256')
      .update(JSON.stringify([a, b]))
      .digest('hex')}`;
    expect(groupHash([b, a])).toBe(expected);
  });

  it('changes when a tool hash or a reference changes', () => {
    expect(groupHash([a, { ...b, hash: `sha256:${'3'.repeat(64)}` }])).not.toBe(groupHash([a, b]));
    expect(groupHash([a, { ...b, ref: 'b/b.mjs::three' }])).not.toBe(groupHash([a, b]));
  });

  it('is null for a group without tools (chapter 06 new group)', () => {
    expect(expectedGroupHash([])).toBeNull();
    expect(() => groupHash([])).toThrow();
    expect(expectedGroupHash([a])).toBe(groupHash([a]));
  });
});

describe('contentHash and bytesHash', () => {
  const h = (digit: string) => `sha256:${digit.repeat(64)}`;
  const record = {
    files: { 'b/b.mjs': h('1'), 'a/a.mjs': h('2') },
    lists: { evmChains: h('3') },
    libraries: { ethers: '6.17.0' },
  };

  it('is SHA-256 over { files, lists, libraries } as [key, value] pairs sorted by key, as documented', async () => {
    const { createHash } = await import('node:crypto');
    const input = {
      files: [
        ['a/a.mjs', h('2')],
        ['b/b.mjs', h('1')],
      ],
      lists: [['evmChains', h('3')]],
      libraries: [['ethers', '6.17.0']],
    };
    expect(contentHash(record)).toBe(`sha256:${createHash('sha256').update(JSON.stringify(input)).digest('hex')}`);
  });

  it('does not depend on key order, and changes with any entry', () => {
    expect(contentHash({ ...record, files: { 'a/a.mjs': h('2'), 'b/b.mjs': h('1') } })).toBe(contentHash(record));
    expect(contentHash({ ...record, libraries: { ethers: '6.18.0' } })).not.toBe(contentHash(record));
    // A list and a file of one name are different entries.
    expect(contentHash({ files: { x: h('1') }, lists: {}, libraries: {} })).not.toBe(
      contentHash({ files: {}, lists: { x: h('1') }, libraries: {} }),
    );
  });

  it('hashes bytes as given, however they are chunked, and sees a line ending changed', () => {
    const bytes = Buffer.from('export const main = {\n};\n');
    expect(bytesHash([bytes])).toBe(bytesHash([bytes.subarray(0, 5), bytes.subarray(5)]));
    expect(bytesHash([bytes])).not.toBe(bytesHash([Buffer.from('export const main = {\r\n};\r\n')]));
  });
});
