// createServer (src/runtime/server.ts, and the public one of src/index.ts): the server `serve`
// runs, built by a program. Attacked with the real catalog, a loopback upstream and the official
// MCP SDK client over Streamable HTTP: it serves and calls, refuses a bind it may not make before
// loading anything, and closes everything it holds in one order, on every way out.

import { createServer as createNetServer } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp } from '../kit/mcp.js';
import { createServer } from '../../src/index.js';
import { Catalog } from '../../src/runtime/catalog.js';
import { ClosingOrder, createServer as createRuntimeServer } from '../../src/runtime/server.js';
import { PROJECT, SCHEMAS, startCatalogUpstream, type CatalogUpstream } from '../mcp/helpers.js';

const TOKEN = 'a-token-of-the-embedding-program-0042';

let upstream: CatalogUpstream;

beforeAll(async () => {
  upstream = await startCatalogUpstream();
});

afterAll(async () => {
  await upstream?.close();
});

async function connect(url: string, token?: string): Promise<Client> {
  return (await connectHttp(url, token ? { authorization: `Bearer ${token}` } : {})).client;
}

/** Whether something accepts connections at the server's address. */
async function listening(url: string): Promise<boolean> {
  try {
    await fetch(url, { method: 'GET' });
    return true;
  } catch {
    return false;
  }
}

describe('createServer of the public API', () => {
  it('loads the catalog, serves it over HTTP behind its token, calls the upstream, and closes everything', async () => {
    const server = await createServer({
      catalog: { schemas: SCHEMAS, project: PROJECT, env: {}, upstreams: { '*': upstream.origin } },
      transport: 'http',
      port: 0,
      authTokens: [TOKEN],
    });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const url = server.url as string;
    await expect(connect(url)).rejects.toThrow();
    const client = await connect(url, TOKEN);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('widgets_getWidget');
    const before = upstream.records.length;
    const result = (await client.callTool({ name: 'widgets_getWidget', arguments: { id: 'w-2' } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(upstream.since(before).map((record) => record.url)).toEqual(['/v2/widgets/w-2']);
    await client.close();
    await server.close();
    expect(await listening(url)).toBe(false);
    // A second close waits for the first and fails nothing.
    await server.close();
  });

  it('refuses a non-loopback bind without a token before it loads anything', async () => {
    await expect(
      createServer({ catalog: { schemas: '/nonexistent/schemas' }, transport: 'http', host: '0.0.0.0', port: 0 }),
    ).rejects.toThrow(/refusing to listen on 0\.0\.0\.0 without an auth token/);
  });
});

describe('createServer of the runtime', () => {
  it('closes the transport, then the catalog, then what the caller opened, the last opened first', async () => {
    const closed: string[] = [];
    const catalog = await Catalog.load({
      schemas: SCHEMAS,
      project: PROJECT,
      env: {},
      upstreams: { '*': upstream.origin },
    });
    let url = '';
    const closeCatalog = catalog.close.bind(catalog);
    catalog.close = async () => {
      closed.push(`catalog (server listening: ${await listening(url)})`);
      await closeCatalog();
    };
    const opened = new ClosingOrder();
    opened.add({ close: () => void closed.push('logs') });
    opened.add({ close: () => void closed.push('state') });
    opened.add({ close: async () => void closed.push(`opened last (server listening: ${await listening(url)})`) });
    const server = await createRuntimeServer({
      catalog,
      transport: 'http',
      opened,
      serve: { port: 0, log: () => undefined },
    });
    url = server.url as string;
    expect(await listening(url)).toBe(true);
    await server.close();
    expect(closed).toEqual([
      'catalog (server listening: false)',
      'opened last (server listening: false)',
      'state',
      'logs',
    ]);
  });

  it('a port it cannot bind closes the catalog and what the caller opened, and says why', async () => {
    const taken = createNetServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const closed: string[] = [];
      const catalog = await Catalog.load({ schemas: SCHEMAS, project: PROJECT, env: {} });
      const closeCatalog = catalog.close.bind(catalog);
      catalog.close = async () => {
        closed.push('catalog');
        await closeCatalog();
      };
      const opened = new ClosingOrder();
      opened.add({ close: () => void closed.push('state') });
      await expect(
        createRuntimeServer({ catalog, transport: 'http', opened, serve: { port, log: () => undefined } }),
      ).rejects.toMatchObject({ code: 'EADDRINUSE' });
      expect(closed).toEqual(['catalog', 'state']);
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });
});

describe('ClosingOrder', () => {
  it('closes each part once, the last added first, each awaited before the next', async () => {
    const order: string[] = [];
    const closing = new ClosingOrder();
    const slow = {
      close: () => new Promise<void>((resolve) => setTimeout(() => resolve(void order.push('first')), 20)),
    };
    closing.add(slow);
    closing.add(slow);
    closing.add({ close: () => void order.push('second') });
    await Promise.all([closing.close(), closing.close()]);
    expect(order).toEqual(['second', 'first']);
  });

  it('a part that fails to close keeps no other open, and its failure is thrown once all are closed', async () => {
    const order: string[] = [];
    const closing = new ClosingOrder();
    closing.add({ close: () => void order.push('first') });
    closing.add({
      close: () => {
        throw new Error('state would not close');
      },
    });
    closing.add({ close: () => void order.push('third') });
    await expect(closing.close()).rejects.toThrow('state would not close');
    expect(order).toEqual(['third', 'first']);
  });
});
