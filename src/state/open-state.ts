// The shared state a server runs with: Redis (through ResilientState) when a URL is given by
// `--redis` or `redis.url`, else this process's memory. One state serves every catalog the
// server loads (a reload keeps pauses, buckets and cache); the server closes it at shutdown.

import type { Logger } from 'pino';
import type { RedisConfig } from '../config/project.js';
import { maskedUrl } from '../shared/masked-url.js';
import { MemoryState } from './memory-state.js';
import { ResilientState } from './resilient-state.js';
import type { SharedState } from './shared-state.js';

/** How long a server waits for Redis at start before it goes on with memory (and keeps trying). */
const CONNECT_WAIT_MS = 2000;

export async function openSharedState(
  config: RedisConfig,
  logger: Logger,
  memory: MemoryState = new MemoryState(),
): Promise<SharedState> {
  if (config.url === undefined) return memory;
  // ioredis (about 70 ms to load) only for a server that uses it.
  const { RedisState } = await import('./redis-state.js');
  const redis = new RedisState(config.url, { keyPrefix: config.keyPrefix, commandTimeoutMs: config.commandTimeoutMs });
  const state = new ResilientState(redis, memory, logger);
  try {
    await redis.connect(CONNECT_WAIT_MS);
    logger.info(`shared state in redis at ${maskedUrl(config.url)}`);
  } catch {
    // ResilientState has warned (a connection error) or warns on first use; calls go on in memory.
  }
  return state;
}
