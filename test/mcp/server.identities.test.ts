// An outside reviewer's attacks on promise 13 where identities meet discovery mode, focused
// endpoints and paging (src/mcp/server.ts narrows every listing, search, description and call to
// the caller's selection). An identity limited to a namespace and to read-only tools tries every
// other way in: search_tools (with another namespace), describe_tool, call_tool, a direct call,
// a group endpoint outside its scope, tools/list cursors forged or taken from another identity, a
// session another identity opened; call_tool must also draw on the identity's own rate. Hostile
// search queries must be answered or refused in bounds, never crash the server.
//
// Real parts: the fixture catalog and its loopback upstream, flowguard's HTTP server in this
// process with sessions, group endpoints and static tokens naming the identities, and the
// official SDK client over Streamable HTTP.

import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Identities } from '../../src/access/identities.js';
import type { CallRecord } from '../../src/call/record.js';
import { AccessGate } from '../../src/edge/auth.js';
import { startHttpServer, type McpHttpServer } from '../../src/edge/http.js';
import type { Catalog } from '../../src/runtime/catalog.js';
import { MemoryState } from '../../src/state/memory-state.js';
import { callRecordsDelivered } from '../support/wait.js';
import { LIST_BODY, MCP_HEADERS, rawRequest } from '../edge/helpers.js';
import { loadFixtureCatalog, startCatalogUpstream, type CatalogUpstream } from './helpers.js';

const TOKENS = {
  reader: 'reader-token-0123456789abcdef',
  metered: 'metered-token-0123456789abcdef',
  searchMetered: 'search-metered-token-0123456789abcdef',
  media: 'media-token-0123456789abcdef',
  everything: 'everything-token-0123456789abcdef',
  searcher: 'searcher-token-0123456789abcdef',
};
const digest = (token: string) => `sha256:${createHash('sha256').update(token).digest('hex')}`;
/** Tools/list pages of this many tools: cursors to forge and to carry elsewhere. */
const PAGE = 2;

let upstream: CatalogUpstream;
let catalog: Catalog;
let server: McpHttpServer;
const records: CallRecord[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  upstream = await startCatalogUpstream();
  catalog = await loadFixtureCatalog(upstream);
  catalog.onCall((record) => void records.push(record));
  const memory = new MemoryState();
  const identities = Identities.create(
    {
      // Widgets, read-only, in discovery mode.
      reader: { tokens: [digest(TOKENS.reader)], namespaces: ['widgets'], readOnly: true, tools: 'search' },
      // The same, with a rate of one call.
      metered: {
        tokens: [digest(TOKENS.metered)],
        namespaces: ['widgets'],
        tools: 'search',
        rateLimit: { requestsPerSecond: 0.001, burst: 1 },
      },
      // Its own bucket of two: the searches draw on it as calls do.
      searchMetered: {
        tokens: [digest(TOKENS.searchMetered)],
        tools: 'search',
        rateLimit: { requestsPerSecond: 0.001, burst: 2 },
      },
      media: { tokens: [digest(TOKENS.media)], namespaces: ['media'], tools: 'all' },
      everything: { tokens: [digest(TOKENS.everything)], tools: 'all' },
      // Every namespace, in discovery mode.
      searcher: { tokens: [digest(TOKENS.searcher)], tools: 'search' },
    },
    () => [],
    (bucket, capacity, refill) => memory.take(bucket, capacity, refill),
  );
  const widgets = catalog.tools.filter((tool) => tool.namespace === 'widgets');
  const media = catalog.tools.filter((tool) => tool.namespace === 'media');
  server = await startHttpServer(catalog, {
    port: 0,
    log: () => undefined,
    sessions: true,
    pageSize: PAGE,
    identities,
    access: AccessGate.create({ host: '127.0.0.1', namedTokens: identities.namedTokens() }),
    groups: [
      { name: 'widgets', serving: { tools: widgets } },
      { name: 'media', serving: { tools: media } },
    ],
  });
}, 60_000);
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await server?.close();
  await catalog?.close();
  await upstream?.close();
});

