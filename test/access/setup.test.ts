// How the resource server reaches its authorization server (issue 28: "fetched by the core with
// bounds; loopback allowed only for an issuer the operator configured"), attacked with real
// servers on loopback: metadata that names another issuer, a key set its metadata places at a
// private address the operator never named, a key set larger than the bound, and opaque tokens
// introspected (RFC 7662) at a real OpenID provider, active and revoked.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { MAX_ANSWER_BYTES } from '../../src/access/fetch.js';
import { Identities } from '../../src/access/identities.js';
import { OAuthSetupError, prepareOAuth } from '../../src/access/setup.js';
import { loadProjectConfig } from '../../src/config/project.js';
import { startProvider, type TestClient, type TestProvider } from './provider.js';

/** A loopback server playing an issuer: `/.well-known/oauth-authorization-server` and whatever else `routes` answers. */
async function fakeIssuer(
  routes: (origin: string, path: string) => { status?: number; body: string } | undefined,
): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const answer = routes(origin, req.url ?? '/');
    res
      .writeHead(answer?.status ?? (answer ? 200 : 404), { 'content-type': 'application/json' })
      .end(answer?.body ?? '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const none = () => Identities.none();

describe('issuer discovery', () => {
  it('refuses metadata that names another issuer (RFC 8414 §3.3), and accepts its own (the control)', async () => {
    let named = 'https://evil.example';
    const issuer = await fakeIssuer((origin, path) =>
      path === '/.well-known/oauth-authorization-server'
        ? { body: JSON.stringify({ issuer: named, jwks_uri: `${origin}/jwks` }) }
        : undefined,
    );
    try {
      await expect(prepareOAuth({}, { issuer: issuer.origin })).rejects.toThrow(
        /names the issuer "https:\/\/evil\.example", not http:\/\/127\.0\.0\.1:\d+: its keys are not trusted/,
      );
      named = issuer.origin;
      await expect(prepareOAuth({}, { issuer: issuer.origin })).resolves.toMatchObject({ issuer: issuer.origin });
    } finally {
      await issuer.close();
    }
  });

  it('refuses a key set the metadata places at a private address the operator did not name', async () => {
    const issuer = await fakeIssuer((origin, path) =>
      path === '/.well-known/oauth-authorization-server'
        ? { body: JSON.stringify({ issuer: origin, jwks_uri: 'http://169.254.169.254/latest/meta-data/jwks' }) }
        : undefined,
    );
    try {
      const refused = prepareOAuth({}, { issuer: issuer.origin });
      await expect(refused).rejects.toThrow(OAuthSetupError);
      await expect(refused).rejects.toThrow(
        /names http:\/\/169\.254\.169\.254\/latest\/meta-data\/jwks, which is not fetched: only https is fetched from an origin the config does not name/,
      );
      const httpsPrivate = await fakeIssuer((origin, path) =>
        path === '/.well-known/oauth-authorization-server'
          ? { body: JSON.stringify({ issuer: origin, jwks_uri: 'https://10.1.2.3/jwks' }) }
          : undefined,
      );
      await expect(prepareOAuth({}, { issuer: httpsPrivate.origin })).rejects.toThrow(
        /a private or loopback address is fetched only where the config names it/,
      );
      await httpsPrivate.close();
    } finally {
      await issuer.close();
    }
  });

  it('says what is wrong when the issuer has no metadata at all', async () => {
    const issuer = await fakeIssuer(() => undefined);
    try {
      await expect(prepareOAuth({}, { issuer: issuer.origin })).rejects.toThrow(
        /no metadata found for the issuer .* answered HTTP 404/,
      );
    } finally {
      await issuer.close();
    }
  });
});

describe('the key set', () => {
  it('refuses a key set larger than the bound: the token is refused, nothing else breaks', async () => {
    const huge = JSON.stringify({ keys: [{ kty: 'oct', k: 'x'.repeat(MAX_ANSWER_BYTES) }] });
    const issuer = await fakeIssuer((origin, path) => {
      if (path === '/.well-known/oauth-authorization-server')
        return { body: JSON.stringify({ issuer: origin, jwks_uri: `${origin}/jwks` }) };
      return path === '/jwks' ? { body: huge } : undefined;
    });
    try {
      const server = (await prepareOAuth({}, { issuer: issuer.origin }))?.serverFor('http://127.0.0.1:1/mcp');
      const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const admission = await server?.admit(
        `${part({ alg: 'RS256', kid: 'k' })}.${part({ sub: 'x' })}.${part({ s: 1 })}`,
        none(),
      );
      expect(admission).toMatchObject({ ok: false, status: 401 });
      // Why is the operator's to read (the log); the caller is told the key set could not be fetched.
      expect(admission?.ok === false && admission.message).toMatch(/key set could not be fetched/);
      expect(admission?.ok === false && admission.detail).toMatch(
        new RegExp(`key set could not be fetched: .*answered more than ${MAX_ANSWER_BYTES} bytes`),
      );
    } finally {
      await issuer.close();
    }
  });
});

describe('a key set that never ends', () => {
  it('is given up after its time: the token is refused 401, and the log is told why', async () => {
    const open: Array<import('node:http').ServerResponse> = [];
    const server: Server = createServer((req, res) => {
      if (req.url === '/.well-known/oauth-authorization-server')
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ issuer: origin, jwks_uri: `${origin}/jwks` }));
      // Headers and the start of a key set, then nothing more.
      open.push(res);
      res.writeHead(200, { 'content-type': 'application/json' }).write('{"keys":[');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const resource = 'http://127.0.0.1:1/mcp';
      const verifier = (await prepareOAuth({}, { issuer: origin, resource }))?.serverFor(resource);
      const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const admission = await verifier?.admit(
        `${part({ alg: 'RS256', kid: 'k' })}.${part({ sub: 'x', aud: resource, iss: origin })}.${part({ s: 1 })}`,
        none(),
      );
      expect(admission).toMatchObject({ ok: false, status: 401 });
      expect(admission?.ok === false && admission.message).toMatch(/key set could not be fetched/);
      // Given up by its own 5 s or jose's, which start together: either names the time.
      expect(admission?.ok === false && admission.detail).toMatch(
        /\/jwks could not be read: .*(no answer within|timeout)/,
      );
    } finally {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 20_000);
});

describe('the key set, kept', () => {
  it('is fetched once for many tokens, and a token naming a key it lacks is refused without a fetch per token', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] });
    let fetched = 0;
    const issuer = await fakeIssuer((origin, path) => {
      if (path === '/.well-known/oauth-authorization-server')
        return { body: JSON.stringify({ issuer: origin, jwks_uri: `${origin}/jwks` }) };
      if (path !== '/jwks') return undefined;
      fetched += 1;
      return { body: jwks };
    });
    try {
      const resource = 'http://127.0.0.1:1/mcp';
      const server = (await prepareOAuth({}, { issuer: issuer.origin, resource }))?.serverFor(resource);
      const now = Math.floor(Date.now() / 1000);
      const sign = (kid: string, sub: string) =>
        new SignJWT({ iss: issuer.origin, aud: resource, sub, exp: now + 60 })
          .setProtectedHeader({ alg: 'ES256', kid })
          .sign(privateKey);
      for (let i = 0; i < 5; i += 1)
        expect(await server?.admit(await sign('k1', `user-${i}`), none())).toMatchObject({
          ok: true,
          caller: { subject: `user-${i}` },
        });
      expect(fetched).toBe(1);
      // An unknown key id asks the issuer again (rotation), at most once per cooldown: not once per token.
      for (let i = 0; i < 5; i += 1)
        expect(await server?.admit(await sign('k9', 'x'), none())).toMatchObject({ ok: false, status: 401 });
      expect(fetched).toBeLessThanOrEqual(2);
    } finally {
      await issuer.close();
    }
  });
});

