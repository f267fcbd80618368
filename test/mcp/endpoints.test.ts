// Focused endpoints (issue 25): `flowguard serve --transport http` serves `/mcp` the whole catalog
// and `/mcp/<group>` each group of .flowmcp/groups.json, each verified as `serve --group` verifies.
// Attacked with the official SDK client over Streamable HTTP against a spawned server and the
// server in this process: a group endpoint lists and calls only its tools and refuses another
// group's; a tampered group's endpoint is refused (404 naming why) and the summary says so; an
// unknown group is a 404; the token, Host and Origin rules, sessions and /metrics hold at every
// endpoint; `/mcp` is unchanged.

import { spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, toolNames } from '../kit/mcp.js';
import { startHttpServer } from '../../src/edge/http.js';
import { ServerMetrics } from '../../src/observe/metrics.js';
import { callRecordsDelivered, waitFor } from '../support/wait.js';
import { LIST_BODY, MCP_HEADERS, parseMetrics, rawRequest } from '../edge/helpers.js';
import {
  BIN,
  PROJECT,
  ROOT,
  SCHEMAS,
  spawnServe,
  loadFixtureCatalog,
  startCatalogUpstream,
  type CatalogUpstream,
  type Spawned,
} from './helpers.js';

const TOKEN = 'endpoint-test-token-0123456789';
const SHOP = ['widgets/catalog.mjs::getWidget', 'widgets/catalog.mjs::listWidgets', 'vault/notes.mjs::getNote'];
const MEDIA = ['media/files.mjs::getReadme', 'media/files.mjs::listColours'];

let upstream: CatalogUpstream;
let project: string;
beforeAll(async () => {
  upstream = await startCatalogUpstream();
  project = mkdtempSync(join(tmpdir(), 'flowguard-endpoints-'));
  mkdirSync(join(project, '.flowmcp'));
  copyFileSync(join(PROJECT, '.flowmcp', 'config.json'), join(project, '.flowmcp', 'config.json'));
  for (const [name, refs] of [
    ['shop', SHOP],
    ['media', MEDIA],
    ['tampered', MEDIA],
  ] as const) {
    const created = spawnSync(
      process.execPath,
      [BIN, 'group', 'create', name, '--tools', refs.join(','), '--schemas', SCHEMAS, '--project', project],
      { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } },
    );
    expect(created.status, created.stdout + created.stderr).toBe(0);
  }
  // A tool of `tampered` changed since it was recorded, as its recorded hash now says.
  const file = JSON.parse(readFileSync(join(project, '.flowmcp', 'groups.json'), 'utf8')) as {
    groups: Record<string, { toolHashes: Record<string, string> }>;
  };
  (file.groups.tampered as { toolHashes: Record<string, string> }).toolHashes['media/files.mjs::getReadme'] =
    `sha256:${'0'.repeat(64)}`;
  writeFileSync(join(project, '.flowmcp', 'groups.json'), JSON.stringify(file, null, 2));
});
afterAll(async () => {
  await upstream?.close();
  rmSync(project, { recursive: true, force: true });
});

async function urlOf(server: Spawned): Promise<string> {
  expect(await waitFor(() => /serving \d+ tools? at (\S+)/.test(server.stderr()), 20_000), server.stderr()).toBe(true);
  return (/serving \d+ tools? at (\S+)/.exec(server.stderr()) as RegExpExecArray)[1] as string;
}

