// What a Redis says of its memory bound (`maxmemory`, `maxmemory-policy`), for `flowguard doctor`:
// flowguard's keys (cached answers, pauses, rate buckets, session records) all expire, but only a
// `maxmemory` bounds what they hold at once. A managed Redis may refuse CONFIG GET (ACL, or the
// command renamed away): that is an answer too, not a failure.

/** The bound as Redis states it; `refused` or `unreachable` with Redis's own reason. */
export type RedisMemory =
  | { kind: 'read'; maxmemory: number; policy: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'unreachable'; reason: string };

/** Asks the Redis at `url` for its bound, waiting at most `timeoutMs` for each step. */
export async function readRedisMemory(url: string, timeoutMs = 2000): Promise<RedisMemory> {
  // ioredis only for a project that names a Redis (as open-state.ts loads it).
  const { Redis } = await import('ioredis');
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // Failures are answered below (a refused connection only says so here); ioredis would print unhandled ones.
  let failure: Error | undefined;
  client.on('error', (error: Error) => (failure = error));
  try {
    try {
      await client.connect();
    } catch (error) {
      return { kind: 'unreachable', reason: said((failure ?? (error as Error)).message) };
    }
    try {
      const [, maxmemory] = (await client.config('GET', 'maxmemory')) as string[];
      const [, policy] = (await client.config('GET', 'maxmemory-policy')) as string[];
      if (maxmemory === undefined || !/^\d+$/.test(maxmemory))
        return { kind: 'refused', reason: 'CONFIG GET maxmemory gave no number' };
      return { kind: 'read', maxmemory: Number(maxmemory), policy: said(policy ?? 'unknown') };
    } catch (error) {
      return { kind: 'refused', reason: said((error as Error).message) };
    }
  } finally {
    client.disconnect();
  }
}

/** What the server said, cut to a line's length: doctor prints it (escaped there), and a Redis answers what it likes. */
function said(text: unknown): string {
  return String(text).slice(0, 200);
}