describe('introspection of opaque tokens (RFC 7662) at a real provider', () => {
  const APP: TestClient = { id: 'app', secret: 'app-secret-0123456789abcdef', scope: 'tools:call' };
  const SERVER: TestClient = { id: 'flowguard-rs', secret: 'rs-secret-0123456789abcdef', scope: 'tools:read' };
  let provider: TestProvider;
  beforeAll(async () => {
    provider = await startProvider([APP, SERVER], { opaque: true });
  });
  afterAll(() => provider?.close());

  const resource = 'http://127.0.0.1:9/mcp';
  const prepared = () =>
    prepareOAuth(
      { introspection: { clientId: SERVER.id, clientSecretEnv: 'RS_SECRET' } },
      { issuer: provider.issuer, resource },
      { RS_SECRET: SERVER.secret },
    );

  it('admits an active opaque token issued for this resource, naming its client (a client credentials token has no subject)', async () => {
    const token = await provider.token(APP, resource);
    expect(token.split('.')).toHaveLength(1);
    const admission = await (await prepared())?.serverFor(resource).admit(token, none());
    expect(admission).toEqual({
      ok: true,
      caller: { subject: undefined, client: 'app', scopes: ['tools:call'], groups: [] },
    });
  });

  it('refuses an opaque token issued for another resource, and one the provider does not know', async () => {
    const server = (await prepared())?.serverFor(resource);
    const elsewhere = await server?.admit(await provider.token(APP, 'http://127.0.0.1:1/other'), none());
    expect(elsewhere).toMatchObject({
      ok: false,
      status: 401,
      message: 'Unauthorized: the token was not issued for this server (aud)',
    });
    const unknown = await server?.admit('made-up-token-0123456789abcdefghij', none());
    expect(unknown).toMatchObject({ ok: false, status: 401, message: 'Unauthorized: the token is not active' });
  });

  it('stops the start when the client secret is not in the environment', async () => {
    await expect(
      prepareOAuth(
        { introspection: { clientId: SERVER.id, clientSecretEnv: 'RS_SECRET' } },
        { issuer: provider.issuer },
        {},
      ),
    ).rejects.toThrow(/oauth\.introspection\.clientSecretEnv names RS_SECRET, which is not set in the environment/);
  });
});

