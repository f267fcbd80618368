// /metrics where identities are configured (promise 13): the scrape names every tool called, every
// identity and OAuth client that called, and the upstream origins, so an identity that sees only
// some tools must not read it, or it learns the names and traffic of tools its listing, search
// and calls hide. An identity that sees every tool (a monitoring token) reads it. Real parts: the
// fixture catalog and its loopback upstream, flowguard's HTTP server in this process with static
// tokens naming the identities, the official SDK client for a call, raw GETs for the scrapes.

import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Identities } from '../../src/access/identities.js';
import { AccessGate } from '../../src/edge/auth.js';
import { MemoryState } from '../../src/state/memory-state.js';
import { startCatalogUpstream, startHttpFixture, type CatalogUpstream, type HttpFixture } from '../mcp/helpers.js';
import { rawRequest } from './helpers.js';

const TOKENS = {
  monitor: 'monitor-token-0123456789abcdef',
  media: 'media-token-0123456789abcdef',
  readOnly: 'read-only-token-0123456789abcdef',
  keyless: 'keyless-token-0123456789abcdef',
  searcher: 'searcher-token-0123456789abcdef',
  unnamed: 'unnamed-static-token-0123456789abcdef',
};
const digest = (token: string) => `sha256:${createHash('sha256').update(token).digest('hex')}`;

let upstream: CatalogUpstream;
let served: HttpFixture;

beforeAll(async () => {
  upstream = await startCatalogUpstream();
  const memory = new MemoryState();
  const identities = Identities.create(
    {
      monitor: { tokens: [digest(TOKENS.monitor)] },
      media: { tokens: [digest(TOKENS.media)], namespaces: ['media'] },
      readOnly: { tokens: [digest(TOKENS.readOnly)], readOnly: true },
      keyless: { tokens: [digest(TOKENS.keyless)], keys: [] },
      // Every tool, through the discovery meta-tools: it may find and call them all.
      searcher: { tokens: [digest(TOKENS.searcher)], tools: 'search' },
    },
    () => [],
    (bucket, capacity, refill) => memory.take(bucket, capacity, refill),
  );
  served = await startHttpFixture(upstream, {
    identities,
    // A static token of http.authTokens that names no identity, beside the identities.
    access: AccessGate.create({ host: '127.0.0.1', tokens: [TOKENS.unnamed], namedTokens: identities.namedTokens() }),
  });
  // A call of a widgets tool, which the media identity cannot see, by one that can.
  const client = new Client({ name: 'metrics-identities', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(served.server.url), {
      requestInit: { headers: { authorization: `Bearer ${TOKENS.monitor}` } },
    }),
  );
  await client.callTool({ name: 'widgets_getWidget', arguments: { id: 'w-1' } });
  await client.close();
}, 60_000);
afterAll(async () => {
  await served?.close();
  await upstream?.close();
});

const scrape = (token: string) =>
  rawRequest(served.server.url.replace(/\/mcp$/, '/metrics'), { headers: { authorization: `Bearer ${token}` } });

describe('/metrics with identities', () => {
  it.each([['media'], ['readOnly'], ['keyless']] as const)(
    'is refused to an identity that sees only some tools (%s): it names tools and callers hidden from it',
    async (identity) => {
      const answer = await scrape(TOKENS[identity]);
      expect(answer.status).toBe(403);
      expect(answer.body).not.toContain('widgets_getWidget');
      expect(answer.body).not.toContain('monitor');
      expect(answer.body).toContain(identity);
    },
  );

  it.each([['monitor'], ['searcher']] as const)(
    'is served to an identity that sees every tool (%s)',
    async (identity) => {
      const answer = await scrape(TOKENS[identity]);
      expect(answer.status).toBe(200);
      expect(answer.body).toContain('flowguard_tool_calls_total{tool="widgets_getWidget",outcome="ok"} 1');
    },
  );

  it('is refused without a token, and to a token no identity names', async () => {
    expect((await rawRequest(served.server.url.replace(/\/mcp$/, '/metrics'))).status).toBe(401);
    expect((await scrape('unknown-token-0123456789abcdef')).status).toBe(401);
  });

  // A seventh review: a static token that names no identity, where identities are configured, is
  // no identity's: it is refused like any caller no identity matches, and never reads the scrape.
  it('is refused to a static token that names no identity', async () => {
    const answer = await scrape(TOKENS.unnamed);
    expect(answer.status).toBe(403);
    expect(answer.body).not.toContain('widgets_getWidget');
  });
});

describe('/metrics with static tokens and no identities', () => {
  let plain: HttpFixture | undefined;
  afterAll(async () => {
    await plain?.close();
  });

  it("is served to the operator's token, and refused without one or with another", async () => {
    plain = await startHttpFixture(upstream, {
      access: AccessGate.create({ host: '127.0.0.1', tokens: [TOKENS.unnamed] }),
    });
    const url = plain.server.url.replace(/\/mcp$/, '/metrics');
    const answer = await rawRequest(url, { headers: { authorization: `Bearer ${TOKENS.unnamed}` } });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('flowguard_tool_calls_in_flight');
    expect((await rawRequest(url)).status).toBe(401);
    const other = await rawRequest(url, { headers: { authorization: `Bearer ${TOKENS.monitor}` } });
    expect(other.status).toBe(401);
    expect(other.body).not.toContain('flowguard_');
  });
});
