// Issue 23, point 8, across replicas: two catalogs (two replicas) share pauses through a real
// redis-server. A 429 an attacker's schema fetched at the victim's origin pauses the attacker in
// both replicas and the victim in neither; a 429 the victim got pauses the victim in both. Redis
// holds the pause under `pause:<origin> <credential>`, the credential a hash, never the key.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import type { CallResult } from '../../src/call/outcome.js';
import { RedisState } from '../../src/state/redis-state.js';
import { tempProject } from '../kit/project.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { REDIS_INSTALLED, REDIS_MISSING, startRedis, type RedisServer } from './redis-server.js';

if (!REDIS_INSTALLED) console.warn(REDIS_MISSING);

const ORIGIN = 'https://api.victim.test';
const VICTIM_KEY = 'victim-key-in-redis-never-0123';
const route = `routes: { get: { method: 'GET', path: '/things/{{mode}}', description: 'One thing.', parameters: [{ position: { key: 'mode', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: [] } }], tests: [{ _description: 'a', mode: 'ok' }] } }`;
const VICTIM = `export const main = { namespace: 'victim', name: 'Victim', description: 'The victim.', version: '2.0.0', root: '${ORIGIN}', requiredServerParams: ['VICTIM_KEY'], headers: { 'x-api-key': '{{VICTIM_KEY}}' }, ${route} };\n`;
const ATTACKER = `export const main = { namespace: 'attacker', name: 'Attacker', description: 'Points at the victim.', version: '2.0.0', root: '${ORIGIN}', ${route} };\n`;

const kind = (result: CallResult) => (result.ok ? 'ok' : result.error.kind);

describe.skipIf(!REDIS_INSTALLED)('pauses shared through Redis belong to a credential', () => {
  let redis: RedisServer;
  let upstream: Upstream;
  let project: { dir: string; remove: () => void };
  const replicas: Catalog[] = [];
  const states: RedisState[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    upstream = await startUpstream((req, res) => {
      if (req.url?.endsWith('/busy')) return void res.writeHead(429, { 'retry-after': '60' }).end('slow down');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    project = tempProject({ config: {} });
    mkdirSync(join(project.dir, 'schemas'));
    writeFileSync(join(project.dir, 'schemas', 'victim.mjs'), VICTIM);
    writeFileSync(join(project.dir, 'schemas', 'attacker.mjs'), ATTACKER);
    for (let replica = 0; replica < 2; replica++) {
      const state = new RedisState(redis.url, { keyPrefix: 'fg:', commandTimeoutMs: 2000 });
      await state.connect(5000);
      states.push(state);
      replicas.push(
        await Catalog.load({
          schemas: join(project.dir, 'schemas'),
          project: project.dir,
          env: {},
          keys: { VICTIM_KEY },
          upstreams: { '*': upstream.origin },
          state,
        }),
      );
    }
  });
  afterAll(async () => {
    for (const catalog of replicas) await catalog.close();
    for (const state of states) await state.close();
    await upstream?.close();
    project?.remove();
    await redis?.kill();
  });

  it("the attacker's 429 pauses the attacker in both replicas and the victim in neither; the victim's own 429 pauses the victim in both", async () => {
    const [first, second] = replicas as [Catalog, Catalog];
    expect(kind(await first.call('attacker_get', { mode: 'busy' }))).toBe('upstream-status');
    expect(kind(await second.call('attacker_get', { mode: 'ok' }))).toBe('rate-limited');
    expect(kind(await second.call('victim_get', { mode: 'ok' }))).toBe('ok');
    expect(kind(await first.call('victim_get', { mode: 'ok' }))).toBe('ok');

    expect(kind(await first.call('victim_get', { mode: 'busy' }))).toBe('upstream-status');
    expect(kind(await second.call('victim_get', { mode: 'ok' }))).toBe('rate-limited');

    const client = new Redis(redis.url);
    try {
      const keys = (await client.keys('fg:pause:*')).sort();
      expect(keys).toHaveLength(2);
      expect(keys[0]?.startsWith(`fg:pause:${ORIGIN} keys:`)).toBe(true);
      expect(keys[0]).toMatch(/ keys:[0-9a-f]{32}$/);
      expect(keys[1]).toBe(`fg:pause:${ORIGIN} namespace:attacker`);
      expect(keys.join('\n')).not.toContain(VICTIM_KEY);
    } finally {
      client.disconnect();
    }
  });
});
