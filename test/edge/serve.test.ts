// `flowguard serve --transport http` as an operator starts it: a bind beyond loopback without a
// token refuses to start (exit 2) before loading anything; with one, the warning comes before the
// connect instructions and only a client with the token gets in; tokens and hosts from the
// config; /metrics of the spawned server counts its calls and its sandbox's restarts.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenDigest } from '../../src/edge/auth.js';
import { connectHttp, spawnHttpServer } from '../kit/mcp.js';
import { tempProject, type TempProject } from '../kit/project.js';
import { startFlowguard } from '../kit/spawn.js';
import { PROJECT, SCHEMAS, startCatalogUpstream, type CatalogUpstream } from '../mcp/helpers.js';
import { parseMetrics, rawRequest } from './helpers.js';

const TOKEN = 'serve-test-token-0123456789abcdef';

let upstream: CatalogUpstream;
const projects: TempProject[] = [];
beforeAll(async () => {
  upstream = await startCatalogUpstream();
});
afterAll(async () => {
  await upstream?.close();
  for (const project of projects) project.remove();
});

/** A project folder whose config is `config` (and an empty .env), for the fixture schemas. */
function project(config: unknown): string {
  const made = tempProject({ config, env: {} });
  projects.push(made);
  return made.dir;
}

/** The fixture catalog, its project and every origin sent to the loopback upstream. */
const fixture = (dir = PROJECT) => ['--schemas', SCHEMAS, '--project', dir, '--upstream', `*=${upstream.origin}`];

describe('binding beyond loopback', () => {
  it('without a token, exits 2 before loading anything and says how to set one', async () => {
    const server = startFlowguard(['serve', ...fixture(), '--transport', 'http', '--host', '0.0.0.0', '--port', '0']);
    expect(await server.exited).toBe(2);
    expect(server.stderr()).toMatch(/refusing to listen on 0\.0\.0\.0 without an auth token/);
    expect(server.stderr()).toMatch(/FLOWGUARD_AUTH_TOKEN=.*--auth-token.*http\.authTokens/);
    expect(server.stderr()).not.toContain('schema files');
  });

  it('with a token from the environment, warns before the connect instructions and serves only a client with the token', async () => {
    const server = await spawnHttpServer([...fixture(), '--host', '0.0.0.0'], { env: { FLOWGUARD_AUTH_TOKEN: TOKEN } });
    try {
      const printed = server.url;
      const stderr = server.stderr();
      const warning = stderr.indexOf('warning: listening on 0.0.0.0');
      expect(warning).toBeGreaterThan(-1);
      expect(warning).toBeLessThan(stderr.indexOf('serving '));
      const url = printed.replace('0.0.0.0', '127.0.0.1');
      expect((await rawRequest(url, { method: 'POST' })).status).toBe(401);
      const { client, close } = await connectHttp(url, { authorization: `Bearer ${TOKEN}` });
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await close();
    } finally {
      await server.stop();
    }
  });

  it('refuses a short --auth-token and a malformed http.authTokens entry with exit 2', async () => {
    const short = startFlowguard([
      'serve',
      ...fixture(),
      '--transport',
      'http',
      '--port',
      '0',
      '--auth-token',
      'short',
    ]);
    expect(await short.exited).toBe(2);
    expect(short.stderr()).toContain('at least 16 characters');
    const bad = startFlowguard([
      'serve',
      '--schemas',
      SCHEMAS,
      '--project',
      project({ http: { authTokens: ['sha256:1234'] } }),
      '--transport',
      'http',
      '--port',
      '0',
    ]);
    expect(await bad.exited).toBe(2);
    expect(bad.stderr()).toMatch(/CFG003 error [^\n]*http\.authTokens\[0\]: must be sha256: and the 64 hex digits/);
  });
});

describe('a spawned server with tokens and hosts from the config', () => {
  it('takes the token by its digest and the allowed host; /metrics counts its calls and the sandbox restarts of its load', async () => {
    // The fixture project's config, plus access: its spinner schema's factory misses its deadline at load, so its worker is replaced.
    const dir = project({
      sandbox: { deadlineMs: 500, workers: 1, loadHandlers: 'at-load' },
      http: { authTokens: [tokenDigest(TOKEN)], allowedHosts: ['mcp.internal.example'] },
    });
    const server = await spawnHttpServer(fixture(dir));
    try {
      const url = server.url;
      const metricsUrl = url.replace(/\/mcp$/, '/metrics');
      const auth = { authorization: `Bearer ${TOKEN}` };
      expect((await rawRequest(metricsUrl)).status).toBe(401);
      expect((await rawRequest(metricsUrl, { headers: { ...auth, host: 'evil.example' } })).status).toBe(403);
      const { client, close } = await connectHttp(url, auth);
      expect((await client.callTool({ name: 'widgets_getWidget', arguments: { id: 'w-3' } })).isError).toBeFalsy();
      await close();
      const scraped = await rawRequest(metricsUrl, { headers: { ...auth, host: 'mcp.internal.example:443' } });
      expect(scraped.status).toBe(200);
      const samples = parseMetrics(scraped.body);
      expect(samples.get('flowguard_tool_calls_total{tool="widgets_getWidget",outcome="ok"}')).toBe(1);
      expect(samples.get('flowguard_sandbox_restarts_total{reason="replaced"}')).toBeGreaterThanOrEqual(1);
    } finally {
      await server.stop();
    }
  });
});
