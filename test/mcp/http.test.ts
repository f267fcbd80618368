// The Streamable HTTP server on its own terms: Origin checks, methods and paths, body limits,
// cancellation in stateless and session mode, the result cap, and `flowguard serve --transport
// http` as an operator starts it.

import { spawnSync } from 'node:child_process';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ALLOWED_ORIGINS, startHttpServer } from '../../src/edge/http.js';
import { waitFor } from '../support/wait.js';
import {
  BIN,
  connectHttp,
  ROOT,
  SCHEMAS,
  serveArgs,
  spawnServe,
  startCatalogUpstream,
  startHttpFixture,
  type CatalogUpstream,
  type HttpFixture,
} from './helpers.js';

let upstream: CatalogUpstream;
let stateless: HttpFixture;
beforeAll(async () => {
  upstream = await startCatalogUpstream();
  stateless = await startHttpFixture(upstream, {
    allowedOrigins: [...DEFAULT_ALLOWED_ORIGINS, 'https://app.example.com'],
    maxBodyBytes: 64 * 1024,
  });
});
afterAll(async () => {
  await stateless?.close();
  await upstream?.close();
});

const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

function post(url: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
  });
}

describe('Origin', () => {
  it.each([
    ['http://evil.example'],
    ['http://localhost.evil.example'],
    ['https://localhost:3000'],
    ['null'],
    ['https://app.example.com:8443'],
  ])('refuses a request from %s with 403', async (origin) => {
    const before = upstream.records.length;
    const response = await post(stateless.server.url, LIST, { origin });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain('is not allowed');
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(upstream.records.length).toBe(before);
  });

  it.each([['http://localhost:6274'], ['http://127.0.0.1:5173'], ['https://app.example.com']])(
    'serves %s, with CORS headers',
    async (origin) => {
      const response = await post(stateless.server.url, LIST, { origin });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
      expect(await response.text()).toContain('widgets_getWidget');
    },
  );

  it('serves clients that send no Origin (not a browser), as plain JSON unless a progress token asks for a stream', async () => {
    const plain = await post(stateless.server.url, LIST);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toContain('application/json');
    const streamed = await post(
      stateless.server.url,
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: { progressToken: 'p' } } }),
    );
    expect(streamed.headers.get('content-type')).toContain('text/event-stream');
    expect(await streamed.text()).toContain('widgets_getWidget');
  });

  it('answers a preflight from an allowed origin and refuses one from another', async () => {
    const allowed = await fetch(stateless.server.url, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST' },
    });
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-headers')).toContain('mcp-protocol-version');
    const refused = await fetch(stateless.server.url, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(refused.status).toBe(403);
  });
});

describe('requests the stateless server refuses', () => {
  it('405 for GET and DELETE, 404 off the endpoint, 400 for invalid JSON, 413 for a body over the cap', async () => {
    expect((await fetch(stateless.server.url, { headers: { accept: 'text/event-stream' } })).status).toBe(405);
    expect((await fetch(stateless.server.url, { method: 'DELETE' })).status).toBe(405);
    expect((await post(stateless.server.url.replace('/mcp', '/other'), LIST)).status).toBe(404);
    const invalid = await post(stateless.server.url, '{"jsonrpc":');
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { error: { code: number } }).error.code).toBe(-32700);
    expect(
      (
        await post(
          stateless.server.url,
          JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(70_000) } }),
        )
      ).status,
    ).toBe(413);
  });
});

describe('cancellation', () => {
  it('stateless: a client that goes away mid-call closes the upstream request', async () => {
    const connection = await connectHttp(stateless.server.url);
    const before = { ...upstream.slow };
    const pending = connection.client
      .callTool({ name: 'widgets_waitForWidget', arguments: { id: 'hang-2' } })
      .catch((error: unknown) => error);
    expect(await waitFor(() => upstream.slow.arrived === before.arrived + 1)).toBe(true);
    await connection.close();
    await pending;
    expect(await waitFor(() => upstream.slow.closed === before.closed + 1, 2_000)).toBe(true);
  });

  it('sessions: notifications/cancelled reaches the running call and closes the upstream request', async () => {
    const sessions = await startHttpFixture(upstream, { sessions: true });
    try {
      const transport = new StreamableHTTPClientTransport(new URL(sessions.server.url));
      const client = new Client({ name: 'flowguard-test', version: '1.0.0' });
      await client.connect(transport);
      expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      const before = { ...upstream.slow };
      const controller = new AbortController();
      const pending = client.callTool(
        { name: 'widgets_waitForWidget', arguments: { id: 'hang-3' } },
        CallToolResultSchema,
        { signal: controller.signal },
      );
      expect(await waitFor(() => upstream.slow.arrived === before.arrived + 1)).toBe(true);
      controller.abort();
      await expect(pending).rejects.toThrow();
      expect(await waitFor(() => upstream.slow.closed === before.closed + 1, 2_000)).toBe(true);
      // The session still serves; DELETE ends it, and its id is unknown afterwards.
      expect(
        ((await client.callTool({ name: 'widgets_getWidget', arguments: { id: 'w-3' } })) as CallToolResult).isError,
      ).toBeFalsy();
      const id = transport.sessionId as string;
      await transport.terminateSession();
      await client.close();
      const gone = await post(sessions.server.url, LIST, {
        'mcp-session-id': id,
        'mcp-protocol-version': '2025-06-18',
      });
      expect(gone.status).toBe(404);
      const noSession = await post(sessions.server.url, LIST);
      expect(noSession.status).toBe(400);
    } finally {
      await sessions.close();
    }
  });
});

