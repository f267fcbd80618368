// Issue 14 end to end: real schema files of each spec version loaded by Catalog.load, called
// through the core against a loopback server that records every request exactly as it arrives.
// The smallest unit fails (R1): a broken route leaves its file's other routes served, a route
// without tests is served; the corpus idioms send what their authors meant; a hook built by a
// helper is the same hook for `validate` and for the loader.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { checkSchemaFile } from '../../src/project/check-file.js';
import { effectiveAllowlist } from '../../src/libraries/allowlist.js';
import { loadSummary } from '../../src/cli/serve-summary.js';
import { tempProject } from '../kit/project.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const project = tempProject();
const schemas = join(project.dir, 'schemas');
let server: Upstream;
let catalog: Catalog;

/** One file per case, written as an author would. */
const FILES: Record<string, string> = {
  // 2.x: one clean route, one with an unknown primitive, one without tests.
  'mixed/routes.mjs': `export const main = {
    namespace: 'mixed',
    name: 'Mixed',
    description: 'One broken route among good ones.',
    version: '2.0.0',
    root: 'https://api.example.test/',
    routes: {
        getThing: {
            method: 'GET', path: '/things/{{id}}', description: 'One thing.',
            parameters: [ { position: { key: 'id', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: [] } } ],
            tests: [ { _description: 'one', id: 'a' } ],
        },
        brokenThing: {
            method: 'GET', path: '/things', description: 'Broken.',
            parameters: [ { position: { key: 'n', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'int()', options: [] } } ],
            tests: [ { _description: 'broken', n: 1 } ],
        },
        untestedThing: {
            method: 'GET', path: '/untested', description: 'No tests at all.',
            parameters: [],
        },
    },
};
`,
  // 3.x: the corpus idioms.
  'idioms/idioms.mjs': `export const main = {
    namespace: 'idioms',
    name: 'Idioms',
    description: 'The corpus idioms, read as meant.',
    version: '3.0.0',
    root: 'https://api.example.test',
    tools: {
        search: {
            method: 'GET', path: '/search', description: 'Search.',
            parameters: [
                { position: { key: 'latitude', value: '{{LATITUDE}}', location: 'query' }, z: { primitive: 'number()', options: [] } },
                { position: { key: 'stopId', value: '{{STOP_ID}}', location: 'query' }, z: { primitive: 'string()', options: ['optional()'] } },
                { position: { key: 'name', value: '%{{USER_PARAM}}%', location: 'query' }, z: { primitive: 'string()', options: [] } },
                { position: { key: 'address', value: '{{USER_PARAM}}', location: 'body' }, z: { primitive: 'string()', options: [] } },
                { position: { key: 'q', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: ['default("a \\\\"quoted\\\\" b")'] } },
                { position: { key: 'limit', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: ['optional(), default(10)'] } },
            ],
            tests: [ { _description: 'search', latitude: 52.5, name: 'x', address: '0x1' } ],
        },
        wrapped: {
            method: 'GET', path: '/wrapped', description: 'The payload a handler sees.',
            parameters: [ { position: { key: 'name', value: 'intitle:{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: [] } } ],
            tests: [ { _description: 'wrapped', name: 'x' } ],
        },
    },
};

export const handlers = ( { sharedLists, libraries } ) => {
    const echoPayload = ( name ) => {
        const hooks = {
            preRequest: async ( { struct, payload } ) => {
                struct.headers[ 'x-payload' ] = JSON.stringify( payload ) + ' ' + name
                return { struct }
            }
        }
        return hooks
    }
    return { wrapped: echoPayload( 'wrapped' ) }
}
`,
  // 4.x: hyphenated namespace, meta, descriptions, informational fields, a skill declared.
  'four/four.mjs': `export const main = {
    namespace: 'four-x',
    name: 'FourX',
    description: 'A 4.x schema.',
    version: '4.1.0',
    schemaVersion: '1.0.0',
    termsOfService: 'https://four.example/terms',
    root: 'https://api.example.test',
    meta: { isReadOnly: true, isConcurrencySafe: true, isDestructive: false, searchHint: 'default hint', aliases: [], alwaysLoad: false },
    tools: {
        removeThing: {
            method: 'POST', path: '/remove', description: 'Removes a thing.',
            parameters: [ { position: { key: 'id', value: '{{USER_PARAM}}', location: 'body' }, z: { primitive: 'string()', options: [] }, description: 'The thing to remove' } ],
            output: { mimeType: 'application/json', schema: { type: 'object', properties: { ok: { type: 'boolean' } } }, description: 'Whether it was removed' },
            tests: [ { _description: 'remove', id: 'a' } ],
            meta: { isReadOnly: false, isConcurrencySafe: false, isDestructive: true, searchHint: 'delete remove thing', aliases: ['deleteThing'], alwaysLoad: true },
        },
        listThings: {
            method: 'POST', path: '/list', description: 'Lists things.',
            parameters: [],
            tests: [ { _description: 'list' } ],
        },
    },
    skills: { 'find-things': { file: './skills/find-things.mjs' } },
};
`,
  'four/skills/find-things.mjs': `const content = 'Use {{tool:four-x/listThings}}.'

export const skill = { name: 'find-things', version: 'flowmcp-skill/1.0.0', description: 'Find things', content }
`,
  // 3.x with the 2.x key: read as tools, with a warning.
  'alias/alias.mjs': `export const main = {
    namespace: 'alias',
    name: 'Alias',
    description: 'routes in a 3.x file.',
    version: '3.0.0',
    root: 'https://api.example.test',
    routes: {
        ping: { method: 'GET', path: '/ping', description: 'Ping.', parameters: [], tests: [ { _description: 'ping' } ] },
    },
};
`,
};

