// JWT attacks on the resource server (src/access/tokens.ts) that oauth.test.ts does not make:
// a token that brings its own key (an embedded `jwk` header, a `jku` or `x5u` URL naming an
// attacker's key set), a `crit` header this server does not understand, a symmetric key the
// issuer's key set publishes (anyone can read it, so anyone could sign with it), claims of the
// wrong type, and an issuer spelled another way. Real parts: a loopback issuer serving metadata
// and a key set, an attacker's loopback server that counts whether anything asks it for keys,
// and the resource server that `serve --oauth-issuer` prepares. Each forged token has a twin,
// signed with the issuer's key and the same claims, that is admitted (the control).

import { KeyObject, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTHeaderParameters } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Identities } from '../../src/access/identities.js';
import { prepareOAuth } from '../../src/access/setup.js';

const RESOURCE = 'http://127.0.0.1:1/mcp';
/** The symmetric key the issuer's key set publishes beside its signing key. */
const PUBLISHED_SECRET = 'published-secret-0123456789abcdef0123456789';

/** A loopback server answering every path with `answer(path, origin)`; counts the requests it gets. */
async function loopback(
  answer: (path: string, origin: string) => string | undefined,
): Promise<{ origin: string; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits += 1;
    const body = answer(req.url ?? '/', origin);
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' }).end(body ?? '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, hits: () => hits, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let issuer: Awaited<ReturnType<typeof loopback>>;
let attacker: Awaited<ReturnType<typeof loopback>>;
let issuerKey: CryptoKey;
let attackerKey: CryptoKey;
let attackerJwk: Record<string, unknown>;
let admit: (token: string) => Promise<{ ok: boolean; status?: number; message?: string }>;

beforeAll(async () => {
  const issued = await generateKeyPair('ES256');
  issuerKey = issued.privateKey;
  const forged = await generateKeyPair('ES256');
  attackerKey = forged.privateKey;
  attackerJwk = { ...(await exportJWK(forged.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  const jwks = JSON.stringify({
    keys: [
      { ...(await exportJWK(issued.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' },
      { kty: 'oct', kid: 'shared', alg: 'HS256', k: Buffer.from(PUBLISHED_SECRET).toString('base64url') },
    ],
  });
  issuer = await loopback((path, origin) => {
    if (path === '/.well-known/oauth-authorization-server')
      return JSON.stringify({ issuer: origin, jwks_uri: `${origin}/jwks` });
    return path === '/jwks' ? jwks : undefined;
  });
  attacker = await loopback(() => JSON.stringify({ keys: [attackerJwk] }));
  const server = (await prepareOAuth({}, { issuer: issuer.origin, resource: RESOURCE }))?.serverFor(RESOURCE);
  if (!server) throw new Error('no resource server');
  admit = async (token) => {
    const admission = await server.admit(token, Identities.none());
    return admission.ok ? { ok: true } : { ok: false, status: admission.status, message: admission.message };
  };
});
afterAll(async () => {
  await issuer?.close();
  await attacker?.close();
});

const claims = () => {
  const now = Math.floor(Date.now() / 1000);
  return { iss: issuer.origin, aud: RESOURCE, sub: 'mallory', client_id: 'mallory', iat: now, exp: now + 300 };
};
/** A token jose would not make (an unknown crit, a claim JSON cannot carry): the issuer's ES256 signature over the text as given. */
function rawSigned(header: Record<string, unknown>, payload: string): string {
  const part = (text: string) => Buffer.from(text).toString('base64url');
  const input = `${part(JSON.stringify(header))}.${part(payload)}`;
  const signature = sign('sha256', Buffer.from(input), { key: KeyObject.from(issuerKey), dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

const signed = (header: JWTHeaderParameters, key: CryptoKey | Uint8Array, body: Record<string, unknown> = claims()) =>
  new SignJWT(body).setProtectedHeader(header).sign(key);

describe('a token that brings its own key', () => {
  it('is admitted signed with the issuer key (the control)', async () => {
    expect(await admit(await signed({ alg: 'ES256', kid: 'k1' }, issuerKey))).toEqual({ ok: true });
  });

  it.each<[string, (jwk: Record<string, unknown>, origin: string) => Partial<JWTHeaderParameters>]>([
    ['an embedded jwk header', (jwk) => ({ jwk: jwk as JWTHeaderParameters['jwk'] })],
    ['a jku naming an attacker key set', (_jwk, origin) => ({ jku: `${origin}/jwks` })],
    ['an x5u naming an attacker certificate', (_jwk, origin) => ({ x5u: `${origin}/cert.pem` })],
  ])('is refused with %s, and the attacker is never asked', async (_name, extra) => {
    const before = attacker.hits();
    for (const kid of ['k1', undefined]) {
      const header = {
        alg: 'ES256',
        ...(kid ? { kid } : {}),
        ...extra(attackerJwk, attacker.origin),
      } as JWTHeaderParameters;
      expect(await admit(await signed(header, attackerKey))).toMatchObject({ ok: false, status: 401 });
    }
    expect(attacker.hits()).toBe(before);
  });

  it('is refused signed HS256 with a symmetric key the issuer key set publishes', async () => {
    const secret = new TextEncoder().encode(PUBLISHED_SECRET);
    expect(await admit(await signed({ alg: 'HS256', kid: 'shared' }, secret))).toMatchObject({
      ok: false,
      status: 401,
    });
  });

  it('is refused with a crit header this server does not understand, even signed by the issuer', async () => {
    const header = { alg: 'ES256', kid: 'k1' };
    // The control: the same text without crit is admitted.
    expect(await admit(rawSigned(header, JSON.stringify(claims())))).toEqual({ ok: true });
    const critical = { ...header, crit: ['x-must-understand'], 'x-must-understand': true };
    expect(await admit(rawSigned(critical, JSON.stringify(claims())))).toMatchObject({ ok: false, status: 401 });
  });
});

describe('claims of the wrong type or spelling, signed by the issuer', () => {
  it.each<[string, (body: Record<string, unknown>) => Record<string, unknown>]>([
    ['exp as text far ahead', (body) => ({ ...body, exp: '99999999999' })],
    ['no exp at all', ({ exp: _exp, ...body }) => body],
    ['nbf as text', (body) => ({ ...body, nbf: 'now' })],
    ['aud as an object', (body) => ({ ...body, aud: { 0: RESOURCE } })],
    ['aud with a trailing slash', (body) => ({ ...body, aud: `${RESOURCE}/` })],
    ['iss with a trailing slash', (body) => ({ ...body, iss: `${issuer.origin}/` })],
    ['iss in upper case', (body) => ({ ...body, iss: String(body.iss).toUpperCase() })],
  ])('refuses %s', async (_name, change) => {
    expect(await admit(await signed({ alg: 'ES256', kid: 'k1' }, issuerKey, change(claims())))).toMatchObject({
      ok: false,
      status: 401,
    });
  });

  it.each([
    ['exp written twice, the second in the past', (exp: number) => `"exp":${exp},"exp":1`],
    ['a sub written twice', (exp: number) => `"exp":${exp},"sub":"alice"`],
  ])('reads %s as a parser does, never past its expiry', async (name, exp) => {
    const { exp: valid, ...rest } = claims();
    const body = JSON.stringify(rest).slice(0, -1) + ',' + exp(valid) + '}';
    const admission = await admit(rawSigned({ alg: 'ES256', kid: 'k1' }, body));
    if (name.startsWith('a sub')) expect(admission).toEqual({ ok: true });
    else expect(admission).toMatchObject({ ok: false, status: 401 });
  });
});
