// The answers of the introspection endpoint (RFC 7662) kept for a short while: without them every
// MCP request of a client with an opaque token asks the identity provider again, so a busy client
// multiplies the provider's load and every call waits for it. An active token's caller is kept until
// the earlier of its `exp` and `oauth.introspection.cacheSeconds` (0: nothing is kept); an inactive
// or refused one is not kept, so a token that becomes valid is admitted at once, and a flood of bad
// tokens is the rate limiter's business, not a cache's. The trade-off the operator takes: a token
// revoked at the provider is still admitted here until its entry ends (at most cacheSeconds).
//
// Entries are keyed by the token's SHA-256, never the token: the cache is bounded in entries and in
// the claims they hold (the least recently used go first), so neither many tokens nor tokens with
// long scope or groups claims (an answer may be 256 KiB, fetch.ts) can grow the process.

import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Caller } from './caller.js';

export const DEFAULT_INTROSPECTION_CACHE_SECONDS = 60;
/** Tokens kept at most: far more clients than one server has at once. */
export const INTROSPECTION_CACHE_ENTRIES = 10_000;
/** The claims kept at most, in characters: 10,000 callers of 1.6 KiB, or 64 of the largest answer. */
export const INTROSPECTION_CACHE_CHARS = 16 * 1024 * 1024;
/** What a kept string costs beside its characters (its header and the array slot). */
const STRING_OVERHEAD = 32;

export interface IntrospectionCacheOptions {
  /** How long an active answer is kept at most, in seconds; 0 keeps none. */
  seconds?: number;
  maxEntries?: number;
  /** The claims (subject, client, scopes, groups) kept at most, in characters. */
  maxChars?: number;
  /** The clock, epoch ms (tests step it). */
  now?: () => number;
}

export class IntrospectionCache {
  private readonly keepMs: number;
  private readonly now: () => number;
  private readonly entries: LRUCache<string, { caller: Caller; until: number }> | null;

  constructor(options: IntrospectionCacheOptions = {}) {
    this.keepMs = (options.seconds ?? DEFAULT_INTROSPECTION_CACHE_SECONDS) * 1000;
    this.now = options.now ?? Date.now;
    this.entries =
      this.keepMs > 0
        ? new LRUCache({
            max: options.maxEntries ?? INTROSPECTION_CACHE_ENTRIES,
            maxSize: options.maxChars ?? INTROSPECTION_CACHE_CHARS,
            sizeCalculation: (entry) => charsOf(entry.caller),
          })
        : null;
  }

  /** The caller an active answer for `token` named, while its entry lasts. */
  get(token: string): Caller | undefined {
    if (!this.entries) return undefined;
    const key = keyOf(token);
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (this.now() < entry.until) return entry.caller;
    this.entries.delete(key);
    return undefined;
  }

  /** Keeps an active answer's caller until the earlier of the bound and `exp` (epoch seconds, when the answer has one). */
  keep(token: string, caller: Caller, exp: unknown): void {
    if (!this.entries) return;
    const now = this.now();
    const until = Math.min(now + this.keepMs, typeof exp === 'number' ? exp * 1000 : Infinity);
    if (until > now) this.entries.set(keyOf(token), { caller, until });
  }
}

/** The characters a caller holds, each string with its overhead: what its entry costs the cache. */
function charsOf(caller: Caller): number {
  const texts = [caller.identity, caller.subject, caller.client, ...caller.scopes, ...caller.groups];
  return texts.reduce((sum: number, text) => sum + STRING_OVERHEAD + (text?.length ?? 0), 64);
}

/** The SHA-256 of a token in hex: how the cache and the introspections in flight name it, never by the token. */
export function keyOf(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
