// State that replicas of one flowguard must agree on: the upstream guard's
// rate buckets and pauses, the response cache, and the records by which any replica
// can take over an MCP session another opened. MemoryState keeps it in this process;
// RedisState keeps it in Redis so any number of processes behave as one; ResilientState uses
// Redis and falls back to memory while Redis does not answer.

/**
 * The largest response-cache entry a store keeps or hands back, in bytes: the memory store's
 * whole budget (MemoryState), and in Redis the most a lookup reads, so that an entry a peer or a
 * damaged store made huge costs a bounded read and is a miss.
 */
export const MAX_CACHE_ENTRY_BYTES = 64 * 1024 * 1024;

/** A token, or how long until the bucket has one. */
export type TakeResult = { ok: true } | { ok: false; retryAfterMs: number };

export interface SharedState {
  /** Token bucket `bucket` (capacity, refill per second): a token, or how long until one. */
  take(bucket: string, capacity: number, refillPerSecond: number): Promise<TakeResult>;
  /**
   * Pauses `scope` until the epoch ms given (the later of two pauses wins) and answers the epoch
   * ms of the pause now in force. The guard's scope is `<origin> <credential>`
   * (guard/credential.ts); Redis keeps it as `<prefix>pause:<scope>`.
   */
  pause(scope: string, untilMs: number): Promise<number>;
  /** The epoch ms `scope` is paused until, or null when it is not paused. */
  pausedUntil(scope: string): Promise<number | null>;
  /**
   * pausedUntil answered at once, where the state is this process's memory: the upstream guard
   * then lets a request that nothing holds back go in the same turn. Absent where asking takes a
   * round trip (Redis, and the state that falls back from it).
   */
  pausedUntilNow?(scope: string): number | null;
  cacheGet(key: string): Promise<string | null>;
  cacheSet(key: string, value: string, ttlMs: number): Promise<void>;
  /** Session records every replica reads; null where the state is this process's own (its sessions are already here). */
  readonly sessions: SessionRecords | null;
  close(): Promise<void>;
}

/** Whether a shared session record is still there: `unknown` when the store did not answer. */
export type SessionLiveness = 'live' | 'gone' | 'unknown';

/**
 * Records of MCP sessions (`serve --sessions`), kept where every replica finds them, each as an
 * opaque text that expires unless touched (Redis: `<prefix>session:<id>`). A store that does not
 * answer never fails a request: `put` says false, `get` null, `touch` unknown.
 */
export interface SessionRecords {
  /** Stores a record for `ttlMs`; false when it could not be stored. */
  put(id: string, record: string, ttlMs: number): Promise<boolean>;
  get(id: string): Promise<string | null>;
  /** Gives the record `ttlMs` more to live, and says whether it was still there. */
  touch(id: string, ttlMs: number): Promise<SessionLiveness>;
  /** Removes it: the session has ended (the client's DELETE). */
  drop(id: string): Promise<void>;
}

/** Where a bucket stands: tokens left (fractional) as of `atMs`. */
export interface BucketLevel {
  tokens: number;
  atMs: number;
}

/**
 * One take from a token bucket, as pure arithmetic (MemoryState runs it; RedisState's Lua script
 * is the same steps): refill by the time passed, up to capacity, then take one whole token.
 */
export function takeToken(
  level: BucketLevel | undefined,
  capacity: number,
  refillPerSecond: number,
  nowMs: number,
): { level: BucketLevel; result: TakeResult } {
  const elapsed = level ? Math.max(0, nowMs - level.atMs) : 0;
  const tokens = level ? Math.min(capacity, level.tokens + (elapsed * refillPerSecond) / 1000) : capacity;
  if (tokens >= 1) return { level: { tokens: tokens - 1, atMs: nowMs }, result: { ok: true } };
  const retryAfterMs =
    refillPerSecond > 0 ? Math.ceil(((1 - tokens) * 1000) / refillPerSecond) : Number.MAX_SAFE_INTEGER;
  return { level: { tokens, atMs: nowMs }, result: { ok: false, retryAfterMs } };
}
