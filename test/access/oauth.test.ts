// The OAuth 2.1 resource server (issue 28, point 1), attacked with real parts: a real OpenID
// provider on loopback (oidc-provider) issuing JWT access tokens for the resource the client names,
// flowguard's HTTP server in this process on the fixture catalog and a loopback upstream, the
// official SDK client running its own OAuth flow, and raw requests carrying forged tokens. Each
// refused token is a control's twin: the valid token of the same client passes at the same URL.

import { createPublicKey } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Identities } from '../../src/access/identities.js';
import { prepareOAuth } from '../../src/access/setup.js';
import type { CallRecord } from '../../src/call/record.js';
import { ServerMetrics } from '../../src/observe/metrics.js';
import { postList, rawRequest } from '../edge/helpers.js';
import { callRecordsDelivered } from '../support/wait.js';
import { startHttpFixture, startCatalogUpstream, type CatalogUpstream } from '../mcp/helpers.js';
import { startProvider, type TestClient, type TestProvider } from './provider.js';
import { MemoryState } from '../../src/state/memory-state.js';

const ALICE: TestClient = { id: 'alice', secret: 'alice-secret-0123456789abcdef', scope: 'tools:call tools:read' };
const BOB: TestClient = { id: 'bob', secret: 'bob-secret-0123456789abcdef', scope: 'tools:call tools:read' };
const CAROL: TestClient = { id: 'carol', secret: 'carol-secret-0123456789abcdef', scope: 'tools:call tools:read' };

let provider: TestProvider;
let upstream: CatalogUpstream;
let served: Awaited<ReturnType<typeof startHttpFixture>>;
let url: string;
let resource: string;
const metrics = new ServerMetrics();
const records: CallRecord[] = [];

beforeAll(async () => {
  provider = await startProvider([ALICE, BOB, CAROL]);
  upstream = await startCatalogUpstream();
  const oauth = await prepareOAuth({ requiredScopes: ['tools:call'] }, { issuer: provider.issuer });
  // alice may use everything, bob only the media namespace, carol is named by no identity.
  const identities = Identities.create(
    { everything: { match: { clients: ['alice'] } }, media: { match: { clients: ['bob'] }, namespaces: ['media'] } },
    () => [],
    (bucket, capacity, refill) => new MemoryState().take(bucket, capacity, refill),
  );
  served = await startHttpFixture(upstream, { oauth, identities, metrics });
  served.catalog.onCall((record) => void records.push(record));
  url = served.server.url;
  resource = served.server.resource as string;
  // A provider, an upstream and the catalog with its sandbox start here: more than the default 10 s on a loaded machine.
}, 60_000);
afterAll(async () => {
  await served?.close();
  await upstream?.close();
  await provider?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const metadataUrl = () => `${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`;

describe('Protected Resource Metadata and the challenge', () => {
  it('serves the metadata at the root and the path-scoped form, naming the resource and its issuer', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const answer = await rawRequest(`${new URL(url).origin}${path}`);
      expect(answer.status, path).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({
        resource: url,
        authorization_servers: [provider.issuer],
        scopes_supported: ['tools:call'],
        bearer_methods_supported: ['header'],
      });
    }
    expect(resource).toBe(url);
  });

  it('answers a request without a token 401 with the resource_metadata parameter', async () => {
    const answer = await postList(url);
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe(`Bearer resource_metadata="${metadataUrl()}"`);
  });
});

describe('the official SDK client', () => {
  it('runs its OAuth flow (resource metadata, authorization server metadata, token) and reaches a tool', async () => {
    const client = new Client({ name: 'oauth-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        authProvider: new ClientCredentialsProvider({
          clientId: ALICE.id,
          clientSecret: ALICE.secret,
          scope: 'tools:call',
          expectedIssuer: provider.issuer,
        }),
      }),
    );
    const answer = await client.callTool({ name: 'widgets_getWidget', arguments: { id: 'w-3' } });
    expect(answer.isError).toBeFalsy();
    expect(JSON.stringify(answer.structuredContent ?? answer.content)).toContain('w-3');
    await client.close();
  });
});

