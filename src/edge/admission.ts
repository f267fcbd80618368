// Who a request comes from, decided once per request before MCP sees it: a static token of the
// operator's (auth.ts; it may stand for an identity), else an OAuth access token verified by the
// resource server (src/access/resource.ts), then the identity the caller maps to. The answer is
// the caller, or the status, challenge and message of the refusal. Without tokens or OAuth (a
// loopback server), every request is admitted with no caller.

import { createHash } from 'node:crypto';
import type { Caller } from '../access/caller.js';
import type { Identities } from '../access/identities.js';
import { admitIdentity, type Admission, type ResourceServer } from '../access/resource.js';
import { BEARER_REALM, presentedIdentity, type AccessGate, type TokenCheck } from './auth.js';

/** Admitted with a caller, or (no token required) with none. */
export type RequestAdmission = { ok: true; caller?: Caller } | (Admission & { ok: false });

const BEARER_TOKEN = /^Bearer +(\S+) *$/i;
/** The subject of a caller admitted by a static token. */
const STATIC_SUBJECT = 'static-token';

const TOKEN_REFUSALS: Record<Exclude<TokenCheck, 'accepted'>, string> = {
  missing: 'Unauthorized: this server needs a bearer token (Authorization: Bearer <token>)',
  invalid: 'Unauthorized: the bearer token is not valid',
};

export async function admitRequest(
  authorization: string | undefined,
  gate: AccessGate,
  identities: Identities,
  oauth?: ResourceServer,
): Promise<RequestAdmission> {
  const statics = gate.matchToken(authorization);
  if (gate.requiresToken && statics.check === 'accepted')
    return admitIdentity({ subject: STATIC_SUBJECT, identity: statics.identity, scopes: [], groups: [] }, identities);
  if (oauth) {
    const token = authorization === undefined ? undefined : BEARER_TOKEN.exec(authorization)?.[1];
    return token === undefined ? oauth.missing() : oauth.admit(token, identities);
  }
  if (statics.check === 'accepted') return { ok: true };
  return {
    ok: false,
    status: 401,
    challenge: statics.check === 'invalid' ? `${BEARER_REALM}, error="invalid_token"` : BEARER_REALM,
    message: TOKEN_REFUSALS[statics.check],
  };
}

/**
 * Whose a session is: an OAuth caller's subject, client and identity (a refreshed token continues
 * it; one that maps to another identity, say with fewer scopes, does not: the session's server
 * serves the identity it was opened under), else the SHA-256 of the bearer token presented
 * (auth.ts presentedIdentity), which names one identity for good.
 */
export function sessionOwner(authorization: string | undefined, caller: Caller | undefined): Buffer {
  if (caller?.subject !== undefined && caller.subject !== STATIC_SUBJECT)
    return createHash('sha256')
      .update(JSON.stringify(['oauth', caller.subject, caller.client ?? '', caller.identity ?? '']))
      .digest();
  return presentedIdentity(authorization);
}
