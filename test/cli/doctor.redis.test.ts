// `flowguard doctor` and the Redis of `redis.url`: flowguard's keys in Redis (cached answers,
// pauses, rate buckets) are bounded only by their TTLs unless Redis has a `maxmemory`. Against a
// real redis-server the test starts and sets up as an operator (or a managed Redis) would: no bound
// is a warning, a bound with `noeviction` is one too, a Redis that refuses CONFIG GET (an ACL user
// without it) could not be checked; none of it fails the verdict, and the URL's password is
// never printed.

import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFlowguard } from '../kit/cli.js';
import { tempProject, type TempProject } from '../kit/project.js';
import { REDIS_INSTALLED, startRedis, type RedisServer } from '../state/redis-server.js';
import { freePort } from '../support/upstream.js';

const SCHEMA = `export const main = {
    namespace: 'tiny', name: 'Tiny', description: 'One route.', version: '2.0.0',
    docs: [], tags: [], root: 'https://api.tiny.test',
    routes: { ping: { method: 'GET', path: '/ping', description: 'x', parameters: [], tests: [{ _description: 'a' }] } }
};
`;
const PASSWORD = 'doctor-pw-5c1e0b7a93';

describe.skipIf(!REDIS_INSTALLED)('flowguard doctor: the memory bound of redis.url', () => {
  let redis: RedisServer;
  let admin: Redis;
  const projects: TempProject[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    admin = new Redis(redis.url);
  });
  afterAll(async () => {
    admin?.disconnect();
    await redis?.kill();
    for (const project of projects) project.remove();
  });

  async function doctor(url: string) {
    const project = tempProject({ schemas: { 'tiny.mjs': SCHEMA }, config: { redis: { url } } });
    projects.push(project);
    const outcome = await runFlowguard(['doctor', '--schemas', project.schemas, '--project', project.dir]);
    expect(outcome.stdout).toContain('verdict: ok');
    expect(outcome.code).toBe(0);
    return outcome.stdout;
  }

  it('warns when Redis has no maxmemory (its default), and says which policy to set', async () => {
    await admin.config('SET', 'maxmemory', '0');
    const out = await doctor(redis.url);
    expect(out).toContain(`redis     ${redis.url} (redis.url)`);
    expect(out).toContain(
      "  warning: maxmemory 0: nothing bounds the cached answers and the guard's keys but their TTLs; set maxmemory with maxmemory-policy volatile-lru",
    );
  });

  it('names the bound and policy when set; warns about noeviction', async () => {
    await admin.config('SET', 'maxmemory', '64mb');
    await admin.config('SET', 'maxmemory-policy', 'volatile-lru');
    let out = await doctor(redis.url);
    expect(out).toContain('  maxmemory 67108864 bytes, maxmemory-policy volatile-lru\n');
    expect(out).not.toContain('  warning: ');
    await admin.config('SET', 'maxmemory-policy', 'noeviction');
    out = await doctor(redis.url);
    expect(out).toContain('  warning: once full, Redis refuses writes');
    await admin.config('SET', 'maxmemory', '0');
  });

  it('a Redis that refuses CONFIG GET could not be checked: no warning of a bound, no failure, no password shown', async () => {
    await admin.call('ACL', 'SETUSER', 'managed', 'on', `>${PASSWORD}`, '~*', '+@all', '-config');
    const url = `redis://managed:${PASSWORD}@127.0.0.1:${redis.port}`;
    const out = await doctor(url);
    expect(out).toContain(`redis     redis://managed:***@127.0.0.1:${redis.port} (redis.url)`);
    expect(out).not.toContain('  warning: ');
    expect(out).toMatch(
      / {2}maxmemory could not be checked: this Redis refuses CONFIG GET \(NOPERM[^\n]*\); set maxmemory/,
    );
    expect(out).not.toContain(PASSWORD);
  });

  it('a Redis that does not answer is a warning, not a failure', async () => {
    const out = await doctor(`redis://127.0.0.1:${await freePort()}`);
    expect(out).toMatch(/ {2}warning: could not be reached \([^\n]*ECONNREFUSED[^\n]*\)/);
  });
});
