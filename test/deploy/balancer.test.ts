// Issue 28, point 4, end to end with real parts: two spawned `flowguard serve --transport http`
// replicas sharing one real redis-server, behind a real HAProxy running deploy/haproxy/haproxy.cfg
// (the file compose mounts), reached by the official SDK client over Streamable HTTP through the
// balancer. Which replica answered is read from each replica's own /metrics.
//
// - stateless replicas: calls are spread over both; one rate limit holds over both (Redis); a
//   replica killed (SIGKILL) with calls in flight on it loses none (retry-on, redispatch).
// - `--sessions` alone: a session stays on the replica that opened it (the stick table on
//   Mcp-Session-Id), sessions are spread over both; without the stick lines a session breaks, and
//   a session whose replica is killed is gone (the controls).
// - `--sessions` with Redis: one session's calls go over both replicas when the balancer keeps no
//   affinity, and a session whose replica is killed with calls in flight loses none of them and
//   keeps its id (the survivor takes it over from its record in Redis).

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, type Connection } from '../mcp/helpers.js';
import { tempProject } from '../support/project.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { waitFor } from '../support/wait.js';
import { REDIS_INSTALLED, REDIS_MISSING, startRedis, type RedisServer } from '../state/redis-server.js';
import { HAPROXY, HAPROXY_CONFIG, HAPROXY_MISSING, startBalancer, type Balancer } from './haproxy.js';
import { startReplica, type Replica } from './replicas.js';

if (!HAPROXY) console.warn(HAPROXY_MISSING);
if (!REDIS_INSTALLED) console.warn(REDIS_MISSING);

const FLEET = 'https://api.fleet.test';
const METERED = 'https://api.metered.test';
const route = (name: string, path: string) =>
  `${name}: { method: 'GET', path: '${path}', description: 'The ${name} of the fleet.', parameters: [], tests: [{ _description: '${name}' }] }`;
const schema = (namespace: string, root: string, routes: string[]) => `export const main = {
  namespace: '${namespace}', name: '${namespace}', description: 'One API behind two replicas.', version: '2.0.0',
  root: '${root}',
  routes: { ${routes.join(', ')} }
};
`;

/** The loopback upstream: `/slow` waits while `holding` is set, so that calls are in flight on purpose. */
interface FleetUpstream extends Upstream {
  held: ServerResponse[];
  hold(on: boolean): void;
  hitsOf(path: string): number;
}

async function startFleetUpstream(): Promise<FleetUpstream> {
  const held: ServerResponse[] = [];
  let holding = false;
  const answer = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  const upstream = await startUpstream((_req, res, entry) => {
    if (entry.url === '/slow' && holding) return void held.push(res);
    answer(res);
  });
  return Object.assign(upstream, {
    held,
    hold: (on: boolean) => {
      holding = on;
      if (!on) for (const res of held.splice(0)) if (!res.destroyed) answer(res);
    },
    hitsOf: (path: string) => upstream.records.filter((entry) => entry.url === path).length,
  });
}

