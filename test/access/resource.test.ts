// The resource server's answers to callers it does not admit, and where it takes a token from
// (promise 13), attacked with real parts: a real OpenID provider on loopback (oidc-provider), whose
// own key signs tokens with claims of the test's choosing, flowguard's HTTP server in this process
// on the fixture catalog, raw requests. Each refusal has its control: the same server admits the
// same caller's token presented as the spec says.
//
// - A token of the issuer whose subject or client holds a character past Latin-1 (any name in
//   Chinese, an emoji) and which no identity names must get its 403 and the challenge that says
//   why. Before, the challenge quoted the subject as it was; node refuses such a header value,
//   and the refusal became a 500 with no challenge and a stack trace in the log.
// - A token is read from the Authorization header only (bearer_methods_supported: header): one in
//   the query string or a form body is no token, and the request is a 401 without `invalid_token`.
// - Two subjects the issuer tells apart are two callers: a session opened by one is unknown to the
//   other, also where they differ only after the first 200 characters, which is all of a subject a
//   log line keeps. Before, both were cut to the same text, and the second continued the first's
//   session.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Identities } from '../../src/access/identities.js';
import { prepareOAuth } from '../../src/access/setup.js';
import { MemoryState } from '../../src/state/memory-state.js';
import { postList, rawRequest, MCP_HEADERS } from '../edge/helpers.js';
import { startCatalogUpstream, startHttpFixture, type CatalogUpstream } from '../mcp/helpers.js';
import { startProvider, type TestProvider } from './provider.js';

let provider: TestProvider;
let upstream: CatalogUpstream;
let served: Awaited<ReturnType<typeof startHttpFixture>>;
let logged: string[];

beforeAll(async () => {
  provider = await startProvider([]);
  upstream = await startCatalogUpstream();
  const oauth = await prepareOAuth({}, { issuer: provider.issuer });
  const identities = Identities.create(
    { staff: { match: { clients: ['staff'] } } },
    () => [],
    (bucket, capacity, refill) => new MemoryState().take(bucket, capacity, refill),
  );
  logged = [];
  served = await startHttpFixture(upstream, {
    oauth,
    identities,
    sessions: true,
    log: (line) => void logged.push(line),
  });
  // A provider, an upstream and the catalog with its sandbox start here: more than the default 10 s on a loaded machine.
}, 60_000);
afterAll(async () => {
  await served?.close();
  await upstream?.close();
  await provider?.close();
});

const url = () => served.server.url;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const token = (claims: Record<string, unknown>) => {
  const now = Math.floor(Date.now() / 1000);
  return provider.sign({ iss: provider.issuer, aud: served.server.resource, iat: now, exp: now + 300, ...claims });
};

describe('the 403 for a caller no identity names', () => {
  it('is a 403 with its challenge whatever characters the subject and client hold', async () => {
    // The control: a Latin-1 subject and client.
    const latin = await postList(url(), bearer(await token({ sub: 'jürgen', client_id: 'müller' })));
    expect(latin.status).toBe(403);
    for (const claims of [
      { sub: '张伟', client_id: 'staff-app' },
      { sub: 'ok', client_id: 'robot-🤖' },
      { sub: 'quote " back \\ slash', client_id: 'x\u2028y' },
    ]) {
      const answer = await postList(url(), bearer(await token(claims)));
      expect(answer.status, JSON.stringify(claims)).toBe(403);
      const challenge = answer.headers['www-authenticate'] as string;
      expect(challenge).toMatch(
        /^Bearer resource_metadata="[^"]+", error="insufficient_scope", error_description="[^"]*"$/,
      );
      expect(challenge).toMatch(/^[\x20-\x7e]*$/);
      // The body says whom, as the issuer wrote it (JSON carries any character).
      expect(JSON.parse(answer.body).error.message).toContain(`subject ${claims.sub}`);
    }
    expect(logged.join('\n')).not.toMatch(/ERR_INVALID_CHAR|Internal server error/);
  });
});

describe('where a token is taken from', () => {
  // The server keeps sessions: a request without one must initialize.
  const INITIALIZE = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  const ask = (path: string, headers: Record<string, string>, body = INITIALIZE) =>
    rawRequest(`${url()}${path}`, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body });

  it('only from the Authorization header: one in the query string or a form body is no token', async () => {
    const valid = await token({ sub: 'ann', client_id: 'staff' });
    // The control: the same token in the header.
    expect((await ask('', bearer(valid))).status).toBe(200);
    for (const query of [`access_token=${valid}`, `token=${valid}`, `authorization=Bearer%20${valid}`]) {
      const answer = await ask(`?${query}`, {});
      expect(answer.status, query).toBe(401);
      expect(answer.headers['www-authenticate']).not.toMatch(/error=/);
    }
    const form = await ask('', { 'content-type': 'application/x-www-form-urlencoded' }, `access_token=${valid}`);
    expect(form.status).toBe(401);
    // Another scheme with a valid JWT: no bearer token either.
    expect((await ask('', { authorization: `Basic ${valid}` })).status).toBe(401);
    expect((await ask('', { authorization: `Bearer` })).status).toBe(401);
  });
});