describe('tokens refused', () => {
  let now: number;
  let good: Record<string, unknown>;
  beforeAll(() => {
    now = Math.floor(Date.now() / 1000);
    good = {
      iss: provider.issuer,
      aud: resource,
      sub: 'alice',
      client_id: 'alice',
      scope: 'tools:call',
      iat: now,
      exp: now + 300,
    };
  });

  it('accepts the provider’s token and the same claims signed with its key (the control)', async () => {
    expect((await postList(url, bearer(await provider.token(ALICE, resource)))).status).toBe(200);
    expect((await postList(url, bearer(await provider.sign(good)))).status).toBe(200);
  });

  const refused = async (token: string, why: RegExp) => {
    const answer = await postList(url, bearer(token));
    expect(answer.status).toBe(401);
    const challenge = answer.headers['www-authenticate'] as string;
    expect(challenge).toMatch(
      new RegExp(
        `^Bearer resource_metadata="${metadataUrl().replace(/[.]/g, '\\.')}", error="invalid_token", error_description="[^"]*"$`,
      ),
    );
    expect(challenge).toMatch(why);
    // The token is never echoed back.
    expect(answer.body + challenge).not.toContain(token.split('.')[1]);
  };

  it('refuses a token the provider issued for another resource (aud)', async () => {
    await refused(await provider.token(ALICE, 'http://127.0.0.1:1/elsewhere'), /not issued for this server \(aud\)/);
  });

  it('refuses an expired token, and one not yet valid, beyond the leeway', async () => {
    await refused(await provider.sign({ ...good, iat: now - 7200, exp: now - 3600 }), /expired/);
    await refused(await provider.sign({ ...good, nbf: now + 3600 }), /nbf/);
  });

  it('refuses a token from another issuer', async () => {
    await refused(await provider.sign({ ...good, iss: 'http://127.0.0.1:2' }), /another issuer/);
  });

  it('refuses a token signed by another key under the provider’s key id', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT(good).setProtectedHeader({ alg: 'RS256', kid: 'test-key' }).sign(privateKey);
    await refused(forged, /signature does not verify/);
  });

  it('refuses alg: none', async () => {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    await refused(`${part({ alg: 'none', typ: 'JWT' })}.${part(good)}.`, /algorithm this server does not accept/);
  });

  it('refuses HS256 "signed" with the provider’s public key (the key confusion attack)', async () => {
    // The public key as a verifier that mixes up key types would take it: its PEM text, or its JWK.
    const publicKey = createPublicKey({ key: provider.publicJwk as import('node:crypto').JsonWebKey, format: 'jwk' });
    const publicPem = publicKey.export({ type: 'spki', format: 'pem' }) as string;
    for (const secret of [Buffer.from(publicPem), Buffer.from(JSON.stringify(await exportJWK(publicKey)))]) {
      const forged = await new SignJWT(good)
        .setProtectedHeader({ alg: 'HS256', kid: 'test-key' })
        .sign(new Uint8Array(secret));
      await refused(forged, /algorithm this server does not accept/);
    }
  });

  it('refuses a token that is not a JWT when no introspection endpoint is set', async () => {
    await refused('opaque-token-0123456789abcdef', /not a JWT/);
  });

  it('answers a valid token without the required scope 403 insufficient_scope, naming the scope', async () => {
    const answer = await postList(url, bearer(await provider.token(ALICE, resource, 'tools:read')));
    expect(answer.status).toBe(403);
    expect(answer.headers['www-authenticate']).toMatch(
      /^Bearer resource_metadata="[^"]+", error="insufficient_scope", error_description="the token lacks the scope tools:call", scope="tools:call"$/,
    );
  });
});

describe('identities', () => {
  const listed = async (client: TestClient) => {
    const answer = await postList(url, bearer(await provider.token(client, resource, 'tools:call')));
    return {
      status: answer.status,
      names:
        answer.status === 200
          ? (JSON.parse(answer.body) as { result: { tools: Array<{ name: string }> } }).result.tools
              .map((tool) => tool.name)
              .sort()
          : [],
      answer,
    };
  };

  it('lists each identity its own tools: bob only the media namespace, alice all of them', async () => {
    const bob = await listed(BOB);
    const alice = await listed(ALICE);
    expect(bob.status).toBe(200);
    expect(alice.names).toEqual(expect.arrayContaining(['media_getReadme', 'widgets_getWidget']));
    expect(bob.names).toEqual(alice.names.filter((name) => name.startsWith('media_')));
  });

  it('refuses bob a call of a tool outside his namespace as unknown, and serves alice the same call', async () => {
    const call = (token: string) =>
      rawRequest(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...bearer(token),
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'widgets_getWidget', arguments: { id: 'w-1' } },
        }),
      });
    const bob = JSON.parse((await call(await provider.token(BOB, resource, 'tools:call'))).body) as {
      error?: { message: string };
    };
    expect(bob.error?.message).toMatch(/Unknown tool: widgets_getWidget/);
    const alice = JSON.parse((await call(await provider.token(ALICE, resource, 'tools:call'))).body) as {
      result?: { isError?: boolean };
    };
    expect(alice.result?.isError).toBeFalsy();
  });

  it('refuses a caller no identity names: 403, saying whom', async () => {
    const carol = await listed(CAROL);
    expect(carol.status).toBe(403);
    expect(carol.answer.body).toMatch(
      /no identity of this server's config names this caller \(subject carol, client carol\)/,
    );
  });

  it('names the caller in every call record and the metrics, never the token', async () => {
    records.length = 0;
    const token = await provider.token(BOB, resource, 'tools:call');
    const mark = upstream.records.length;
    const answer = await rawRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...bearer(token) },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'media_getReadme', arguments: {} },
      }),
    });
    expect(answer.status).toBe(200);
    await callRecordsDelivered();
    // Records of the earlier tests' calls may still arrive: this call's is the one of media_getReadme.
    const mine = records.filter((record) => record.tool === 'media_getReadme');
    expect(mine).toHaveLength(1);
    expect(mine[0]?.caller).toEqual({ identity: 'media', subject: 'bob', client: 'bob' });
    expect(JSON.stringify(records)).not.toContain(token.split('.')[1]);
    // Nor does the token go upstream: the API got the call's request, without it.
    const sent = upstream.since(mark);
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(sent)).not.toContain(token.split('.')[2]);
    expect(sent[0]?.headers.authorization).toBeUndefined();
    // /metrics names every caller: read with alice's token, whose identity sees every tool (bob's sees only media).
    const monitor = await provider.token(ALICE, resource, 'tools:call');
    const scrape = await rawRequest(`${new URL(url).origin}/metrics`, { headers: bearer(monitor) });
    expect(scrape.body).toMatch(/flowguard_caller_calls_total\{identity="media",client="bob",outcome="ok"\} 1/);
  });
});

