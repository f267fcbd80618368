// Discovery mode end to end, with the official SDK client: a spawned `flowguard serve --tools
// search` over stdio and the Streamable HTTP server in this process, both on the discovery
// fixture catalog against a loopback upstream. tools/list shows the meta-tools and the
// alwaysLoad tool only; search_tools → describe_tool → call_tool reaches a tool that is not
// listed, with the result, audit line and metrics of a direct call; a tool whose key is not
// granted is never found.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { startHttpServer, type McpHttpServer } from '../../src/edge/http.js';
import { ServerMetrics } from '../../src/observe/metrics.js';
import { tempProject } from '../kit/project.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { callRecordsDelivered, waitFor } from '../support/wait.js';
import { BIN, connectHttp, connectStdio, ROOT, type Connection } from '../mcp/helpers.js';
import { parseMetrics, rawRequest } from '../edge/helpers.js';

const SCHEMAS = join(ROOT, 'test', 'fixtures', 'discovery', 'schemas');
const META = ['search_tools', 'describe_tool', 'call_tool'];

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(async () => {
  await upstream?.close();
});

function auditLines(dir: string): Array<Record<string, unknown>> {
  const folder = join(dir, '.flowmcp', 'audit');
  let files: string[] = [];
  try {
    files = readdirSync(folder).sort();
  } catch {
    return [];
  }
  return files.flatMap((file) =>
    readFileSync(join(folder, file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>),
  );
}

async function search(
  client: Client,
  query: string,
  extra: Record<string, unknown> = {},
): Promise<Array<{ name: string; namespace: string; readOnly: boolean; score: number }>> {
  const result = (await client.callTool({ name: 'search_tools', arguments: { query, ...extra } })) as CallToolResult;
  expect(result.isError).toBeFalsy();
  return (
    result.structuredContent as { tools: Array<{ name: string; namespace: string; readOnly: boolean; score: number }> }
  ).tools;
}

/** The same steps over either transport: the listing, the search, the description, the call through call_tool and directly. */
async function discoveryJourney(
  client: Client,
  fullListing: readonly McpTool[],
): Promise<{ viaMeta: CallToolResult; direct: CallToolResult }> {
  const listed = (await client.listTools()).tools;
  // The meta-tools and the one alwaysLoad tool served; not the alwaysLoad tool whose key is missing.
  expect(listed.map((tool) => tool.name)).toEqual([...META, 'skyline_getForecast']);

  const hits = await search(client, 'storm alerts for my district');
  expect(hits[0]?.name).toBe('skyline_getSevereWarnings');
  expect(hits[0]).toMatchObject({ namespace: 'skyline', readOnly: true });

  const described = (await client.callTool({
    name: 'describe_tool',
    arguments: { name: 'skyline_getSevereWarnings' },
  })) as CallToolResult;
  expect((described.structuredContent as { tool: McpTool }).tool).toEqual(
    fullListing.find((tool) => tool.name === 'skyline_getSevereWarnings'),
  );

  const viaMeta = (await client.callTool({
    name: 'call_tool',
    arguments: { name: 'skyline_getSevereWarnings', arguments: { region: 'Bavaria' } },
  })) as CallToolResult;
  const direct = (await client.callTool({
    name: 'skyline_getSevereWarnings',
    arguments: { region: 'Bavaria' },
  })) as CallToolResult;
  expect(viaMeta.isError).toBeFalsy();
  expect(viaMeta).toEqual(direct);
  return { viaMeta, direct };
}

/** Every tool of the fixture as the full listing gives it, from a server in `all` mode. */
async function fullListing(): Promise<McpTool[]> {
  const project = tempProject({ config: { audit: { enabled: false } } });
  const all = await connectStdio(upstream as never, [
    BIN,
    'serve',
    '--schemas',
    SCHEMAS,
    '--project',
    project.dir,
    '--upstream',
    `*=${upstream.origin}`,
    '--tools',
    'all',
    '--transport',
    'stdio',
  ]);
  try {
    return (await all.client.listTools()).tools;
  } finally {
    await all.close();
    project.remove();
  }
}

describe('discovery mode over stdio (spawned flowguard serve --tools search)', () => {
  const project = tempProject({ config: {} });
  let connection: Connection;
  let listing: McpTool[];
  beforeAll(async () => {
    listing = await fullListing();
    connection = await connectStdio(upstream as never, [
      BIN,
      'serve',
      '--schemas',
      SCHEMAS,
      '--project',
      project.dir,
      '--upstream',
      `*=${upstream.origin}`,
      '--tools',
      'search',
      '--transport',
      'stdio',
    ]);
  });
  afterAll(async () => {
    await connection?.close();
    project.remove();
  });

  it('lists meta-tools and alwaysLoad only; search → describe → call reaches an unlisted tool as a direct call does, audited under its own name', async () => {
    expect(listing.map((tool) => tool.name).sort()).toEqual([
      'chainpeek_getAddrTxList',
      'chainpeek_getGasPrice',
      'shelfware_getBookByIsbn',
      'shelfware_searchAuthors',
      'skyline_getForecast',
      'skyline_getSevereWarnings',
    ]);
    await discoveryJourney(connection.client, listing);
    expect(await waitFor(() => auditLines(project.dir).length === 2)).toBe(true);
    const lines = auditLines(project.dir);
    expect(lines.map((line) => [line.tool, line.outcome])).toEqual([
      ['skyline_getSevereWarnings', 'ok'],
      ['skyline_getSevereWarnings', 'ok'],
    ]);
    expect(connection.stderr()).toContain('discovery mode (--tools search)');
  });

  it('never finds a tool whose key is not granted, even by its own words', async () => {
    const hits = await search(connection.client, 'gold bullion price', { limit: 25 });
    expect(hits.map((hit) => hit.name)).not.toContain('goldvault_getBullionPrice');
    const described = (await connection.client.callTool({
      name: 'describe_tool',
      arguments: { name: 'goldvault_getBullionPrice' },
    })) as CallToolResult;
    expect(described.isError).toBe(true);
  });

  it('answers "none" with an empty list and a text saying so; bad arguments are an isError result naming the argument', async () => {
    const result = (await connection.client.callTool({
      name: 'search_tools',
      arguments: { query: 'order a pizza to my flat' },
    })) as CallToolResult;
    expect(result.structuredContent).toEqual({ tools: [] });
    expect((result.content[0] as { text: string }).text).toMatch(/^No tool of this server fits/);
    const bad = (await connection.client.callTool({
      name: 'search_tools',
      arguments: { query: 'weather', limit: 26 },
    })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect((bad.content[0] as { text: string }).text).toContain('limit must be a whole number from 1 to 25');
  });

  it('call_tool validates as a direct call: a missing argument fails alike, an unknown tool is the same protocol error', async () => {
    const viaMeta = await connection.client.callTool({
      name: 'call_tool',
      arguments: { name: 'shelfware_getBookByIsbn', arguments: {} },
    });
    const direct = await connection.client.callTool({ name: 'shelfware_getBookByIsbn', arguments: {} });
    expect(viaMeta.isError).toBe(true);
    expect(viaMeta).toEqual(direct);
    await expect(
      connection.client.callTool({ name: 'call_tool', arguments: { name: 'no_such_tool', arguments: {} } }),
    ).rejects.toThrow(/Unknown tool: no_such_tool/);
  });
});

describe('discovery mode over Streamable HTTP', () => {
  const project = tempProject({ config: { audit: { enabled: false } } });
  const metrics = new ServerMetrics();
  let catalog: Catalog;
  let server: McpHttpServer;
  let connection: Connection;
  beforeAll(async () => {
    catalog = await Catalog.load({
      schemas: SCHEMAS,
      project: project.dir,
      env: {},
      upstreams: { '*': upstream.origin },
    });
    server = await startHttpServer(catalog, { port: 0, log: () => undefined, metrics, discovery: 'search' });
    connection = await connectHttp(server.url);
  });
  afterAll(async () => {
    await connection?.close();
    await server?.close();
    await catalog?.close();
    project.remove();
  });

  it('reaches the unlisted tool through the meta-tools; /metrics counts both calls under the real tool', async () => {
    await discoveryJourney(connection.client, await fullListing());
    await callRecordsDelivered();
    const scraped = parseMetrics((await rawRequest(server.url.replace(/\/mcp$/, '/metrics'))).body);
    expect(scraped.get('flowguard_tool_calls_total{tool="skyline_getSevereWarnings",outcome="ok"}')).toBe(2);
    expect([...scraped.keys()].filter((key) => key.includes('call_tool') || key.includes('search_tools'))).toEqual([]);
  });
});
