// A real OpenID provider (the `oidc-provider` package) on loopback, for the OAuth tests: clients
// with the client credentials grant, access tokens as JWTs (RFC 9068) for the resource a client
// asks for (RFC 8707 resource indicators), signed with a key the test holds too, so that it can
// also sign tokens the provider would never issue (expired, another audience) with the right key.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import Provider from 'oidc-provider';

const SCOPES = ['tools:call', 'tools:read'];

export interface TestClient {
  id: string;
  secret: string;
  /** Scopes it may get. */
  scope: string;
}

export interface TestProvider {
  issuer: string;
  /** The provider's signing key, private part included. */
  privateJwk: JWK;
  publicJwk: JWK;
  /** A token from the token endpoint: client credentials for `resource`, with these scopes. */
  token(client: TestClient, resource: string, scope?: string): Promise<string>;
  /** A JWT signed with the provider's own key, with whatever claims the test gives. */
  sign(claims: JWTPayload): Promise<string>;
  /** Revokes a token `client` was issued (RFC 7009): its introspection says inactive from then on. */
  revoke(client: TestClient, token: string): Promise<void>;
  /** Requests its introspection endpoint has received so far. */
  introspections(): number;
  close(): Promise<void>;
}

/** `opaque`: access tokens as opaque strings, to be introspected (RFC 7662), instead of JWTs. */
export async function startProvider(
  clients: readonly TestClient[],
  options: { opaque?: boolean } = {},
): Promise<TestProvider> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const privateJwk: JWK = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: clients.map((client) => ({
      client_id: client.id,
      client_secret: client.secret,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      scope: client.scope,
    })),
    scopes: SCOPES,
    jwks: { keys: [privateJwk] },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => ({
          scope: SCOPES.join(' '),
          audience: indicator,
          accessTokenTTL: 300,
          ...(options.opaque
            ? { accessTokenFormat: 'opaque' }
            : { accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } }),
        }),
      },
    },
    ttl: { ClientCredentials: 300 },
  });
  // Its warnings about the in-memory adapter and the runtime are for production, not a test.
  provider.on('server_error', () => undefined);
  let introspections = 0;
  http.on('request', (request) => {
    if (request.url?.startsWith('/token/introspection')) introspections += 1;
  });
  http.on('request', provider.callback());
  const basic = (client: TestClient) => `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`;
  const signingKey = await importJWK(privateJwk, 'RS256');

  return {
    issuer,
    privateJwk,
    publicJwk,
    async token(client, resource, scope = client.scope) {
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basic(client),
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope, resource }),
      });
      const body = (await response.json()) as { access_token?: string };
      if (!body.access_token) throw new Error(`no token: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    async revoke(client, token) {
      const response = await fetch(`${issuer}/token/revocation`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(client) },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
      });
      if (!response.ok) throw new Error(`not revoked: ${response.status} ${await response.text()}`);
    },
    introspections: () => introspections,
    sign: (claims) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'test-key', typ: 'at+jwt' }).sign(signingKey),
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
