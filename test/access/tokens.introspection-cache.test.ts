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
import { MAX_INTROSPECTIONS_IN_FLIGHT } from '../../src/access/tokens.js';
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

describe('introspections in flight', () => {
  /** Admits each token at once, all together; the verdicts, and how many reached the provider. */
  async function together(server: Awaited<ReturnType<typeof resourceServer>>, tokens: readonly string[]) {
    const before = provider.introspections();
    const verdicts = await Promise.all(tokens.map((token) => server.admit(token, Identities.none())));
    return { verdicts, asked: provider.introspections() - before };
  }

  it.each([60, 0])(
    `${REQUESTS * 4} requests at once with one unseen token ask the provider once (cacheSeconds %i)`,
    async (cacheSeconds) => {
      const token = await provider.token(APP, RESOURCE);
      const { verdicts, asked } = await together(await resourceServer(cacheSeconds), Array(REQUESTS * 4).fill(token));
      expect(asked).toBe(1);
      expect(verdicts).toEqual(Array.from({ length: REQUESTS * 4 }, () => ({ ok: true, caller: APP_CALLER })));
    },
  );

  it(`a flood of made-up tokens asks about ${MAX_INTROSPECTIONS_IN_FLIGHT} at once; the rest are refused at once with a 401, and an honest token is admitted after`, async () => {
    const server = await resourceServer();
    const flood = Array.from(
      { length: MAX_INTROSPECTIONS_IN_FLIGHT * 4 },
      (_, i) => `made-up-${i}-0123456789abcdefghij`,
    );
    const { verdicts, asked } = await together(server, flood);
    expect(asked).toBe(MAX_INTROSPECTIONS_IN_FLIGHT);
    const notAsked = verdicts.filter(
      (verdict) => !verdict.ok && verdict.message.includes('could not be introspected now'),
    );
    expect(notAsked).toHaveLength(flood.length - MAX_INTROSPECTIONS_IN_FLIGHT);
    expect(notAsked[0]).toMatchObject({
      status: 401,
      challenge: expect.stringContaining('error="invalid_token"'),
      detail: `the token could not be introspected: ${MAX_INTROSPECTIONS_IN_FLIGHT} other tokens were being introspected already`,
    });
    expect(
      verdicts.filter((verdict) => !verdict.ok && verdict.message === 'Unauthorized: the token is not active'),
    ).toHaveLength(MAX_INTROSPECTIONS_IN_FLIGHT);
    expect((await admitted(server, await provider.token(APP, RESOURCE), 1)).verdicts).toEqual([
      { ok: true, caller: APP_CALLER },
    ]);
  });
});
