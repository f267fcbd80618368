// Who a request to the HTTP endpoint comes from, once its bearer token was accepted: the subject
// and client its token names, the scopes and groups it carries, and the identity of the config
// (`identities`) it maps to. Never the token itself: a caller is logged, audited and counted.

import { createHash } from 'node:crypto';

export interface Caller {
  /** The `identities` entry this caller maps to; undefined where the config names none. */
  identity?: string;
  /** The token's `sub`; for a static token, `static`. */
  subject?: string;
  /** The token's `client_id` (or `azp`). */
  client?: string;
  scopes: readonly string[];
  /** The groups claim of the token (`oauth.groupsClaim`). */
  groups: readonly string[];
}

/** The longest subject or client id kept: a token's claims are the issuer's text, bounded before they are logged. */
const MAX_CLAIM_CHARS = 200;

/**
 * A claim as a caller keeps it: a string, cut, control characters escaped (it ends up in log
 * lines). A value cut short ends in a digest of the whole, so that two subjects the issuer tells
 * apart stay two callers (a session is its subject's, src/edge/admission.ts) however long they are.
 */
export function claimText(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const shown = value
    .slice(0, MAX_CLAIM_CHARS)
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (value.length <= MAX_CLAIM_CHARS) return shown;
  return `${shown}…sha256:${createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 32)}`;
}

/** `scope` (space-separated, RFC 9068) or `scp` (an array, as some issuers send it). */
export function scopesOf(claims: Record<string, unknown>): string[] {
  if (typeof claims.scope === 'string') return claims.scope.split(' ').filter((scope) => scope !== '');
  if (Array.isArray(claims.scp)) return claims.scp.filter((scope): scope is string => typeof scope === 'string');
  return [];
}

/** A groups claim: an array of strings, or one string. */
export function groupsOf(claims: Record<string, unknown>, claim: string): string[] {
  const value = claims[claim];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((group): group is string => typeof group === 'string') : [];
}
