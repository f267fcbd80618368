// The answers of the introspection endpoint (RFC 7662) kept for a short while: without them every
// MCP request of a client with an opaque token asks the identity provider again, so a busy client
// multiplies the provider's load and every call waits for it. An active token's caller is kept until
// the earlier of its `exp` and `oauth.introspection.cacheSeconds` (0: nothing is kept); an inactive
// or refused one is not kept, so a token that becomes valid is admitted at once, and a flood of bad
// tokens is the rate limiter's business, not a cache's. The trade-off the operator takes: a token
// revoked at the provider is still admitted here until its entry ends (at most cacheSeconds).
//
// Entries are keyed by the token's SHA-256, never the token: the cache is bounded in entries (the
// least recently used go first), so many tokens cannot grow the process.

import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Caller } from './caller.js';

export const DEFAULT_INTROSPECTION_CACHE_SECONDS = 60;
/** Tokens kept at most: far more clients than one server has at once, at about 300 bytes each. */
export const INTROSPECTION_CACHE_ENTRIES = 10_000;

export interface IntrospectionCacheOptions {
  /** How long an active answer is kept at most, in seconds; 0 keeps none. */
  seconds?: number;
  maxEntries?: number;
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
    this.entries = this.keepMs > 0 ? new LRUCache({ max: options.maxEntries ?? INTROSPECTION_CACHE_ENTRIES }) : null;
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

function keyOf(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
