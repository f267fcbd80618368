// Redis when it answers, this process's memory when it does not ("if Redis goes away,
// calls go on with local state and a warning, never an outage"). The first failure logs one
// warning and switches to memory; while Redis is away nothing waits for it (commands fail at once
// without a connection, or after the command timeout). Once Redis is ready again, or a second
// after a failed command on a live connection, the next command tries Redis, and its success
// switches back with one info line. Local state does not move to Redis: buckets and pauses are
// short-lived, and the cache refills. Session records have no local stand-in (a replica's own
// sessions are in its own table): while Redis is away a new session is kept by its replica only,
// another replica cannot take one over, and one already shared is taken as still live.

import { pino, type Logger } from 'pino';
import { MemoryState } from './memory-state.js';
import type { RedisState } from './redis-state.js';
import type { SessionRecords, SharedState, TakeResult } from './shared-state.js';

/** How long after a failed command on a connection that still looks ready Redis is tried again. */
const RETRY_AFTER_FAILURE_MS = 1000;

export class ResilientState implements SharedState {
  private usingRedis = true;
  private retryAtMs = 0;

  readonly sessions: SessionRecords = {
    put: (id, record, ttlMs) => this.onRedis((redis) => redis.sessions.put(id, record, ttlMs), false),
    get: (id) => this.onRedis((redis) => redis.sessions.get(id), null),
    touch: (id, ttlMs) => this.onRedis((redis) => redis.sessions.touch(id, ttlMs), 'unknown'),
    drop: (id) => this.onRedis((redis) => redis.sessions.drop(id), undefined),
  };

  constructor(
    private readonly redis: RedisState,
    private readonly memory: SharedState = new MemoryState(),
    private readonly logger: Logger = pino({ level: 'silent' }),
  ) {
    redis.onReady(() => {
      this.retryAtMs = 0;
    });
    redis.onError((error) => {
      if (this.usingRedis) this.fallBack(error);
    });
  }

  take(bucket: string, capacity: number, refillPerSecond: number): Promise<TakeResult> {
    return this.run((state) => state.take(bucket, capacity, refillPerSecond));
  }

  pause(scope: string, untilMs: number): Promise<number> {
    return this.run((state) => state.pause(scope, untilMs));
  }

  pausedUntil(scope: string): Promise<number | null> {
    return this.run((state) => state.pausedUntil(scope));
  }

  cacheGet(key: string): Promise<string | null> {
    return this.run((state) => state.cacheGet(key));
  }

  cacheSet(key: string, value: string, ttlMs: number): Promise<void> {
    return this.run((state) => state.cacheSet(key, value, ttlMs));
  }

  async close(): Promise<void> {
    await Promise.all([this.redis.close(), this.memory.close()]);
  }

  private async run<T>(operation: (state: SharedState) => Promise<T>): Promise<T> {
    if (!this.redis.ready || (!this.usingRedis && Date.now() < this.retryAtMs)) {
      if (this.usingRedis) this.fallBack(new Error('not connected'));
      return operation(this.memory);
    }
    try {
      const result = await operation(this.redis);
      if (!this.usingRedis) {
        this.usingRedis = true;
        this.logger.info('redis answers again: rate limits, pauses and the cache are shared again');
      }
      return result;
    } catch (error) {
      this.retryAtMs = Date.now() + RETRY_AFTER_FAILURE_MS;
      if (this.usingRedis) this.fallBack(error as Error);
      return operation(this.memory);
    }
  }

  /** `operation` on Redis, or `otherwise` when Redis is away or fails (which the next shared operation notices and logs). */
  private async onRedis<T>(operation: (redis: RedisState) => Promise<T>, otherwise: T): Promise<T> {
    if (!this.redis.ready) return otherwise;
    try {
      return await operation(this.redis);
    } catch {
      return otherwise;
    }
  }

  private fallBack(error: Error): void {
    this.usingRedis = false;
    this.logger.warn(
      `redis is not answering (${error.message}): rate limits, pauses and the cache are kept in this process until it does`,
    );
  }
}
