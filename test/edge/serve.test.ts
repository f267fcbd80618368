// `flowguard serve --transport http` as an operator starts it: a bind beyond loopback without a
// token refuses to start (exit 2) before loading anything; with one, the warning comes before the
// connect instructions and only a client with the token gets in; tokens and hosts from the
// config; /metrics of the spawned server counts its calls and its sandbox's restarts.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenDigest } from '../../src/mcp/auth.js';
import { waitFor } from '../support/wait.js';
import { BIN, SCHEMAS, serveArgs, spawnServe, startCatalogUpstream, type CatalogUpstream, type Spawned } from '../mcp/helpers.js';
import { parseMetrics, rawRequest } from './helpers.js';

const TOKEN = 'serve-test-token-0123456789abcdef';

let upstream: CatalogUpstream;
let folder: string;
beforeAll(async () => {
  upstream = await startCatalogUpstream();
  folder = mkdtempSync(join(tmpdir(), 'flowguard-edge-'));
});
afterAll(async () => {
  await upstream?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** A project folder whose config is `config`, for the fixture schemas. */
function project(name: string, config: unknown): string {
  const dir = join(folder, name);
  mkdirSync(join(dir, '.flowmcp'), { recursive: true });
  writeFileSync(join(dir, '.flowmcp', 'config.json'), JSON.stringify(config));
  return dir;
}

/** The URL the server printed, once it is up. */
async function urlOf(server: Spawned): Promise<string> {
  expect(await waitFor(() => /serving \d+ tools at (\S+)/.test(server.stderr()), 20_000)).toBe(true);
  return (/serving \d+ tools at (\S+)/.exec(server.stderr()) as RegExpExecArray)[1] as string;
}

async function stop(server: Spawned): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
}

describe('binding beyond loopback', () => {
  it('without a token, exits 2 before loading anything and says how to set one', async () => {
    const server = spawnServe(serveArgs(upstream, ['--transport', 'http', '--host', '0.0.0.0', '--port', '0']));
    expect(await server.exited).toBe(2);
    expect(server.stderr()).toMatch(/refusing to listen on 0\.0\.0\.0 without an auth token/);
    expect(server.stderr()).toMatch(/FLOWGUARD_AUTH_TOKEN=.*--auth-token.*http\.authTokens/);
    expect(server.stderr()).not.toContain('schema files');
  });

  it('with a token from the environment, warns before the connect instructions and serves only a client with the token', async () => {
    const server = spawnServe(serveArgs(upstream, ['--transport', 'http', '--host', '0.0.0.0', '--port', '0']), { FLOWGUARD_AUTH_TOKEN: TOKEN });
    try {
      const printed = await urlOf(server);
      const stderr = server.stderr();
      const warning = stderr.indexOf('warning: listening on 0.0.0.0');
      expect(warning).toBeGreaterThan(-1);
      expect(warning).toBeLessThan(stderr.indexOf('serving '));
      const url = printed.replace('0.0.0.0', '127.0.0.1');
      expect((await rawRequest(url, { method: 'POST' })).status).toBe(401);
      const client = new Client({ name: 'edge-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();
    } finally {
      await stop(server);
    }
  });

  it('refuses a short --auth-token and a malformed http.authTokens entry with exit 2', async () => {
    const short = spawnServe(serveArgs(upstream, ['--transport', 'http', '--port', '0', '--auth-token', 'short']));
    expect(await short.exited).toBe(2);
    expect(short.stderr()).toContain('at least 16 characters');
    const dir = project('bad-digest', { http: { authTokens: ['sha256:1234'] } });
    const bad = spawnServe([BIN, 'serve', '--schemas', SCHEMAS, '--project', dir, '--transport', 'http', '--port', '0']);
    expect(await bad.exited).toBe(2);
    expect(bad.stderr()).toMatch(/http\.authTokens\.0 must be sha256: and the 64 hex digits/);
  });
});

describe('a spawned server with tokens and hosts from the config', () => {
  it('takes the token by its digest and the allowed host; /metrics counts its calls and the sandbox restarts of its load', async () => {
    // The fixture project's config, plus access: its spinner schema's factory misses its deadline at load, so its worker is replaced.
    const dir = project('config-access', { sandbox: { deadlineMs: 500, workers: 1, loadHandlers: 'at-load' }, http: { authTokens: [tokenDigest(TOKEN)], allowedHosts: ['mcp.internal.example'] } });
    writeFileSync(join(dir, '.env'), '');
    const server = spawnServe([BIN, 'serve', '--schemas', SCHEMAS, '--project', dir, '--upstream', `*=${upstream.origin}`, '--transport', 'http', '--port', '0']);
    try {
      const url = await urlOf(server);
      const metricsUrl = url.replace(/\/mcp$/, '/metrics');
      const auth = { authorization: `Bearer ${TOKEN}` };
      expect((await rawRequest(metricsUrl)).status).toBe(401);
      expect((await rawRequest(metricsUrl, { headers: { ...auth, host: 'evil.example' } })).status).toBe(403);
      const client = new Client({ name: 'edge-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: auth } }));
      expect((await client.callTool({ name: 'widgets_getWidget', arguments: { id: 'w-3' } })).isError).toBeFalsy();
      await client.close();
      const scraped = await rawRequest(metricsUrl, { headers: { ...auth, host: 'mcp.internal.example:443' } });
      expect(scraped.status).toBe(200);
      const samples = parseMetrics(scraped.body);
      expect(samples.get('flowguard_tool_calls_total{tool="widgets_getWidget",outcome="ok"}')).toBe(1);
      expect(samples.get('flowguard_sandbox_restarts_total{reason="replaced"}')).toBeGreaterThanOrEqual(1);
    } finally {
      await stop(server);
    }
  });
});
