// Issue 16, point 8, end to end: two `flowguard serve --transport http --redis URL` processes
// against one real redis-server behave as one for the upstream's rate limit (a burst of 3 over
// both, counted at the loopback upstream), and when Redis is killed mid-run, calls go on with
// local state and each server warns once.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, connectHttp, spawnServe, type Connection, type Spawned } from '../mcp/helpers.js';
import { tempProject } from '../kit/project.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { waitFor } from '../support/wait.js';
import { REDIS_INSTALLED, REDIS_MISSING, startRedis, type RedisServer } from './redis-server.js';

if (!REDIS_INSTALLED) console.warn(REDIS_MISSING);

const ORIGIN = 'https://api.replicated.test';
const SCHEMA = `export const main = {
  namespace: 'replicated', name: 'Replicated', description: 'One API behind two servers.', version: '2.0.0',
  root: '${ORIGIN}',
  routes: { get: { method: 'GET', path: '/things', description: 'All things.', parameters: [], tests: [{ _description: 'all' }] } }
};
`;

describe.skipIf(!REDIS_INSTALLED)('two servers, one Redis', () => {
  let redis: RedisServer;
  let upstream: Upstream;
  let project: { dir: string; remove: () => void };
  const servers: Array<{ spawned: Spawned; connection: Connection }> = [];

  beforeAll(async () => {
    redis = await startRedis();
    upstream = await startUpstream();
    // A burst of 3, refilled one every 100 s: the fourth call anywhere is refused. Commands may take
    // up to 2 s on this shared machine before Redis counts as failed.
    project = tempProject({
      config: {
        upstreamLimits: { origins: { [ORIGIN]: { requestsPerSecond: 0.01, burst: 3 } } },
        redis: { commandTimeoutMs: 2000 },
        audit: { enabled: false },
      },
    });
    mkdirSync(join(project.dir, 'schemas'));
    writeFileSync(join(project.dir, 'schemas', 'replicated.mjs'), SCHEMA);
    for (let i = 0; i < 2; i++) {
      const args = [
        BIN,
        'serve',
        '--transport',
        'http',
        '--port',
        '0',
        '--schemas',
        join(project.dir, 'schemas'),
        '--project',
        project.dir,
        '--upstream',
        `*=${upstream.origin}`,
        '--redis',
        redis.url,
        '--log-level',
        'info',
      ];
      const spawned = spawnServe(args);
      const started = await waitFor(() => /serving \d+ tools? at (\S+)/.test(spawned.stderr()), 30_000);
      expect(started, spawned.stderr()).toBe(true);
      const url = /serving \d+ tools? at (\S+)/.exec(spawned.stderr())?.[1] as string;
      servers.push({ spawned, connection: await connectHttp(url) });
    }
  }, 90_000);

  afterAll(async () => {
    for (const { spawned, connection } of servers) {
      await connection.close();
      spawned.child.kill('SIGTERM');
      await spawned.exited;
    }
    await upstream.close();
    await redis.kill();
    project.remove();
  }, 30_000);

  const call = async (server: number): Promise<CallToolResult> =>
    (await servers[server]?.connection.client.callTool({ name: 'replicated_get', arguments: {} })) as CallToolResult;
  const text = (result: CallToolResult) =>
    result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

  it('share one rate limit: three calls over both servers reach the upstream, the fourth is refused with when to retry', async () => {
    const before = upstream.hits();
    const results = [await call(0), await call(1), await call(0)];
    expect(results.map((result) => result.isError ?? false)).toEqual([false, false, false]);
    const refused = await call(1);
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('Error (rate-limited)');
    expect(text(refused)).toMatch(/Retry after: \d+/);
    expect(upstream.hits() - before).toBe(3);
  });

  it('when Redis is killed mid-run, calls go on with local state, and each server warns once', async () => {
    await redis.kill();
    for (let round = 0; round < 3; round++) {
      for (const server of [0, 1]) {
        const result = await call(server);
        // Answered, not failed: each server now has its own fresh bucket (3), so some go out and later ones are refused.
        expect(text(result)).not.toContain('internal');
        if (result.isError) expect(text(result)).toContain('rate-limited');
      }
    }
    for (const { spawned } of servers) {
      expect(await waitFor(() => spawned.stderr().includes('redis is not answering'), 5000)).toBe(true);
      expect(spawned.stderr().split('redis is not answering').length - 1).toBe(1);
    }
  });
});
