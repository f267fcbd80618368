// tools/list in pages through the SDK client: a spawned `serve --page-size 4` (stdio) and the
// HTTP server with discovery.pageSize from the config: pages of the size asked, a nextCursor
// while more follow, every tool exactly once; a forged cursor is InvalidParams, not trusted.

import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { startHttpServer, type McpHttpServer } from '../../src/edge/http.js';
import { loadProjectConfig } from '../../src/config/project.js';
import { tempProject } from '../kit/project.js';
import { BIN, connectHttp, connectStdio, ROOT, type Connection } from '../mcp/helpers.js';

const SCHEMAS = join(ROOT, 'test', 'fixtures', 'discovery', 'schemas');
const SERVED = 6;

async function allPages(client: Client): Promise<{ sizes: number[]; names: string[] }> {
  const sizes: number[] = [];
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 10; page += 1) {
    const answer = await client.listTools(cursor === undefined ? {} : { cursor });
    sizes.push(answer.tools.length);
    tools.push(...answer.tools);
    cursor = answer.nextCursor;
    if (cursor === undefined) break;
  }
  return { sizes, names: tools.map((tool) => tool.name) };
}

describe('tools/list pages', () => {
  const project = tempProject({ config: { audit: { enabled: false }, discovery: { tools: 'all', pageSize: 5 } } });
  let stdio: Connection;
  let catalog: Catalog;
  let server: McpHttpServer;
  let http: Connection;
  beforeAll(async () => {
    stdio = await connectStdio({ origin: 'http://127.0.0.1:9' } as never, [
      BIN,
      'serve',
      '--schemas',
      SCHEMAS,
      '--project',
      project.dir,
      '--tools',
      'all',
      '--page-size',
      '4',
      '--transport',
      'stdio',
    ]);
    catalog = await Catalog.load({ schemas: SCHEMAS, project: project.dir, env: {} });
    server = await startHttpServer(catalog, {
      port: 0,
      log: () => undefined,
      pageSize: loadProjectConfig(project.dir).discovery.pageSize,
    });
    http = await connectHttp(server.url);
  });
  afterAll(async () => {
    await stdio?.close();
    await http?.close();
    await server?.close();
    await catalog?.close();
    project.remove();
  });

  it('pages by --page-size over stdio and by discovery.pageSize over HTTP, every tool exactly once', async () => {
    const overStdio = await allPages(stdio.client);
    expect(overStdio.sizes).toEqual([4, 2]);
    expect(new Set(overStdio.names).size).toBe(SERVED);
    const overHttp = await allPages(http.client);
    expect(overHttp.sizes).toEqual([5, 1]);
    expect(overHttp.names).toEqual(overStdio.names);
  });

  it('refuses a cursor it did not give, and one past the end', async () => {
    await expect(stdio.client.listTools({ cursor: 'not-a-cursor' })).rejects.toThrow(
      /invalid cursor: not one this server gave/,
    );
    await expect(stdio.client.listTools({ cursor: Buffer.from('tools:999').toString('base64url') })).rejects.toThrow(
      /invalid cursor: past the end/,
    );
  });
});
