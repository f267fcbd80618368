// What a 4.x tool tells an MCP client (R11), over the official SDK client: its `meta` as
// annotations (readOnlyHint, destructiveHint) and `_meta` (anthropic/alwaysLoad,
// anthropic/searchHint, aliases, concurrency), parameter descriptions in the input schema, and
// `output.description` in the output schema or, where none is advertised, in the description.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { tempProject } from '../support/project.js';

const SCHEMA = `export const main = {
    namespace: 'things-api',
    name: 'ThingsApi',
    description: 'Things, in 4.x.',
    version: '4.0.0',
    root: 'https://api.things.example',
    tools: {
        searchThings: {
            method: 'POST', path: '/search', description: 'Search things.',
            parameters: [
                { position: { key: 'query', value: '{{USER_PARAM}}', location: 'body' }, z: { primitive: 'string()', options: [] }, description: 'Words to look for' },
                { position: { key: 'limit', value: '{{USER_PARAM}}', location: 'body' }, z: { primitive: 'number()', options: ['optional()'], description: 'At most this many' } },
            ],
            output: { mimeType: 'application/json', schema: { type: 'object', properties: { items: { type: 'array' } } }, description: 'The things found' },
            tests: [ { _description: 'search', query: 'x' } ],
            meta: { isReadOnly: true, isConcurrencySafe: true, isDestructive: false, searchHint: 'find search things', aliases: ['findThings'], alwaysLoad: true },
        },
        purgeThings: {
            method: 'POST', path: '/purge', description: 'Purge every thing.',
            parameters: [],
            output: { mimeType: 'text/plain', schema: { type: 'string' }, description: 'A receipt' },
            tests: [ { _description: 'purge' } ],
            meta: { isReadOnly: false, isConcurrencySafe: false, isDestructive: true, searchHint: 'purge', aliases: [], alwaysLoad: false },
        },
        plainThing: {
            method: 'GET', path: '/plain', description: 'No meta.',
            parameters: [],
            tests: [ { _description: 'plain' } ],
        },
    },
};
`;

const project = tempProject();
let catalog: Catalog;
let client: Client;
let tools: McpTool[];

beforeAll(async () => {
  mkdirSync(join(project.dir, 'schemas'));
  writeFileSync(join(project.dir, 'schemas', 'things.mjs'), SCHEMA);
  catalog = await Catalog.load({ schemas: join(project.dir, 'schemas'), project: project.dir, env: {} });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(catalog).connect(serverSide);
  client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  ({ tools } = await client.listTools());
});

afterAll(async () => {
  await client?.close();
  await catalog?.close();
  project.remove();
});

const tool = (name: string) => tools.find((entry) => entry.name === name) as McpTool;

describe('a 4.x tool over MCP', () => {
  it('takes its annotations from meta, not the method: a POST search reads only', () => {
    expect(tool('things-api_searchThings').annotations).toEqual({ readOnlyHint: true, openWorldHint: true });
    expect(tool('things-api_purgeThings').annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: true,
    });
    expect(tool('things-api_plainThing').annotations).toEqual({ readOnlyHint: true, openWorldHint: true });
  });

  it("carries alwaysLoad and searchHint under the spec's _meta keys, with the aliases and the concurrency hint", () => {
    expect(tool('things-api_searchThings')._meta).toEqual({
      'flowguard/reference': 'things-api/things.mjs::searchThings',
      'anthropic/alwaysLoad': true,
      'anthropic/searchHint': 'find search things',
      'flowguard/aliases': ['findThings'],
      'flowguard/concurrencySafe': true,
    });
    expect(tool('things-api_plainThing')._meta).toEqual({ 'flowguard/reference': 'things-api/things.mjs::plainThing' });
  });

  it('describes each parameter in the input schema', () => {
    expect(tool('things-api_searchThings').inputSchema.properties).toEqual({
      query: { type: 'string', description: 'Words to look for' },
      limit: { type: 'number', description: 'At most this many' },
    });
  });

  it('says what the tool returns: in the output schema where there is one, else in the description', () => {
    expect(tool('things-api_searchThings').outputSchema).toEqual({
      type: 'object',
      properties: { items: { type: 'array' } },
      description: 'The things found',
    });
    expect(tool('things-api_searchThings').description).toBe('Search things.');
    expect(tool('things-api_purgeThings').description).toBe('Purge every thing.\n\nReturns: A receipt');
  });

  it('gets a name with its hyphenated 4.x namespace that MCP clients accept (R8)', () => {
    for (const entry of tools) expect(entry.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });
});
