// Who may call the Streamable HTTP endpoint: the Host header (DNS rebinding), bearer tokens
// from the flag, the environment or the config's digests, and what a refused request gets back.
// Requests are raw node:http ones where the headers are the point, the SDK client where a real
// client has to get through.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessConfigError, AccessGate, BEARER_REALM, tokenDigest } from '../../src/edge/auth.js';
import { startCatalogUpstream, startHttpFixture, type CatalogUpstream, type HttpFixture } from '../mcp/helpers.js';
import { postList, rawRequest } from './helpers.js';

const TOKEN = 'edge-test-token-0123456789abcdef';
const HASHED_TOKEN = 'second-token-kept-only-as-digest';

let upstream: CatalogUpstream;
let open: HttpFixture;
let guarded: HttpFixture;
beforeAll(async () => {
  upstream = await startCatalogUpstream();
  open = await startHttpFixture(upstream, {
    access: AccessGate.create({ host: '127.0.0.1', allowedHosts: ['mcp.example.com'] }),
  });
  guarded = await startHttpFixture(upstream, {
    access: AccessGate.create({ host: '127.0.0.1', tokens: [TOKEN], tokenDigests: [tokenDigest(HASHED_TOKEN)] }),
  });
});
afterAll(async () => {
  await open?.close();
  await guarded?.close();
  await upstream?.close();
});

describe('Host header', () => {
  it.each([['evil.example'], ['evil.example:3000'], ['127.0.0.1.nip.io'], ['localhost.evil.example'], ['[::2]:80']])(
    'refuses Host %s with 403 naming the header, before anything is served',
    async (host) => {
      const before = upstream.records.length;
      const answer = await postList(open.server.url, { host });
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.body).error.message).toMatch(/Host header .* does not name this server .*--allow-host/);
      expect(upstream.records.length).toBe(before);
    },
  );

  it.each([['127.0.0.1'], ['LOCALHOST:8080'], ['[::1]:3000'], ['mcp.example.com'], ['mcp.example.com.:443']])(
    'serves Host %s (loopback names, and one allowed by the operator)',
    async (host) => {
      const answer = await postList(open.server.url, { host });
      expect(answer.status).toBe(200);
      expect(answer.body).toContain('widgets_getWidget');
    },
  );

  it('refuses the wrong Host on /metrics too, but not on the health endpoints', async () => {
    const base = open.server.url.replace(/\/mcp$/, '');
    expect((await rawRequest(`${base}/metrics`, { headers: { host: 'evil.example' } })).status).toBe(403);
    expect((await rawRequest(`${base}/healthz`, { headers: { host: 'evil.example' } })).status).toBe(200);
    expect((await rawRequest(`${base}/readyz`, { headers: { host: 'evil.example' } })).status).toBe(200);
  });
});

describe('bearer tokens', () => {
  it('answers a request without a token 401 with a bearer challenge, and sends nothing upstream', async () => {
    const before = upstream.records.length;
    const answer = await postList(guarded.server.url);
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe(BEARER_REALM);
    expect(JSON.parse(answer.body).error.message).toContain('needs a bearer token');
    expect(upstream.records.length).toBe(before);
  });

  it.each([
    ['Bearer wrong-token-0123456789abcdef'],
    [`Bearer ${TOKEN}x`],
    [`Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}`],
    [`Bearer ${TOKEN.slice(0, -1)}`],
    [`Bearer ${tokenDigest(TOKEN)}`],
  ])('refuses %s with 401 invalid_token', async (authorization) => {
    const answer = await postList(guarded.server.url, { authorization });
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe(`${BEARER_REALM}, error="invalid_token"`);
  });

  it('takes the token from the Authorization header only: in the query string, a form body or a cookie it is no token', async () => {
    expect((await postList(guarded.server.url, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    for (const query of [`access_token=${TOKEN}`, `token=${TOKEN}`, `authorization=Bearer%20${TOKEN}`]) {
      const answer = await postList(`${guarded.server.url}?${query}`);
      expect(answer.status, query).toBe(401);
      expect(answer.headers['www-authenticate']).toBe(BEARER_REALM);
    }
    expect((await postList(guarded.server.url, { cookie: `access_token=${TOKEN}; token=${TOKEN}` })).status).toBe(401);
    const form = await rawRequest(guarded.server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json, text/event-stream' },
      body: `access_token=${TOKEN}`,
    });
    expect(form.status).toBe(401);
  });

  it('serves the SDK client that sends the token (given in clear, or configured as its digest)', async () => {
    for (const token of [TOKEN, HASHED_TOKEN]) {
      const client = new Client({ name: 'edge-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(guarded.server.url), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('widgets_getWidget');
      const result = await client.callTool({ name: 'widgets_getWidget', arguments: { id: 'w-7' } });
      expect(result.isError).toBeFalsy();
      await client.close();
    }
  });

  it('the SDK client without the token fails to connect, as unauthorized', async () => {
    const client = new Client({ name: 'edge-test', version: '1.0.0' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(guarded.server.url)))).rejects.toThrow(
      /401|Unauthorized/i,
    );
  });

  it('takes the token for /metrics as for /mcp; health endpoints need none; a preflight needs none', async () => {
    const base = guarded.server.url.replace(/\/mcp$/, '');
    expect((await rawRequest(`${base}/metrics`)).status).toBe(401);
    const scraped = await rawRequest(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(scraped.status).toBe(200);
    expect(scraped.body).toContain('flowguard_tool_calls_total');
    expect((await rawRequest(`${base}/healthz`)).status).toBe(200);
    const preflight = await rawRequest(guarded.server.url, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
  });
});

describe('AccessGate.create', () => {
  it('refuses a bind beyond loopback without a token, saying how to set one', () => {
    for (const host of ['0.0.0.0', '::', '192.0.2.10', 'mcp.example.com']) {
      expect(() => AccessGate.create({ host })).toThrow(AccessConfigError);
      expect(() => AccessGate.create({ host })).toThrow(/FLOWGUARD_AUTH_TOKEN=.*--auth-token.*http\.authTokens/);
    }
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', '[::1]', 'localhost'])
      expect(AccessGate.create({ host }).requiresToken).toBe(false);
    expect(AccessGate.create({ host: '0.0.0.0', tokens: [TOKEN] }).requiresToken).toBe(true);
  });

  it('refuses short tokens, malformed digests and allowed hosts that are no host names', () => {
    expect(() => AccessGate.create({ host: '127.0.0.1', tokens: ['short'] })).toThrow(/at least 16 characters/);
    expect(() => AccessGate.create({ host: '127.0.0.1', tokenDigests: ['sha256:abc'] })).toThrow(
      /http\.authTokens: 'sha256:abc' is not sha256:<64 hex digits>/,
    );
    for (const name of ['https://mcp.example.com', 'mcp.example.com:443', 'mcp.example.com/mcp', 'a b', '']) {
      expect(() => AccessGate.create({ host: '127.0.0.1', allowedHosts: [name] })).toThrow(
        /must be a host name or address/,
      );
    }
  });

  it('on a wildcard bind, accepts the addresses of this machine and refuses other names', () => {
    const gate = AccessGate.create({ host: '0.0.0.0', tokens: [TOKEN] });
    expect(gate.hostAllowed('127.0.0.1:3000')).toBe(true);
    expect(gate.hostAllowed('localhost')).toBe(true);
    expect(gate.hostAllowed('evil.example')).toBe(false);
    expect(gate.hostAllowed(undefined)).toBe(false);
    expect(gate.hostAllowed('127.0.0.1:notaport')).toBe(false);
  });
});
