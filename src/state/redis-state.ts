// SharedState in Redis, so that replicas share rate buckets, pauses, the cache and session
// records (`<prefix>session:<id>`, expiring unless touched). A bucket is
// one Lua script (read, refill, take, write) so two processes taking at once cannot both spend
// the last token; it reads Redis's clock, so replicas' clocks need not agree. Pauses and cache
// entries are keys that expire by themselves (PX). Commands fail fast instead of queueing while
// Redis is away: ResilientState turns a failure into local state, never into a slow call.

import { Redis } from 'ioredis';
import {
  MAX_CACHE_ENTRY_BYTES,
  type SessionLiveness,
  type SessionRecords,
  type SharedState,
  type TakeResult,
} from './shared-state.js';
import { CONFIG_DEFAULTS } from '../config/defaults.js';

export interface RedisStateOptions {
  /** Prefix of every key, so several deployments can share one Redis. */
  keyPrefix?: string;
  /** A command not answered within this many milliseconds fails. */
  commandTimeoutMs?: number;
  /** The largest response-cache entry written or read, in bytes (MAX_CACHE_ENTRY_BYTES; tests set less). */
  maxCacheEntryBytes?: number;
}

const DEFAULT_COMMAND_TIMEOUT_MS = CONFIG_DEFAULTS.redis.commandTimeoutMs;
/** Longest wait between reconnection attempts while Redis is away. */
const MAX_RECONNECT_DELAY_MS = 1000;

// KEYS[1] bucket; ARGV capacity, refill per second. Returns { 1, 0 } for a token, { 0, ms } when
// none (-1: the bucket never refills). The key expires once the bucket would be full again. A level
// no take wrote (another type, a field missing or out of range: damaged, or set by hand) is a full
// bucket, so it can neither fail every take nor refuse for longer than the rate says.
const TAKE_SCRIPT = `
local capacity = tonumber(ARGV[1])
local refill = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local tokens, at = nil, nil
local kind = redis.call('TYPE', KEYS[1]).ok
if kind == 'hash' then
  local level = redis.call('HMGET', KEYS[1], 'tokens', 'at')
  tokens, at = tonumber(level[1]), tonumber(level[2])
elseif kind ~= 'none' then
  redis.call('DEL', KEYS[1])
end
if tokens == nil or at == nil or not (tokens >= 0 and tokens <= capacity) then
  tokens = capacity
else
  tokens = math.min(capacity, tokens + math.max(0, now - at) * refill / 1000)
end
local ok, wait = 0, 0
if tokens >= 1 then
  tokens = tokens - 1
  ok = 1
elseif refill > 0 then
  wait = math.ceil((1 - tokens) * 1000 / refill)
else
  wait = -1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
local ttl = 86400000
if refill > 0 then ttl = math.ceil((capacity - tokens) * 1000 / refill) + 1000 end
redis.call('PEXPIRE', KEYS[1], ttl)
return { ok, wait }
`;

// KEYS[1] pause; ARGV[1] until (epoch ms). The later pause wins; the key ends with the pause. A key
// without an expiry, or not a string, was written by no pause (damaged, or set by hand): the new
// pause replaces it. Answers the until in force, the one a client is told to wait for.
const PAUSE_SCRIPT = `
local current = nil
if redis.call('TYPE', KEYS[1]).ok == 'string' then current = tonumber(redis.call('GET', KEYS[1])) end
local untilMs = tonumber(ARGV[1])
if current == nil or untilMs > current or redis.call('PTTL', KEYS[1]) < 0 then
  redis.call('SET', KEYS[1], ARGV[1], 'PXAT', ARGV[1])
  return ARGV[1]
end
return tostring(current)
`;

type ScriptedRedis = Redis & {
  flowguardTake(key: string, capacity: number, refillPerSecond: number): Promise<[number, number]>;
  flowguardPause(key: string, untilMs: number): Promise<string>;
};

export class RedisState implements SharedState {
  private readonly client: ScriptedRedis;
  private readonly prefix: string;
  private readonly maxCacheEntryBytes: number;
  readonly sessions: SessionRecords = {
    put: async (id, record, ttlMs) =>
      (await this.client.set(this.sessionKey(id), record, 'PX', Math.ceil(ttlMs))) === 'OK',
    get: (id) => this.client.get(this.sessionKey(id)),
    touch: async (id, ttlMs): Promise<SessionLiveness> =>
      (await this.client.pexpire(this.sessionKey(id), Math.ceil(ttlMs))) === 1 ? 'live' : 'gone',
    drop: async (id) => void (await this.client.del(this.sessionKey(id))),
  };

