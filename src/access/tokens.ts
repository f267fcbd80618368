// Access tokens of the OAuth resource server (MCP authorization; RFC 9068 JWTs, RFC 7662 for
// opaque ones). A JWT is verified with jose against the issuer's key set: fetched through the
// bounded fetch, cached, and fetched again when a token names a key it does not hold (rotation),
// no more than once per cooldown. What must hold: the signature by one of those keys, with an
// algorithm of the allowlist (asymmetric only: `alg: none` never verifies, and an HS256 token
// "signed" with the public key finds no key of its kind), `iss` the issuer, `aud` this resource,
// `exp` present and not past, `nbf` not ahead, each with a small leeway. A token that is not a JWT
// is asked about at the introspection endpoint where one is set (its active answers kept a short
// while, introspection-cache.ts), and refused otherwise. Requests with one token not yet answered
// share one introspection; at most MAX_INTROSPECTIONS_IN_FLIGHT distinct tokens are asked about at
// once, so a flood of made-up tokens opens no more connections to the provider than that (the
// rest are refused at once, as when the endpoint cannot be reached).
// A token is never logged, stored, or forwarded: a verdict says why in words, never with it.

import { createRemoteJWKSet, customFetch, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { claimText, groupsOf, scopesOf, type Caller } from './caller.js';
import { AccessFetchError, type BoundedFetch } from './fetch.js';
import { IntrospectionCache, keyOf } from './introspection-cache.js';
import { ASYMMETRIC_ALGORITHMS, type OAuthSettings } from './settings.js';

/** `why` is told to the caller; `detail`, where set, only to the operator's log (an address, a socket error). */
export type TokenVerdict = { ok: true; caller: Caller } | { ok: false; why: string; detail?: string };

const DEFAULT_LEEWAY_SECONDS = 30;
/** How long a key set is kept before it is fetched again, and the least time between two fetches. */
const JWKS_MAX_AGE_MS = 10 * 60_000;
const JWKS_COOLDOWN_MS = 30_000;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
/** Distinct tokens asked about at the introspection endpoint at once, at most: far more than honest clients start together. */
export const MAX_INTROSPECTIONS_IN_FLIGHT = 32;
/** The time claims of an introspection answer (RFC 7662 §2.2): NumericDate where present. */
const TIME_CLAIMS = ['exp', 'nbf', 'iat'] as const;

export interface VerifierSetup {
  issuer: string;
  resource: string;
  jwksUri?: string;
  introspection?: { url: string; clientId: string; clientSecret: string };
  settings: OAuthSettings;
}

export class TokenVerifier {
  private readonly keys: JWTVerifyGetKey | undefined;
  private readonly introspected: IntrospectionCache;
  /** Per token's SHA-256, the introspection under way: later requests with that token wait for it. */
  private readonly inFlight = new Map<string, Promise<TokenVerdict>>();

  constructor(
    private readonly setup: VerifierSetup,
    private readonly fetcher: BoundedFetch,
  ) {
    this.introspected = new IntrospectionCache({ seconds: setup.settings.introspection?.cacheSeconds });
    this.keys = setup.jwksUri
      ? createRemoteJWKSet(new URL(setup.jwksUri), {
          cacheMaxAge: JWKS_MAX_AGE_MS,
          cooldownDuration: JWKS_COOLDOWN_MS,
          [customFetch]: fetcher.fetch,
        })
      : undefined;
  }

  get resource(): string {
    return this.setup.resource;
  }

  async verify(token: string): Promise<TokenVerdict> {
    if (JWT_SHAPE.test(token) && this.keys) return this.verifyJwt(token, this.keys);
    if (this.setup.introspection) return this.introspect(token, this.setup.introspection);
    return {
      ok: false,
      why: this.keys ? 'the token is not a JWT' : 'the token is not a JWT, and no introspection endpoint is set',
    };
  }

  private async verifyJwt(token: string, keys: JWTVerifyGetKey): Promise<TokenVerdict> {
    const { settings } = this.setup;
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: this.setup.issuer,
        audience: this.setup.resource,
        algorithms: settings.algorithms ?? [...ASYMMETRIC_ALGORITHMS],
        clockTolerance: settings.clockToleranceSeconds ?? DEFAULT_LEEWAY_SECONDS,
        requiredClaims: ['exp'],
      });
      return { ok: true, caller: this.callerOf(payload as Record<string, unknown>) };
    } catch (error) {
      if (error instanceof errors.JWKSTimeout || error instanceof AccessFetchError)
        return { ok: false, ...unreached("the issuer's key set could not be fetched", error) };
      return { ok: false, why: jwtRefusal(error) };
    }
  }

  private introspect(token: string, introspection: NonNullable<VerifierSetup['introspection']>): Promise<TokenVerdict> {
    const kept = this.introspected.get(token);
    if (kept) return Promise.resolve({ ok: true, caller: kept });
    const key = keyOf(token);
    const asking = this.inFlight.get(key);
    if (asking) return asking;
    if (this.inFlight.size >= MAX_INTROSPECTIONS_IN_FLIGHT)
      return Promise.resolve({
        ok: false,
        why: "the token could not be introspected now; the server's log says why",
        detail: `the token could not be introspected: ${MAX_INTROSPECTIONS_IN_FLIGHT} other tokens were being introspected already`,
      });
    const asked = this.askEndpoint(token, introspection).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, asked);
    return asked;
  }

  private async askEndpoint(
    token: string,
    introspection: NonNullable<VerifierSetup['introspection']>,
  ): Promise<TokenVerdict> {
    let answer: Record<string, unknown>;
    try {
      const basic = Buffer.from(
        `${encodeURIComponent(introspection.clientId)}:${encodeURIComponent(introspection.clientSecret)}`,
      ).toString('base64');
      answer = await this.fetcher.json(introspection.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
      });
    } catch (error) {
      if (error instanceof AccessFetchError)
        return { ok: false, ...unreached('the token could not be introspected', error) };
      throw error;
    }
    const refusal = this.answerRefusal(answer);
    if (refusal) return { ok: false, why: refusal };
    const caller = this.callerOf(answer);
    this.introspected.keep(token, caller, answer.exp);
    return { ok: true, caller };
  }

  /** Why an introspection answer does not admit its token; undefined when it does. */
  private answerRefusal(answer: Record<string, unknown>): string | undefined {
    if (answer.active !== true) return 'the token is not active';
    const audiences = Array.isArray(answer.aud) ? answer.aud : [answer.aud];
    if (!audiences.includes(this.setup.resource)) return 'the token was not issued for this server (aud)';
    if (answer.iss !== undefined && answer.iss !== this.setup.issuer)
      return 'the token was issued by another issuer (iss)';
    // A time claim that is present is a NumericDate: text, or a number JSON made infinite, is not one.
    const malformed = TIME_CLAIMS.find((claim) => answer[claim] !== undefined && !Number.isFinite(answer[claim]));
    if (malformed) return `the token's ${malformed} claim is not a number of seconds`;
    const leeway = this.setup.settings.clockToleranceSeconds ?? DEFAULT_LEEWAY_SECONDS;
    const nowSeconds = Date.now() / 1000;
    if (typeof answer.exp === 'number' && answer.exp + leeway < nowSeconds) return 'the token has expired (exp)';
    if (typeof answer.nbf === 'number' && answer.nbf - leeway > nowSeconds) return 'the token is not valid yet (nbf)';
    return undefined;
  }

  private callerOf(claims: Record<string, unknown>): Caller {
    return {
      subject: claimText(claims.sub),
      client: claimText(claims.client_id) ?? claimText(claims.azp),
      scopes: scopesOf(claims),
      groups: groupsOf(claims, this.setup.settings.groupsClaim ?? 'groups'),
    };
  }
}

/** Why jose refused a token, in words a client can act on (jose's own name the claim, never its value). */
function jwtRefusal(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'the token has expired (exp)';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return 'the token was not issued for this server (aud)';
    if (error.claim === 'iss') return 'the token was issued by another issuer (iss)';
    return `the token's ${error.claim} claim does not hold (${error.reason})`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed)
    return 'the token is signed with an algorithm this server does not accept';
  if (error instanceof errors.JWKSNoMatchingKey)
    return "the token is signed by a key the issuer's key set does not hold";
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'the token signature does not verify';
  if (error instanceof errors.JOSEError) return `the token is not valid (${error.code})`;
  // Anything else is refused too: a token that could not be verified is not accepted.
  return 'the token could not be verified';
}

/**
 * A refusal because the issuer's endpoint could not be used: the caller learns which, the log
 * learns where and why (its URL may be an internal name and port, never an anonymous caller's).
 */
function unreached(what: string, error: Error): { why: string; detail: string } {
  return { why: `${what}; the server's log says why`, detail: `${what}: ${error.message.slice(0, 300)}` };
}