describe('a session under OAuth', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  };
  const post = (bearerToken: string, body: object, session?: string) =>
    rawRequest(url(), {
      method: 'POST',
      headers: { ...MCP_HEADERS, ...bearer(bearerToken), ...(session ? { 'mcp-session-id': session } : {}) },
      body: JSON.stringify(body),
    });

  it('is unknown to another subject of the same client, also one that differs only after 200 characters', async () => {
    const prefix = `https://idp.example/users/${'a'.repeat(200)}`;
    const opened = await post(await token({ sub: `${prefix}/owner`, client_id: 'staff' }), initialize);
    expect(opened.status).toBe(200);
    const session = opened.headers['mcp-session-id'] as string;
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    // The control: a fresh token of the same subject continues it.
    expect((await post(await token({ sub: `${prefix}/owner`, client_id: 'staff' }), list, session)).status).toBe(200);
    expect((await post(await token({ sub: `${prefix}/other`, client_id: 'staff' }), list, session)).status).toBe(404);
    expect((await post(await token({ sub: 'someone-else', client_id: 'staff' }), list, session)).status).toBe(404);
    // Nor can the other end it: its DELETE finds nothing, and the owner's session goes on.
    const ended = await rawRequest(url(), {
      method: 'DELETE',
      headers: { ...bearer(await token({ sub: `${prefix}/other`, client_id: 'staff' })), 'mcp-session-id': session },
    });
    expect(ended.status).toBe(404);
    expect((await post(await token({ sub: `${prefix}/owner`, client_id: 'staff' }), list, session)).status).toBe(200);
  });
});

// The address of the key set or the introspection endpoint, and why it could not be reached, are
// the operator's to read in the log, not an anonymous caller's: any JWT-shaped text or opaque
// token asks for them. Before, the 401's challenge and body quoted the URL and the socket error
// (`connect ECONNREFUSED 127.0.0.1:…/internal-keys`), an internal host name and port included.
describe('a key set or introspection endpoint that cannot be reached', () => {
  let unreachable: Awaited<ReturnType<typeof startHttpFixture>>;
  const lines: string[] = [];
  // A port that was just free: nothing listens there.
  let address: string;
  beforeAll(async () => {
    const { createServer } = await import('node:net');
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    address = `127.0.0.1:${(probe.address() as { port: number }).port}`;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const oauth = await prepareOAuth(
      {
        jwksUrl: `http://${address}/internal-keys`,
        introspection: { url: `http://${address}/internal-introspect`, clientId: 'rs', clientSecretEnv: 'RS_SECRET' },
      },
      { issuer: provider.issuer },
      { RS_SECRET: 'rs-secret-0123456789abcdef' },
    );
    unreachable = await startHttpFixture(upstream, { oauth, log: (line) => void lines.push(line) });
  }, 60_000);
  afterAll(() => unreachable?.close());

  it('is a 401 that says what failed, and names the address only in the log', async () => {
    const now = Math.floor(Date.now() / 1000);
    const jwt = await provider.sign({ iss: provider.issuer, aud: unreachable.server.resource, exp: now + 60 });
    for (const [presented, why] of [
      [jwt, /key set could not be fetched/],
      ['opaque-token-0123456789abcdefghij', /could not be introspected/],
    ] as const) {
      const answer = await postList(unreachable.server.url, bearer(presented));
      expect(answer.status).toBe(401);
      const challenge = answer.headers['www-authenticate'] as string;
      expect(challenge).toMatch(/error="invalid_token"/);
      expect(challenge + answer.body).toMatch(why);
      for (const secret of [address, 'internal-', 'ECONNREFUSED'])
        expect(challenge + answer.body, secret).not.toContain(secret);
    }
    const logged = lines.join('\n');
    expect(logged).toContain(`${address}/internal-keys`);
    expect(logged).toContain(`${address}/internal-introspect`);
    // Said once while it lasts: a flood of tokens does not fill the log with the same line.
    const before = lines.length;
    for (let i = 0; i < 5; i += 1)
      expect((await postList(unreachable.server.url, bearer('opaque-token-0123456789abcdefghij'))).status).toBe(401);
    expect(lines.length).toBe(before);
  });
});