describe('sessions under OAuth', () => {
  let sessioned: Awaited<ReturnType<typeof startHttpFixture>>;
  beforeAll(async () => {
    const oauth = await prepareOAuth({}, { issuer: provider.issuer });
    sessioned = await startHttpFixture(upstream, { oauth, sessions: true });
  }, 60_000);
  afterAll(() => sessioned?.close());

  const post = (token: string, body: object, session?: string) =>
    rawRequest(sessioned.server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...bearer(token),
        ...(session ? { 'mcp-session-id': session } : {}),
      },
      body: JSON.stringify(body),
    });

  it('belong to the subject and client: a fresh token of the same client continues one, another client’s token finds none', async () => {
    const at = sessioned.server.resource as string;
    const opened = await post(await provider.token(ALICE, at), {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    expect(opened.status).toBe(200);
    const session = opened.headers['mcp-session-id'] as string;
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    // A refreshed token: another string, the same subject and client.
    expect((await post(await provider.token(ALICE, at), list, session)).status).toBe(200);
    expect((await post(await provider.token(BOB, at), list, session)).status).toBe(404);
  });
});

// A session keeps the policy of the identity it was opened under: a token of the same subject
// and client that maps to a narrower identity (fewer scopes after a refresh, a revoked group)
// must not continue it, or it would list and call what its own identity may not. Before, the
// session belonged to the subject and client alone, and the narrower token saw every tool.
describe('sessions under OAuth, when the identity changes', () => {
  let sessioned: Awaited<ReturnType<typeof startHttpFixture>>;
  beforeAll(async () => {
    const oauth = await prepareOAuth({}, { issuer: provider.issuer });
    // alice with tools:read is `wide` (everything); alice without it only `narrow` (media).
    const identities = Identities.create(
      {
        wide: { match: { clients: ['alice'], scopes: ['tools:read'] } },
        narrow: { match: { clients: ['alice'] }, namespaces: ['media'] },
      },
      () => [],
      (bucket, capacity, refill) => new MemoryState().take(bucket, capacity, refill),
    );
    sessioned = await startHttpFixture(upstream, { oauth, identities, sessions: true });
  }, 60_000);
  afterAll(() => sessioned?.close());

  const post = async (token: string, body: object, session?: string) => {
    const answer = await rawRequest(sessioned.server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...bearer(token),
        ...(session ? { 'mcp-session-id': session } : {}),
      },
      body: JSON.stringify(body),
    });
    return {
      ...answer,
      tools: [...answer.body.matchAll(/"name":"(\w+)"/g)].map((match) => match[1] as string),
    };
  };
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  };
  const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

  it('a narrower token of the same subject and client finds no session opened under the wider identity', async () => {
    const at = sessioned.server.resource as string;
    const wide = await provider.token(ALICE, at, 'tools:call tools:read');
    const opened = await post(wide, initialize);
    expect(opened.status).toBe(200);
    const session = opened.headers['mcp-session-id'] as string;
    // The control: the wide identity lists beyond media, and a refreshed wide token continues.
    expect((await post(wide, list, session)).tools).toContain('widgets_getWidget');
    expect((await post(await provider.token(ALICE, at, 'tools:call tools:read'), list, session)).status).toBe(200);
    const narrow = await provider.token(ALICE, at, 'tools:call');
    const continued = await post(narrow, list, session);
    expect(continued.tools.filter((name) => !name.startsWith('media_'))).toEqual([]);
    expect(continued.status).toBe(404);
    const call = {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'widgets_getWidget', arguments: { id: 'w-1' } },
    };
    expect((await post(narrow, call, session)).status).toBe(404);
    // Its own session lists media only.
    const own = await post(narrow, initialize);
    expect(own.status).toBe(200);
    const mine = await post(narrow, list, own.headers['mcp-session-id'] as string);
    expect(mine.tools.length).toBeGreaterThan(0);
    expect(mine.tools.filter((name) => !name.startsWith('media_'))).toEqual([]);
  });
});