async function connect(identity: keyof typeof TOKENS, path = ''): Promise<Client> {
  const client = new Client({ name: 'identities-attack', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}${path}`), {
      requestInit: { headers: { authorization: `Bearer ${TOKENS[identity]}` } },
    }),
  );
  clients.push(client);
  return client;
}

/** Every tool name tools/list gives, page after page. */
async function listed(client: Client): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const answer = await client.listTools(cursor === undefined ? {} : { cursor });
    names.push(...answer.tools.map((tool) => tool.name));
    cursor = answer.nextCursor;
    if (cursor === undefined) break;
  }
  return names;
}

const callTool = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;
const found = (result: CallToolResult) =>
  (result.structuredContent as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
const cursorAt = (offset: number) => Buffer.from(`tools:${offset}`).toString('base64url');

describe('an identity limited to a namespace and to read-only tools, in discovery mode', () => {
  it('finds, describes and calls only its read-only widgets tools, whatever it asks', async () => {
    const client = await connect('reader');
    expect((await listed(client)).sort()).toEqual(['call_tool', 'describe_tool', 'search_tools']);
    // Its own: found, described, called.
    const reading = found(await callTool(client, 'search_tools', { query: 'get a widget', limit: 25 }));
    expect(reading).toContain('widgets_getWidget');
    expect(reading.filter((name) => !name.startsWith('widgets_'))).toEqual([]);
    expect(await callTool(client, 'describe_tool', { name: 'widgets_getWidget' })).not.toHaveProperty('isError');
    const mark = records.length;
    expect(
      (await callTool(client, 'call_tool', { name: 'widgets_getWidget', arguments: { id: 'w-1' } })).isError,
    ).toBeFalsy();
    // Writing tools and other namespaces: never found, described or called, whichever way.
    const writing = ['widgets_createWidget', 'widgets_replaceWidget', 'widgets_deleteWidget'];
    for (const query of ['create a widget', 'delete widget', 'replace widget', 'readme', 'chart', 'note']) {
      const hits = found(await callTool(client, 'search_tools', { query, limit: 25 }));
      expect(hits.filter((name) => !name.startsWith('widgets_') || writing.includes(name))).toEqual([]);
    }
    expect(found(await callTool(client, 'search_tools', { query: 'readme', namespace: 'media' }))).toEqual([]);
    for (const name of ['widgets_createWidget', 'widgets_deleteWidget', 'media_getReadme', 'vault_getNote']) {
      const described = await callTool(client, 'describe_tool', { name });
      expect(described.isError).toBe(true);
      expect(text(described)).toContain(`No tool named ${name}`);
      await expect(callTool(client, 'call_tool', { name, arguments: { id: 'w-1' } })).rejects.toThrow(
        `Unknown tool: ${name}`,
      );
      await expect(callTool(client, name, { id: 'w-1' })).rejects.toThrow(`Unknown tool: ${name}`);
    }
    await callRecordsDelivered();
    const mine = records.slice(mark);
    // The call through call_tool is recorded under the real tool and the identity; the refused ones under (unknown) names.
    expect(
      mine.filter((record) => record.outcome === 'ok').map((record) => [record.tool, record.caller?.identity]),
    ).toEqual([['widgets_getWidget', 'reader']]);
    expect(mine.filter((record) => record.outcome !== 'ok').map((record) => record.outcome)).toEqual(
      Array.from({ length: 8 }, () => 'unknown-tool'),
    );
    expect(upstream.records.some((record) => record.method !== 'GET' && record.url.includes('widget'))).toBe(false);
  });

  it('at a group endpoint outside its namespace it finds and calls nothing', async () => {
    const client = await connect('reader', '/media');
    expect(found(await callTool(client, 'search_tools', { query: 'readme', limit: 25 }))).toEqual([]);
    await expect(callTool(client, 'call_tool', { name: 'media_getReadme', arguments: {} })).rejects.toThrow(
      'Unknown tool: media_getReadme',
    );
    const media = await connect('media', '/widgets');
    expect(await listed(media)).toEqual([]);
    await expect(callTool(media, 'widgets_getWidget', { id: 'w-1' })).rejects.toThrow(
      'Unknown tool: widgets_getWidget',
    );
  });

  it("call_tool draws on the identity's own rate, as a direct call does", async () => {
    const client = await connect('metered');
    const mark = upstream.records.length;
    expect(
      (await callTool(client, 'call_tool', { name: 'widgets_getWidget', arguments: { id: 'w-1' } })).isError,
    ).toBeFalsy();
    const over = await callTool(client, 'call_tool', { name: 'widgets_getWidget', arguments: { id: 'w-2' } });
    expect(over.isError).toBe(true);
    expect(text(over)).toContain('the calls of identity metered are over its rate');
    expect(upstream.records.length).toBe(mark + 1);
  });

  it("search_tools and describe_tool draw on the identity's own rate too (a search costs CPU as a call does)", async () => {
    const client = await connect('searchMetered');
    expect((await callTool(client, 'search_tools', { query: 'widget' })).isError).toBeFalsy();
    expect((await callTool(client, 'describe_tool', { name: 'widgets_getWidget' })).isError).toBeFalsy();
    for (const [name, args] of [
      ['search_tools', { query: 'widget' }],
      ['describe_tool', { name: 'widgets_getWidget' }],
    ] as const) {
      const over = await callTool(client, name, args);
      expect(over.isError).toBe(true);
      expect(text(over)).toContain('the calls of identity searchMetered are over its rate');
    }
  });
});

describe('tools/list cursors', () => {
  it('forged, or given to another identity, page only through the caller’s own tools', async () => {
    const everything = await listed(await connect('everything'));
    expect(everything.length).toBeGreaterThan(2 * PAGE);
    const media = await connect('media');
    const own = await listed(media);
    expect(own.length).toBeGreaterThan(0);
    expect(own.filter((name) => !name.startsWith('media_'))).toEqual([]);
    // Every offset another identity's listing has: a page of media tools, or refused as past the end.
    for (let offset = 0; offset <= everything.length; offset += 1) {
      const page = await media.listTools({ cursor: cursorAt(offset) }).catch((error: Error) => error);
      if (page instanceof Error) expect(page.message).toMatch(/invalid cursor/);
      else expect(page.tools.filter((tool) => !tool.name.startsWith('media_'))).toEqual([]);
    }
    for (const forged of [cursorAt(-1), 'tools:1', Buffer.from('tools:1e3').toString('base64url'), 'x'.repeat(10_000)])
      await expect(media.listTools({ cursor: forged })).rejects.toThrow(/invalid cursor/);
  });

  it("a session another identity opened is not found with this identity's token", async () => {
    const everything = await connect('everything');
    const session = (everything.transport as StreamableHTTPClientTransport).sessionId as string;
    expect(session).toBeTruthy();
    const taken = await rawRequest(server.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${TOKENS.media}`, 'mcp-session-id': session },
      body: LIST_BODY,
    });
    expect(taken.status).toBe(404);
    expect(taken.body).not.toContain('widgets_');
  });
});

