// Opaque tokens introspected (RFC 7662) at a real OpenID provider, counting what reaches it: an
// active token's answer is kept (until the earlier of its `exp` and oauth.introspection.cacheSeconds),
// so a busy client asks the provider once, not once per request; an inactive answer is not kept; a
// revoked token is admitted until its entry ends, and at once refused with the cache turned off (0).
//
// Real parts: oidc-provider on loopback (test/access/provider.ts), the resource server as `serve`
// prepares it (prepareOAuth).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Identities } from '../../src/access/identities.js';
import { prepareOAuth } from '../../src/access/setup.js';
import { startProvider, type TestClient, type TestProvider } from './provider.js';

const APP: TestClient = { id: 'app', secret: 'app-secret-0123456789abcdef', scope: 'tools:call' };
const SERVER: TestClient = { id: 'flowguard-rs', secret: 'rs-secret-0123456789abcdef', scope: 'tools:read' };
const RESOURCE = 'http://127.0.0.1:9/mcp';
const REQUESTS = 5;
const APP_CALLER = { subject: undefined, client: 'app', scopes: ['tools:call'], groups: [] };

let provider: TestProvider;
beforeAll(async () => {
  provider = await startProvider([APP, SERVER], { opaque: true });
});
afterAll(() => provider?.close());

/** The resource server with `cacheSeconds` (unset: the default). */
async function resourceServer(cacheSeconds?: number) {
  const oauth = await prepareOAuth(
    {
      introspection: {
        clientId: SERVER.id,
        clientSecretEnv: 'RS_SECRET',
        ...(cacheSeconds === undefined ? {} : { cacheSeconds }),
      },
    },
    { issuer: provider.issuer, resource: RESOURCE },
    { RS_SECRET: SERVER.secret },
  );
  return oauth!.serverFor(RESOURCE);
}

/** Admits `token` `times` times, one after the other; the verdicts, and how many reached the provider. */
async function admitted(server: Awaited<ReturnType<typeof resourceServer>>, token: string, times = REQUESTS) {
  const before = provider.introspections();
  const verdicts: unknown[] = [];
  for (let i = 0; i < times; i += 1) verdicts.push(await server.admit(token, Identities.none()));
  return { verdicts, asked: provider.introspections() - before };
}

describe('introspection answers kept', () => {
  it(`by default: ${REQUESTS} requests with one active token ask the provider once, and each is admitted as the first`, async () => {
    const { verdicts, asked } = await admitted(await resourceServer(), await provider.token(APP, RESOURCE));
    expect(asked).toBe(1);
    expect(verdicts).toEqual(Array.from({ length: REQUESTS }, () => ({ ok: true, caller: APP_CALLER })));
  });

  it('per token: another token is asked about on its own', async () => {
    const server = await resourceServer();
    expect((await admitted(server, await provider.token(APP, RESOURCE), 2)).asked).toBe(1);
    expect((await admitted(server, await provider.token(APP, RESOURCE), 2)).asked).toBe(1);
  });

  it('not for an inactive token: each request asks again (a token the provider does not know yet may become one)', async () => {
    const { verdicts, asked } = await admitted(await resourceServer(), 'made-up-token-0123456789abcdefghij');
    expect(asked).toBe(REQUESTS);
    expect(verdicts[REQUESTS - 1]).toMatchObject({ ok: false, message: 'Unauthorized: the token is not active' });
  });

  it('not for a token issued for another resource: refused every time', async () => {
    const { verdicts, asked } = await admitted(
      await resourceServer(),
      await provider.token(APP, 'http://127.0.0.1:1/other'),
      2,
    );
    expect(asked).toBe(2);
    expect(verdicts[1]).toMatchObject({
      ok: false,
      message: 'Unauthorized: the token was not issued for this server (aud)',
    });
  });

  it('the trade-off: a token revoked at the provider is admitted while its entry lasts; with cacheSeconds 0 it is refused at once', async () => {
    const kept = await resourceServer(60);
    const off = await resourceServer(0);
    const token = await provider.token(APP, RESOURCE);
    expect((await admitted(kept, token, 1)).verdicts).toEqual([{ ok: true, caller: APP_CALLER }]);
    expect((await admitted(off, token, 1)).verdicts).toEqual([{ ok: true, caller: APP_CALLER }]);
    await provider.revoke(APP, token);
    expect(await admitted(kept, token, 1)).toEqual({ verdicts: [{ ok: true, caller: APP_CALLER }], asked: 0 });
    const refused = await admitted(off, token, 2);
    expect(refused.asked).toBe(2);
    expect(refused.verdicts[1]).toMatchObject({ ok: false, message: 'Unauthorized: the token is not active' });
  });
});
