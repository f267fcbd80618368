// SharedState in this process: the default without Redis, and ResilientState's fallback while
// Redis does not answer. Every map is bounded (lru-cache), so many origins or cache keys cannot
// grow the process without limit. The cache part answers in microseconds (a hit is one LRU get).

import { LRUCache } from 'lru-cache';
import {
  MAX_CACHE_ENTRY_BYTES,
  takeToken,
  type BucketLevel,
  type SessionRecords,
  type SharedState,
  type TakeResult,
} from './shared-state.js';
import { CONFIG_DEFAULTS } from '../config/defaults.js';

export interface MemoryStateOptions {
  /** Most cache entries kept (least recently used go first). */
  maxCacheEntries?: number;
  /** Most cache bytes kept (UTF-16 code units of the values, roughly bytes). */
  maxCacheBytes?: number;
  /** Most rate buckets and pauses kept, each. */
  maxKeys?: number;
  /** The clock, epoch ms (tests step it). */
  now?: () => number;
}

const DEFAULT_MAX_CACHE_ENTRIES = CONFIG_DEFAULTS.cache.maxEntries;
const DEFAULT_MAX_CACHE_BYTES = MAX_CACHE_ENTRY_BYTES;
const DEFAULT_MAX_KEYS = 10_000;

export class MemoryState implements SharedState {
  /** A process's sessions are in its own table already (src/edge/sessions.ts): nothing to share. */
  readonly sessions: SessionRecords | null = null;
  private readonly now: () => number;
  private readonly buckets: LRUCache<string, BucketLevel>;
  private readonly pauses: LRUCache<string, number>;
  private readonly cache: LRUCache<string, string>;

  constructor(options: MemoryStateOptions = {}) {
    this.now = options.now ?? Date.now;
    const maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
    this.buckets = new LRUCache({ max: maxKeys });
    this.pauses = new LRUCache({ max: maxKeys });
    this.cache = new LRUCache({
      max: options.maxCacheEntries ?? DEFAULT_MAX_CACHE_ENTRIES,
      maxSize: options.maxCacheBytes ?? DEFAULT_MAX_CACHE_BYTES,
      sizeCalculation: (value) => Math.max(1, value.length),
    });
  }

  async take(bucket: string, capacity: number, refillPerSecond: number): Promise<TakeResult> {
    const { level, result } = takeToken(this.buckets.get(bucket), capacity, refillPerSecond, this.now());
    this.buckets.set(bucket, level);
    return result;
  }

  async pause(scope: string, untilMs: number): Promise<number> {
    const current = this.pauses.get(scope);
    if (current !== undefined && current >= untilMs) return current;
    this.pauses.set(scope, untilMs);
    return untilMs;
  }

  async pausedUntil(scope: string): Promise<number | null> {
    return this.pausedUntilNow(scope);
  }

  pausedUntilNow(scope: string): number | null {
    // Asked before every request, and almost never paused: an empty table answers without the LRU's lookup.
    if (this.pauses.size === 0) return null;
    const until = this.pauses.get(scope);
    if (until === undefined) return null;
    if (until <= this.now()) {
      this.pauses.delete(scope);
      return null;
    }
    return until;
  }

  async cacheGet(key: string): Promise<string | null> {
    return this.cache.get(key) ?? null;
  }

  async cacheSet(key: string, value: string, ttlMs: number): Promise<void> {
    if (ttlMs <= 0) return;
    this.cache.set(key, value, { ttl: ttlMs });
  }

  async close(): Promise<void> {
    this.buckets.clear();
    this.pauses.clear();
    this.cache.clear();
  }
}