  constructor(url: string, options: RedisStateOptions = {}) {
    this.prefix = options.keyPrefix ?? 'flowguard:';
    this.maxCacheEntryBytes = options.maxCacheEntryBytes ?? MAX_CACHE_ENTRY_BYTES;
    this.client = new Redis(url, {
      commandTimeout: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
      connectTimeout: 2000,
      // Nothing waits for Redis: without a connection a command fails at once.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
      lazyConnect: true,
    }) as ScriptedRedis;
    this.client.defineCommand('flowguardTake', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    this.client.defineCommand('flowguardPause', { numberOfKeys: 1, lua: PAUSE_SCRIPT });
  }

  /** Connects, failing after `timeoutMs`; reconnection goes on in the background either way. */
  async connect(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    const connecting = this.client.connect();
    // Lost the race or not, its failure is the timeout's or the error listener's to report.
    connecting.catch(() => undefined);
    try {
      await Promise.race([connecting, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Whether commands can be sent now (connected and ready). */
  get ready(): boolean {
    return this.client.status === 'ready';
  }

  /** Calls `listener` each time the connection becomes ready (again). */
  onReady(listener: () => void): void {
    this.client.on('ready', listener);
  }

  /** Calls `listener` with each connection error (ioredis would print unhandled ones). */
  onError(listener: (error: Error) => void): void {
    this.client.on('error', listener);
  }

  async take(bucket: string, capacity: number, refillPerSecond: number): Promise<TakeResult> {
    const [ok, wait] = await this.client.flowguardTake(`${this.prefix}bucket:${bucket}`, capacity, refillPerSecond);
    if (ok === 1) return { ok: true };
    return { ok: false, retryAfterMs: wait < 0 ? Number.MAX_SAFE_INTEGER : wait };
  }

  async pause(scope: string, untilMs: number): Promise<number> {
    return Number(await this.client.flowguardPause(`${this.prefix}pause:${scope}`, Math.ceil(untilMs)));
  }

  async pausedUntil(scope: string): Promise<number | null> {
    const value = await this.client.get(`${this.prefix}pause:${scope}`).catch(noValueOfAnotherType);
    const until = value === null ? NaN : Number(value);
    return Number.isFinite(until) && until > Date.now() ? until : null;
  }

  /**
   * At most one byte past the bound is read (GETRANGE), so an entry larger than any this cache
   * writes (a peer's, a damaged store's) is never read whole: a miss. So is an entry of another
   * type, not a failure that would move the replica's shared state to memory (ResilientState)
   * and leave the entry in place; the next answer's SET writes over it.
   */
  async cacheGet(key: string): Promise<string | null> {
    const bytes = await this.client
      .getrangeBuffer(`${this.prefix}cache:${key}`, 0, this.maxCacheEntryBytes)
      .catch(noValueOfAnotherType);
    // GETRANGE answers an empty string for a missing key; no entry the cache writes is empty.
    if (bytes === null || bytes.length === 0 || bytes.length > this.maxCacheEntryBytes) return null;
    return bytes.toString('utf8');
  }

  async cacheSet(key: string, value: string, ttlMs: number): Promise<void> {
    if (ttlMs <= 0 || Buffer.byteLength(value) > this.maxCacheEntryBytes) return;
    await this.client.set(`${this.prefix}cache:${key}`, value, 'PX', Math.ceil(ttlMs));
  }

  private sessionKey(id: string): string {
    return `${this.prefix}session:${id}`;
  }

  async close(): Promise<void> {
    try {
      if (this.ready) await this.client.quit();
    } catch {
      // Closing anyway.
    } finally {
      this.client.disconnect();
    }
  }
}

/**
 * A pause or cache key of another type (a hash, a list) was written by no pause or answer: it
 * holds nothing (the next pause or answer replaces it); any other failure is Redis's.
 */
function noValueOfAnotherType(error: unknown): null {
  if (error instanceof Error && error.message.startsWith('WRONGTYPE')) return null;
  throw error;
}