type Pair = [number, number];
/** Tool calls each replica has finished. */
const callsOn = async (replicas: [Replica, Replica]): Promise<Pair> => [
  await replicas[0].calls(),
  await replicas[1].calls(),
];
/** Calls each replica finished between two counts. */
const servedBetween = (before: Pair, after: Pair): Pair => [after[0] - before[0], after[1] - before[1]];
const text = (result: CallToolResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
const call = async (connection: Connection, name: string) =>
  (await connection.client.callTool({ name, arguments: {} })) as CallToolResult;

const KILL_RUN_CALLS = 40;
const KILL_RUN_IN_FLIGHT = 4;

/**
 * A bounded run of `fleet_slow` calls, 4 at a time, through the balancer; `victim` is killed
 * (SIGKILL) with calls in flight: at the 13th call the upstream holds every request until all 4
 * are in flight (round robin has put some on each replica; a session, all on its own), then the
 * victim dies and the held requests are answered. Its calls were sent upstream but never answered.
 */
async function callsThroughKill(
  client: Connection,
  upstream: FleetUpstream,
  victim: Replica,
  calls: () => Promise<Pair>,
) {
  const results: CallToolResult[] = [];
  const failures: unknown[] = [];
  const slowBefore = upstream.hitsOf('/slow');
  let started = 0;
  const worker = async () => {
    while (started < KILL_RUN_CALLS) {
      started += 1;
      if (started === 13) upstream.hold(true);
      try {
        results.push(await call(client, 'fleet_slow'));
      } catch (error) {
        failures.push(error);
      }
    }
  };
  const kill = async () => {
    expect(await waitFor(() => upstream.held.length >= KILL_RUN_IN_FLIGHT, 20_000)).toBe(true);
    const served = await calls();
    await victim.kill();
    upstream.hold(false);
    return served;
  };
  const [servedAtKill] = await Promise.all([kill(), ...Array.from({ length: KILL_RUN_IN_FLIGHT }, worker)]);
  return {
    results,
    failures,
    servedAtKill: servedAtKill as Pair,
    upstreamRequests: upstream.hitsOf('/slow') - slowBefore,
  };
}

/** The deploy config without its stick lines (no session affinity), written into `dir`. */
function withoutAffinity(dir: string): string {
  const file = join(dir, 'haproxy-no-affinity.cfg');
  writeFileSync(
    file,
    readFileSync(HAPROXY_CONFIG, 'utf8')
      .split('\n')
      .filter((line) => !/^\s*stick/.test(line))
      .join('\n'),
  );
  return file;
}

/** Which replica a session lives on: the one that answered all of 3 calls (the other none). */
async function homeOf(client: Connection, replicas: [Replica, Replica]): Promise<0 | 1> {
  const before = await callsOn(replicas);
  for (let i = 0; i < 3; i++) expect(text(await call(client, 'fleet_things'))).toContain('"ok"');
  const served = servedBetween(before, await callsOn(replicas));
  expect(served.slice().sort()).toEqual([0, 3]);
  return served[0] === 3 ? 0 : 1;
}

/** A project whose `metered` origin allows a burst of 3 over every replica, refilled one per 100 s. */
function fleetProject(): { dir: string; schemas: string; remove: () => void } {
  const project = tempProject({
    upstreamLimits: { origins: { [METERED]: { requestsPerSecond: 0.01, burst: 3 } } },
    redis: { commandTimeoutMs: 2000 },
    audit: { enabled: false },
  });
  const schemas = join(project.dir, 'schemas');
  mkdirSync(schemas);
  writeFileSync(
    join(schemas, 'fleet.mjs'),
    schema('fleet', FLEET, [route('things', '/things'), route('slow', '/slow')]),
  );
  writeFileSync(join(schemas, 'metered.mjs'), schema('metered', METERED, [route('quota', '/metered')]));
  return { ...project, schemas };
}

describe.skipIf(!HAPROXY || !REDIS_INSTALLED)('two stateless replicas behind HAProxy, one Redis', () => {
  let redis: RedisServer;
  let upstream: FleetUpstream;
  let project: ReturnType<typeof fleetProject>;
  let replicas: [Replica, Replica];
  let balancer: Balancer;
  let client: Connection;
  const calls = () => callsOn(replicas);

  beforeAll(async () => {
    redis = await startRedis();
    upstream = await startFleetUpstream();
    project = fleetProject();
    const args = [
      '--schemas',
      project.schemas,
      '--project',
      project.dir,
      '--upstream',
      `*=${upstream.origin}`,
      '--redis',
      redis.url,
      '--log-level',
      'warn',
    ];
    replicas = [await startReplica(args), await startReplica(args)];
    balancer = await startBalancer([replicas[0].address, replicas[1].address]);
    client = await connectHttp(balancer.url);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await balancer?.stop();
    for (const replica of replicas ?? []) await replica.stop();
    await upstream?.close();
    await redis?.kill();
    project?.remove();
  }, 30_000);

  it('spreads calls over both replicas, every one answered', async () => {
    const before = await calls();
    for (let i = 0; i < 10; i++) expect(text(await call(client, 'fleet_things'))).toContain('"ok"');
    const served = servedBetween(before, await calls());
    expect(served[0] + served[1]).toBe(10);
    expect(served[0]).toBeGreaterThan(0);
    expect(served[1]).toBeGreaterThan(0);
  });

  it('holds one rate limit over both replicas: a burst of 3 through the balancer, the rest refused with when to retry', async () => {
    const before = await calls();
    const results: CallToolResult[] = [];
    for (let i = 0; i < 6; i++) results.push(await call(client, 'metered_quota'));
    expect(results.map((result) => result.isError ?? false)).toEqual([false, false, false, true, true, true]);
    for (const refused of results.slice(3))
      expect(text(refused)).toMatch(/Error \(rate-limited\)[\s\S]*Retry after: \d+/);
    expect(upstream.hitsOf('/metered')).toBe(3);
    // Both replicas took part: the limit is not one replica's own bucket.
    const served = servedBetween(before, await calls());
    expect(served[0]).toBeGreaterThan(0);
    expect(served[1]).toBeGreaterThan(0);
  });

  it('loses no call when a replica is killed with calls in flight on it: the balancer sends them to the other', async () => {
    const before = await calls();
    const run = await callsThroughKill(client, upstream, replicas[1], calls);
    expect(run.failures).toEqual([]);
    expect(run.results).toHaveLength(KILL_RUN_CALLS);
    expect(run.results.filter((result) => result.isError)).toEqual([]);
    // Replica 2 had been answering before it died...
    expect(servedBetween(before, run.servedAtKill)[1]).toBeGreaterThan(0);
    // ...and calls it had started were sent again: the upstream saw more requests than calls.
    expect(run.upstreamRequests).toBeGreaterThan(KILL_RUN_CALLS);
    // Every answer the balancer gave was a 200: no 502 or 503 on the way.
    expect(balancer.log()).not.toMatch(/ 50[234] /);
  }, 60_000);
});

describe.skipIf(!HAPROXY)('two replicas with --sessions behind HAProxy', () => {
  let upstream: FleetUpstream;
  let project: ReturnType<typeof fleetProject>;
  let replicas: [Replica, Replica];
  let balancer: Balancer;
  let unstuck: Balancer;
  const clients: Connection[] = [];

  beforeAll(async () => {
    upstream = await startFleetUpstream();
    project = fleetProject();
    const args = [
      '--schemas',
      project.schemas,
      '--project',
      project.dir,
      '--upstream',
      `*=${upstream.origin}`,
      '--sessions',
      '--log-level',
      'warn',
    ];
    replicas = [await startReplica(args), await startReplica(args)];
    balancer = await startBalancer([replicas[0].address, replicas[1].address]);
    // The control: the same config without its stick lines.
    unstuck = await startBalancer([replicas[0].address, replicas[1].address], withoutAffinity(project.dir));
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await balancer?.stop();
    await unstuck?.stop();
    for (const replica of replicas ?? []) await replica.stop();
    await upstream?.close();
    project?.remove();
  }, 30_000);

  it('keeps each session on the replica that opened it, and spreads sessions over both', async () => {
    const homes = new Set<number>();
    // Round robin gives consecutive sessions different replicas; bounded in case it does not.
    for (let session = 0; session < 6 && homes.size < 2; session++) {
      const client = await connectHttp(balancer.url);
      clients.push(client);
      const before = await callsOn(replicas);
      for (let i = 0; i < 5; i++) expect(text(await call(client, 'fleet_things'))).toContain('"ok"');
      const served = servedBetween(before, await callsOn(replicas));
      // All five on one replica, none on the other.
      expect(served.slice().sort()).toEqual([0, 5]);
      homes.add(served.indexOf(5));
    }
    expect(homes.size).toBe(2);
    // A session opened earlier still continues where it lives.
    expect(text(await call(clients[0] as Connection, 'fleet_things'))).toContain('"ok"');
  }, 60_000);

  it('without the stick table a session does not survive the balancer (the control)', async () => {
    let failed = false;
    for (let attempt = 0; attempt < 3 && !failed; attempt++) {
      try {
        const client = await connectHttp(unstuck.url);
        clients.push(client);
        for (let i = 0; i < 4; i++) await call(client, 'fleet_things');
      } catch (error) {
        expect(String(error)).toMatch(/404|Session not found/);
        failed = true;
      }
    }
    expect(failed).toBe(true);
  }, 60_000);

  it('without shared session records, a session whose replica is killed is gone: the client is told 404', async () => {
    const client = await connectHttp(balancer.url);
    clients.push(client);
    const home = await homeOf(client, replicas);
    await replicas[home].kill();
    await expect(call(client, 'fleet_things')).rejects.toThrow(/404|Session not found/);
  }, 60_000);
});

describe.skipIf(!HAPROXY || !REDIS_INSTALLED)('two replicas with --sessions and one Redis behind HAProxy', () => {
  let redis: RedisServer;
  let upstream: FleetUpstream;
  let project: ReturnType<typeof fleetProject>;
  let replicas: [Replica, Replica];
  let balancer: Balancer;
  let unstuck: Balancer;
  let client: Connection;

  beforeAll(async () => {
    redis = await startRedis();
    upstream = await startFleetUpstream();
    project = fleetProject();
    const args = [
      '--schemas',
      project.schemas,
      '--project',
      project.dir,
      '--upstream',
      `*=${upstream.origin}`,
      '--sessions',
      '--redis',
      redis.url,
      '--log-level',
      'warn',
    ];
    replicas = [await startReplica(args), await startReplica(args)];
    balancer = await startBalancer([replicas[0].address, replicas[1].address]);
    unstuck = await startBalancer([replicas[0].address, replicas[1].address], withoutAffinity(project.dir));
    client = await connectHttp(balancer.url);
  }, 120_000);

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await balancer?.stop();
    await unstuck?.stop();
    for (const replica of replicas ?? []) await replica.stop();
    await upstream?.close();
    await redis?.kill();
    project?.remove();
  }, 30_000);

  it('continues one session over both replicas when the balancer keeps no affinity: each takes it over from Redis', async () => {
    const roaming = await connectHttp(unstuck.url);
    try {
      const id = (roaming.client.transport as StreamableHTTPClientTransport).sessionId;
      const before = await callsOn(replicas);
      for (let i = 0; i < 10; i++) expect(text(await call(roaming, 'fleet_things'))).toContain('"ok"');
      const served = servedBetween(before, await callsOn(replicas));
      expect(served[0] + served[1]).toBe(10);
      expect(served[0]).toBeGreaterThan(0);
      expect(served[1]).toBeGreaterThan(0);
      expect((roaming.client.transport as StreamableHTTPClientTransport).sessionId).toBe(id);
    } finally {
      await roaming.close();
    }
  }, 60_000);

  it('continues a session through the other replica when its own is killed with calls in flight on it: no call lost, no new session', async () => {
    const transport = client.client.transport as StreamableHTTPClientTransport;
    const id = transport.sessionId;
    expect(id).toBeTruthy();
    const home = await homeOf(client, replicas);
    const survivor = replicas[home === 0 ? 1 : 0];
    const survivorBefore = await survivor.calls();
    // While both live, only the home replica's count moves (the stick table).
    const run = await callsThroughKill(client, upstream, replicas[home], () => callsOn(replicas));
    expect(run.failures).toEqual([]);
    expect(run.results).toHaveLength(KILL_RUN_CALLS);
    expect(run.results.filter((result) => result.isError)).toEqual([]);
    expect(run.servedAtKill[home === 0 ? 1 : 0]).toBe(survivorBefore);
    // The calls in flight on the dead replica were sent again, and the survivor took the session over.
    expect(run.upstreamRequests).toBeGreaterThan(KILL_RUN_CALLS);
    expect((await survivor.calls()) - survivorBefore).toBeGreaterThan(0);
    expect(transport.sessionId).toBe(id);
    expect(text(await call(client, 'fleet_things'))).toContain('"ok"');
    expect(balancer.log()).not.toMatch(/ 50[234] /);
  }, 60_000);
});