describe('a selection of tools (a group)', () => {
  it('lists only the selected tools that have their keys; the rest of the catalog is unknown', async () => {
    const selection = stateless.catalog.tools.filter((tool) =>
      ['widgets_getWidget', 'vault_getNote'].includes(tool.name),
    );
    const server = await startHttpServer(stateless.catalog, { port: 0, tools: selection });
    const connection = await connectHttp(server.url);
    try {
      expect((await connection.client.listTools()).tools.map((tool) => tool.name)).toEqual(['widgets_getWidget']);
      const hidden = (await connection.client.callTool({
        name: 'vault_getNote',
        arguments: { id: 'n-1' },
      })) as CallToolResult;
      expect(hidden.isError).toBe(true);
      const outside = await connection.client
        .callTool({ name: 'widgets_listWidgets', arguments: {} })
        .catch((error: unknown) => error);
      expect((outside as McpError).code).toBe(ErrorCode.InvalidParams);
    } finally {
      await connection.close();
      await server.close();
    }
  });
});

describe('the result cap', () => {
  let capped: HttpFixture;
  beforeAll(async () => {
    capped = await startHttpFixture(upstream, { maxResultChars: 80 });
  });
  afterAll(() => capped?.close());

  it('cuts long text with a notice, and never sends a cut result as structuredContent', async () => {
    const connection = await connectHttp(capped.server.url);
    try {
      const result = (await connection.client.callTool({
        name: 'media_getDump',
        arguments: { rows: 20 },
      })) as CallToolResult;
      expect(result.structuredContent).toBeUndefined();
      expect(result.isError).toBe(true);
      const [note, data] = result.content.map((item) => (item.type === 'text' ? item.text : ''));
      expect(note).toContain('is longer than the cap of 80 characters');
      expect(data).toMatch(
        /^\{\n {2}"rows": \[[\s\S]{60,80}\n\n\[flowguard: result cut here\. It has \d+ characters; only the first 80 are shown/,
      );
      expect(result._meta?.['flowguard/cut']).toEqual({ shown: 80, total: expect.any(Number) });
      const image = (await connection.client.callTool({ name: 'media_getChart', arguments: {} })) as CallToolResult;
      expect(image.content).toEqual([
        {
          type: 'text',
          text: expect.stringMatching(
            /^The API answered with an image \(image\/png, \d+ bytes\)\. As base64 it has \d+ characters, more than the server's cap of 80, so it is not included\.$/,
          ),
        },
      ]);
    } finally {
      await connection.close();
    }
  });
});

describe('flowguard serve --transport http', () => {
  it('prints the URL and how to connect, serves over HTTP, and exits 0 on SIGTERM', async () => {
    const server = spawnServe([...serveArgs(upstream), '--transport', 'http', '--port', '0']);
    try {
      expect(
        await waitFor(() => /serving 14 tools at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.test(server.stderr()), 15_000),
      ).toBe(true);
      const url = /serving 14 tools at (\S+)/.exec(server.stderr())?.[1] as string;
      const stderr = server.stderr();
      expect(stderr).toContain('flowguard: 5 schema files: 3 loaded, 2 rejected; 14 tools served, 1 hidden');
      expect(stderr).toContain(`npx @modelcontextprotocol/inspector --cli ${url} --transport http --method tools/list`);
      const desktop = JSON.parse(/^ {4}(\{"mcpServers".*)$/m.exec(stderr)?.[1] ?? 'null') as {
        mcpServers: { flowguard: { command: string; args: string[] } };
      };
      // This Node and the installed launcher by path (test/reload/desktop-entry.test.ts runs the entry).
      expect(desktop.mcpServers.flowguard.command).toBe(process.execPath);
      expect(desktop.mcpServers.flowguard.args.slice(0, 6)).toEqual([
        BIN,
        'serve',
        '--transport',
        'stdio',
        '--schemas',
        SCHEMAS,
      ]);
      const connection = await connectHttp(url);
      expect((await connection.client.listTools()).tools).toHaveLength(14);
      await connection.close();
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(server.stderr()).toContain('flowguard: SIGTERM, shutting down');
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it.each([
    [['--transport', 'carrier-pigeon'], /--transport must be stdio or http/],
    [['--schemas', 'no-such-folder'], /no such file or folder: no-such-folder/],
    [['--port', '99999'], /--port must be a whole number from 0 to 65535/],
    [['--allow-origin', 'localhost'], /--allow-origin: allowed origin 'localhost'/],
    [['--upstream', 'nonsense'], /expected ORIGIN=BASEURL/],
  ])('exits 2 on a usage error: %s', (args, message) => {
    const result = spawnSync(process.execPath, [BIN, 'serve', ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