describe('the config of remote access', () => {
  /** The config read from a project of its own: what it loads to, or the error it stops with. */
  const configured = (config: unknown): unknown => {
    const dir = mkdtempSync(join(tmpdir(), 'flowguard-access-config-'));
    mkdirSync(join(dir, '.flowmcp'));
    writeFileSync(join(dir, '.flowmcp', 'config.json'), JSON.stringify(config));
    try {
      return loadProjectConfig(dir);
    } catch (error) {
      return error;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const message = (config: unknown) => String((configured(config) as Error).message);

  it('refuses an HMAC algorithm, a typo in an identity, and a token that is not a digest, naming the key', () => {
    expect(message({ oauth: { issuer: 'https://auth.example', algorithms: ['HS256'] } })).toMatch(
      /CFG003 error [^\n]* oauth\.algorithms\[0\]: must be one of RS256/,
    );
    expect(message({ identities: { ops: { match: { client: ['a'] } } } })).toMatch(
      /CFG002 error [^\n]* identities\.ops\.match\.client: unknown key 'client'\n\s+hint: did you mean 'clients'\?/,
    );
    expect(message({ identities: { ops: { tokens: ['hunter2'] } } })).toMatch(
      /CFG003 error [^\n]* identities\.ops\.tokens\[0\]: /,
    );
    // The control: the same keys, well formed, load.
    expect(
      configured({
        oauth: { issuer: 'https://auth.example', algorithms: ['ES256'] },
        identities: { ops: { match: { clients: ['a'] } } },
      }),
    ).toMatchObject({ oauth: { algorithms: ['ES256'] } });
  });

  it('takes how long introspection answers are kept, 0 to 3600 seconds', () => {
    const introspection = (cacheSeconds: unknown) => ({
      oauth: { issuer: 'https://auth.example', introspection: { clientId: 'rs', clientSecretEnv: 'RS', cacheSeconds } },
    });
    expect(message(introspection(3601))).toMatch(/CFG003 error [^\n]* oauth\.introspection\.cacheSeconds: /);
    expect(message(introspection(-1))).toMatch(/CFG003 error [^\n]* oauth\.introspection\.cacheSeconds: /);
    expect(configured(introspection(0))).toMatchObject({ oauth: { introspection: { cacheSeconds: 0 } } });
  });
});