describe('hostile search queries', () => {
  it('are answered or refused as arguments, and the server goes on', async () => {
    const client = await connect('everything', '');
    const reader = await connect('reader');
    const queries = [
      'x'.repeat(501),
      '(a+)+$'.repeat(83),
      '.*'.repeat(250),
      '\u0000\u202e\u200b'.repeat(166),
      '\ufdfa'.repeat(500),
      'ẞ'.repeat(500),
      Array.from({ length: 83 }, (_, i) => `w${(i * 7919).toString(36).padStart(4, 'q')}`).join(' '),
      '🦄'.repeat(250),
    ];
    for (const query of queries) {
      const result = await callTool(reader, 'search_tools', { query, limit: 25 });
      if (query.length > 500) expect(text(result)).toContain('at most 500 characters');
      else expect(Array.isArray((result.structuredContent as { tools: unknown[] } | undefined)?.tools)).toBe(true);
    }
    for (const args of [
      { query: 'widget', limit: 1e9 },
      { query: 'widget', namespace: { $ne: 1 } },
      { query: ['widget'] },
    ]) {
      const result = await callTool(reader, 'search_tools', args);
      expect(result.isError).toBe(true);
    }
    expect((await listed(client)).length).toBeGreaterThan(0);
  });
});

describe('names that are almost a served one, or hidden, or huge', () => {
  it('find, describe and call nothing: case, confusables, invisible characters; a hidden tool is only named as lacking its key', async () => {
    const client = await connect('searcher');
    // The tool itself, to tell a refusal from a tool that does not work.
    expect(await callTool(client, 'describe_tool', { name: 'widgets_getWidget' })).not.toHaveProperty('isError');
    const mark = upstream.records.length;
    const almost = [
      'WIDGETS_GETWIDGET',
      'widgets_getwidget',
      'widgets_getW\u0456dget', // Cyrillic i
      'widgets_getWidget\u200b',
      '\u200ewidgets_getWidget',
      'widgets_getWidget ',
      'ｗｉｄｇｅｔｓ_getWidget', // fullwidth
      'widgets_getWidget\u0000',
      'widgets/getWidget',
      'widgets_getWidget\nwidgets_deleteWidget',
    ];
    for (const name of almost) {
      const described = await callTool(client, 'describe_tool', { name });
      expect(described.isError, name).toBe(true);
      await expect(callTool(client, 'call_tool', { name, arguments: { id: 'w-1' } }), name).rejects.toThrow(
        /Unknown tool/,
      );
    }
    // A tool whose key is not granted: never found or described; a call of it, through call_tool
    // as directly, says which key it lacks (promise 1) and sends nothing.
    expect(found(await callTool(client, 'search_tools', { query: 'note vault secret', limit: 25 }))).not.toContain(
      'vault_getNote',
    );
    expect((await callTool(client, 'describe_tool', { name: 'vault_getNote' })).isError).toBe(true);
    const hidden = await callTool(client, 'call_tool', { name: 'vault_getNote', arguments: { id: 'n-1' } });
    expect(hidden.isError).toBe(true);
    expect(text(hidden)).toContain('Error (missing-keys): vault_getNote needs VAULT_API_KEY');
    expect(upstream.records.length).toBe(mark);
  });

  it('a name or namespace of 1 MB is answered in bounds, and the server goes on', async () => {
    const client = await connect('searcher');
    const huge = 'w'.repeat(1024 * 1024);
    const described = await callTool(client, 'describe_tool', { name: huge });
    expect(described.isError).toBe(true);
    expect(text(described).length, 'describe_tool').toBeLessThan(1000);
    const called = await callTool(client, 'call_tool', { name: huge, arguments: {} }).catch((error: Error) => error);
    expect(called).toBeInstanceOf(Error);
    expect((called as Error).message.length, 'call_tool').toBeLessThan(1000);
    const searched = await callTool(client, 'search_tools', { query: 'widget', namespace: huge });
    expect(found(searched)).toEqual([]);
    expect(text(searched).length, 'search_tools').toBeLessThan(1000);
    expect(found(await callTool(client, 'search_tools', { query: 'get a widget' }))).toContain('widgets_getWidget');
  });
});