beforeAll(async () => {
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(join(schemas, file, '..'), { recursive: true });
    writeFileSync(join(schemas, file), text);
  }
  server = await startUpstream((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  catalog = await Catalog.load({
    schemas,
    project: project.dir,
    env: {},
    upstreams: { '*': server.origin },
    sandbox: { size: 1 },
  });
}, 30_000);

afterAll(async () => {
  await catalog?.close();
  await server?.close();
  project.remove();
});

async function sent(name: string, args: Record<string, unknown>) {
  const mark = server.records.length;
  const result = await catalog.call(name, args);
  expect(result.ok, JSON.stringify(result)).toBe(true);
  return server.since(mark);
}

describe('the smallest unit fails (R1)', () => {
  it('a broken route is dropped alone: the other routes of its file are served, the one without tests too', () => {
    expect(
      catalog.tools
        .filter((tool) => tool.namespace === 'mixed')
        .map((tool) => tool.routeName)
        .sort(),
    ).toEqual(['getThing', 'untestedThing']);
    const report = catalog.reports.find((r) => r.file.endsWith('routes.mjs'));
    const errors = report?.findings.filter((f) => f.severity === 'error').map((f) => `${f.code} ${f.path}`);
    expect(errors).toEqual(['VAL044 main.routes.brokenThing.parameters[0].z.primitive']);
    // Serving shows the missing tests as a warning; validate keeps it an error.
    expect(report?.findings.find((f) => f.code === 'TST001')?.severity).toBe('warning');
    const check = checkSchemaFile(join(schemas, 'mixed/routes.mjs'), { allowedLibraries: effectiveAllowlist([]) });
    expect(check.findings.find((f) => f.code === 'TST001')?.severity).toBe('error');
    expect(check.routes).toEqual(['getThing', 'brokenThing', 'untestedThing']);
    expect(check.schema?.routes.map((route) => route.name)).toEqual(['getThing', 'untestedThing']);
  });

  it('the serve summary counts the dropped route and names it with its error, the file is not rejected', () => {
    const lines = loadSummary(catalog).split('\n');
    expect(lines[0]).toBe('flowguard: 5 schema files: 4 loaded, 0 rejected; 7 tools served, 0 hidden, 1 route dropped');
    expect(lines.slice(1)).toEqual([
      '  routes dropped, their files served (first error of each route):',
      expect.stringMatching(
        /^ {4}VAL044 error \S*mixed\/routes\.mjs:\d+:\d+ main\.routes\.brokenThing\.parameters\[0\]\.z\.primitive: unknown primitive "int\(\)"$/,
      ),
    ]);
  });

  it('a trailing slash on root is removed: the path follows the host with one slash', async () => {
    expect(await sent('mixed_getThing', { id: 'a' })).toEqual([expect.objectContaining({ url: '/things/a' })]);
  });
});

describe('spec versions (R11)', () => {
  it('reads routes in 2.x, tools in 3.x and 4.x, and routes as the 3.x alias with a warning', () => {
    const names = catalog.tools.map((tool) => tool.name).sort();
    expect(names).toEqual([
      'alias_ping',
      'four-x_listThings',
      'four-x_removeThing',
      'idioms_search',
      'idioms_wrapped',
      'mixed_getThing',
      'mixed_untestedThing',
    ]);
    const alias = catalog.reports.find((r) => r.file.endsWith('alias.mjs'));
    expect(alias?.findings.map((f) => f.code)).toContain('VAL007');
  });

  it("keeps a 4.x file's informational fields and meta, with main.meta for a tool without its own", () => {
    const remove = catalog.tool('four-x_removeThing');
    expect(remove?.schema.info).toEqual({ termsOfService: 'https://four.example/terms', schemaVersion: '1.0.0' });
    expect(remove?.route.meta).toEqual({
      readOnly: false,
      destructive: true,
      concurrencySafe: false,
      searchHint: 'delete remove thing',
      aliases: ['deleteThing'],
      alwaysLoad: true,
    });
    expect(catalog.tool('four-x_listThings')?.route.meta?.searchHint).toBe('default hint');
    expect(remove?.input.schema).toEqual({
      type: 'object',
      properties: { id: { type: 'string', description: 'The thing to remove' } },
      additionalProperties: false,
      required: ['id'],
    });
  });

  it('serves a declared skill as an MCP prompt: the skill file is no schema (one info finding) and its prompt is named by the namespace', () => {
    const four = catalog.reports.find((r) => r.file.endsWith('four.mjs'));
    expect(four?.findings.filter((f) => f.code === 'VAL028')).toEqual([]);
    const skill = catalog.reports.find((r) => r.file.endsWith('find-things.mjs'));
    expect(skill?.findings.map((f) => `${f.code} ${f.severity}`)).toEqual(['VAL029 info']);
    expect(skill?.skipped).toBe('skill');
    expect(catalog.prompts.map((prompt) => prompt.name)).toEqual(['four-x_find-things']);
  });
});

describe('corpus idioms are sent as their authors meant them', () => {
  it("{{LATITUDE}} and {{STOP_ID}} are the caller's input, %{{USER_PARAM}}% wraps it, a GET body goes into the query, defaults are unescaped and joined options read", async () => {
    const [request] = await sent('idioms_search', { latitude: 52.5, stopId: 'S1', name: 'ab', address: '0x1' });
    const query = new URL(request?.url ?? '', 'http://x').searchParams;
    expect(Object.fromEntries(query)).toEqual({
      latitude: '52.5',
      stopId: 'S1',
      name: '%ab%',
      address: '0x1',
      q: 'a "quoted" b',
      limit: '10',
    });
    expect(request?.body).toBe('');
  });

  it('the text around {{USER_PARAM}} is in the request, not in what a handler built by a helper sees', async () => {
    const [request] = await sent('idioms_wrapped', { name: 'dune' });
    expect(new URL(request?.url ?? '', 'http://x').searchParams.get('name')).toBe('intitle:dune');
    expect(request?.headers['x-payload']).toBe('{"name":"dune"} wrapped');
  });
});

describe("a hook built by a helper (x: build('x'))", () => {
  it('is seen by validate as the loader loads it', () => {
    const check = checkSchemaFile(join(schemas, 'idioms/idioms.mjs'), { allowedLibraries: effectiveAllowlist([]) });
    expect(check.schema?.handlers?.routes).toEqual({
      wrapped: { preRequest: true, postRequest: false, executeRequest: false },
    });
    expect(catalog.tool('idioms_wrapped')?.hooks).toEqual(['preRequest']);
  });
});