async function connect(
  url: string,
  headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` },
): Promise<Client> {
  return (await connectHttp(url, headers)).client;
}

const names = toolNames;

describe('a spawned flowguard serve --transport http with a groups file', () => {
  let server: Spawned;
  let url: string;
  beforeAll(async () => {
    server = spawnServe(
      [
        BIN,
        'serve',
        '--schemas',
        SCHEMAS,
        '--project',
        project,
        '--upstream',
        `*=${upstream.origin}`,
        '--transport',
        'http',
        '--port',
        '0',
      ],
      { FLOWGUARD_AUTH_TOKEN: TOKEN },
    );
    url = await urlOf(server);
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  it('lists every endpoint in the summary and the connect lines, and says why the tampered group is not served', () => {
    const stderr = server.stderr();
    expect(stderr).toContain('flowguard: group endpoints (');
    expect(stderr).toContain('  /mcp/shop: 2 of its 3 tools served; hidden for a missing key: vault_getNote');
    expect(stderr).toContain('  /mcp/media: 2 of its 2 tools served');
    expect(stderr).toMatch(
      / {2}\/mcp\/tampered: NOT served, the group does not verify:\n {4}GRP006 error .*media\/files\.mjs::getReadme changed/,
    );
    expect(stderr).toContain(`    ${url}/shop  (group shop: only its tools)`);
    expect(stderr).toContain(`    ${url}/media  (group media: only its tools)`);
    expect(stderr).not.toContain(`${url}/tampered `);
  });

  it("a group endpoint lists and calls only its tools, and refuses another group's tool; /mcp is unchanged", async () => {
    const shop = await connect(`${url}/shop`);
    const whole = await connect(url);
    try {
      expect(await names(shop)).toEqual(['widgets_getWidget', 'widgets_listWidgets']);
      const answer = await shop.callTool({ name: 'widgets_getWidget', arguments: { id: 'w-7' } });
      expect(answer.isError).toBeFalsy();
      expect(JSON.stringify(answer.content)).toContain('w-7');
      await expect(shop.callTool({ name: 'media_getReadme', arguments: {} })).rejects.toThrow(
        /Unknown tool: media_getReadme/,
      );
      const all = await names(whole);
      expect(all).toEqual(
        expect.arrayContaining(['media_getReadme', 'media_listColours', 'widgets_getWidget', 'widgets_listWidgets']),
      );
      expect(all.length).toBeGreaterThan(4);
      expect((await whole.callTool({ name: 'media_getReadme', arguments: {} })).isError).toBeFalsy();
    } finally {
      await shop.close();
      await whole.close();
    }
  });

  it('refuses the tampered group and an unknown one with a 404 naming why, only to a client with the token', async () => {
    const auth = { ...MCP_HEADERS, authorization: `Bearer ${TOKEN}` };
    const tampered = await rawRequest(`${url}/tampered`, { method: 'POST', headers: auth, body: LIST_BODY });
    expect(tampered.status).toBe(404);
    expect(tampered.body).toMatch(
      /group 'tampered' is not served: it does not verify \(GRP006: tool media\/files\.mjs::getReadme changed/,
    );
    const unknown = await rawRequest(`${url}/nope`, { method: 'POST', headers: auth, body: LIST_BODY });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain('no endpoint /mcp/nope');
    // Without the token nothing about the groups is told: the endpoint asks for the token.
    for (const path of ['/shop', '/tampered', '/nope'])
      expect(
        (await rawRequest(`${url}${path}`, { method: 'POST', headers: MCP_HEADERS, body: LIST_BODY })).status,
      ).toBe(401);
  });

  it('holds the Host and Origin rules at a group endpoint as at /mcp', async () => {
    const auth = { ...MCP_HEADERS, authorization: `Bearer ${TOKEN}` };
    expect(
      (await rawRequest(`${url}/shop`, { method: 'POST', headers: { ...auth, host: 'evil.example' }, body: LIST_BODY }))
        .status,
    ).toBe(403);
    expect(
      (
        await rawRequest(`${url}/shop`, {
          method: 'POST',
          headers: { ...auth, origin: 'https://evil.example' },
          body: LIST_BODY,
        })
      ).status,
    ).toBe(403);
    expect((await rawRequest(`${url}/shop`, { method: 'POST', headers: auth, body: LIST_BODY })).status).toBe(200);
  });
  it("a path that spells a group otherwise (dot segments, encodings, case, a prototype's name) serves nothing a client did not name plainly", async () => {
    const auth = { ...MCP_HEADERS, authorization: `Bearer ${TOKEN}` };
    const { port } = new URL(url);
    /** The tools listed at `path` sent exactly as written (no client normalises it), or the status. */
    const listedAt = (path: string) =>
      new Promise<string[] | number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers: auth }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
          res.on('end', () =>
            resolve(
              res.statusCode === 200
                ? (JSON.parse(body) as { result: { tools: Array<{ name: string }> } }).result.tools
                    .map((tool) => tool.name)
                    .sort()
                : (res.statusCode ?? 0),
            ),
          );
        });
        req.on('error', reject);
        req.end(LIST_BODY);
      });
    const shop = ['widgets_getWidget', 'widgets_listWidgets'];
    for (const path of [
      '/mcp/%74ampered',
      '/mcp/shop%2F..%2Ftampered',
      '/mcp/shop/',
      '/mcp//shop',
      '/mcp/SHOP',
      '/mcp/sh%6Fp',
      '/mcp/__proto__',
      '/mcp/constructor',
      '/mcp/tampered/..',
      '/mcp/shop/../tampered',
      '/mcp/shop/%2e%2e/tampered',
      '/mcp/shop\\..\\tampered',
    ])
      expect(await listedAt(path), path).toBe(404);
    // Dot segments resolve before the endpoint is looked up: these are /mcp/shop, as a browser reads them.
    for (const path of ['/mcp/media/../shop', '/mcp/tampered/%2E%2E/shop', '/mcp/./shop'])
      expect(await listedAt(path), path).toEqual(shop);
  });
});

describe('group endpoints in this process, with sessions', () => {
  it("keeps a session to its endpoint, and counts a group endpoint's calls in /metrics under the tool", async () => {
    const metrics = new ServerMetrics();
    // A group's tools are the catalog's own: the endpoints are built from the catalog served.
    const catalog = await loadFixtureCatalog(upstream);
    const tools = catalog.tools.filter((tool) => tool.namespace === 'widgets');
    const server = await startHttpServer(catalog, {
      port: 0,
      log: () => undefined,
      sessions: true,
      metrics,
      groups: [
        { name: 'widgets', serving: { tools } },
        { name: 'broken', refused: 'it does not verify (GRP006: test)' },
      ],
    });
    const group = await connectHttp(`${server.url}/widgets`);
    try {
      expect((await group.client.listTools()).tools.every((tool) => tool.name.startsWith('widgets_'))).toBe(true);
      expect(
        (await group.client.callTool({ name: 'widgets_getWidget', arguments: { id: 'w-2' } })).isError,
      ).toBeFalsy();
      const sessionId = (group.client.transport as StreamableHTTPClientTransport).sessionId as string;
      expect(sessionId).toBeTruthy();
      // The same session id at /mcp is unknown there.
      const elsewhere = await rawRequest(server.url, {
        method: 'POST',
        headers: { ...MCP_HEADERS, 'mcp-session-id': sessionId },
        body: LIST_BODY,
      });
      expect(elsewhere.status).toBe(404);
      expect(elsewhere.body).toContain('Session not found');
      const broken = await rawRequest(`${server.url}/broken`, {
        method: 'POST',
        headers: MCP_HEADERS,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
        }),
      });
      expect(broken.status).toBe(404);
      expect(broken.body).toContain("group 'broken' is not served: it does not verify (GRP006: test)");
      await callRecordsDelivered();
      const scraped = parseMetrics((await rawRequest(server.url.replace(/\/mcp$/, '/metrics'))).body);
      expect(scraped.get('flowguard_tool_calls_total{tool="widgets_getWidget",outcome="ok"}')).toBe(1);
    } finally {
      await group.close();
      await server.close();
      await catalog.close();
    }
  });
});

describe('group endpoints under --watch', () => {
  it('serves /mcp only, and says so: a group serves its files as recorded, a reload would serve them edited', async () => {
    const server = spawnServe([
      BIN,
      'serve',
      '--schemas',
      SCHEMAS,
      '--project',
      project,
      '--upstream',
      `*=${upstream.origin}`,
      '--transport',
      'http',
      '--port',
      '0',
      '--watch',
    ]);
    try {
      const url = await urlOf(server);
      expect(server.stderr()).toMatch(/--watch serves \/mcp only: the 3 groups of .*groups\.json get no endpoint/);
      expect((await rawRequest(`${url}/shop`, { method: 'POST', headers: MCP_HEADERS, body: LIST_BODY })).status).toBe(
        404,
      );
      expect((await rawRequest(url, { method: 'POST', headers: MCP_HEADERS, body: LIST_BODY })).status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});
