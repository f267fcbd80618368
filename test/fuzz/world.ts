// Everything the fuzz suite attacks, started once per test file: the loopback upstreams and
// forbidden servers, a real redis-server (when installed), a project folder whose `.env` and
// config grant the two keys to the operator's schema `keyed`, and the two servers (stdio and
// Streamable HTTP). `runCase` plays one generated case against it and checks every property.

import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { tokenDigest } from '../../src/edge/auth.js';
import { REDIS_INSTALLED, startRedis, type RedisServer } from '../state/redis-server.js';
import { freePort, type Upstream } from '../support/upstream.js';
import { waitFor } from '../support/wait.js';
import { KEYS } from './keys.js';
import { KEYED_SCHEMA, markerSchema, ORIGINS, type Places } from './schemas.js';
import { startAnswering, startForbidden, type Answer } from './upstreams.js';
import { serveArgs, startHttp, startStdio, type Served, type TransportName } from './servers.js';
import { GrowingReads } from './evidence.js';

/** Two valid bearer tokens: the suite's HTTP client holds the first; probes try the second on its session. */
export const TOKENS = [randomBytes(16).toString('hex'), randomBytes(16).toString('hex')] as const;

/** The bridge's per-call request bound in the suite's config: small, so that a flood shows. */
export const MAX_REQUESTS_PER_CALL = 5;

export interface World {
  project: string;
  schemas: string;
  places: Places;
  /** The operator's API (`keyed`): the only place a key may go. */
  keyed: Upstream;
  /** Every other API in reach (`other`, and the marker's root). */
  other: Upstream;
  forbiddenHttp: Upstream;
  forbiddenHttps: Upstream;
  redis: RedisServer | null;
  redisClient: Redis | null;
  servers: Record<TransportName, Served>;
  logs: Record<TransportName, { text: string }>;
  /** What the upstreams answer in the current case. */
  answer: Answer;
  caseNumber: number;
  /** The hostile files the last case wrote (removed by the next). */
  written: string[];
  reads: GrowingReads;
  /** Requests of `keyed` and `other`, and connections to the forbidden servers, already judged. */
  judged: { keyed: number; other: number; forbiddenHttp: number; forbiddenHttps: number };
}

function config(world: Pick<World, 'keyed' | 'other' | 'forbiddenHttp' | 'forbiddenHttps'>, downPort: number): unknown {
  return {
    security: { keys: { FUZZ_KEY: ['keyed'] } },
    sandbox: { deadlineMs: 500, workers: 1 },
    limits: { maxFileBytes: 65536 },
    network: { maxRequestsPerCall: MAX_REQUESTS_PER_CALL },
    upstreamLimits: { maxPauseSeconds: 1 },
    cache: { ttlSeconds: 60 },
    log: { level: 'debug' },
    http: {
      maxResponseBytes: 262144,
      totalTimeoutMs: 3000,
      connectTimeoutMs: 1000,
      authTokens: TOKENS.map(tokenDigest),
    },
    upstreams: {
      [ORIGINS.keyed]: world.keyed.origin,
      [ORIGINS.other]: world.other.origin,
      [ORIGINS.down]: `http://127.0.0.1:${downPort}`,
      [ORIGINS.internal]: world.forbiddenHttps.origin,
      [ORIGINS.attacker]: world.forbiddenHttp.origin,
    },
  };
}

export async function startWorld(): Promise<World> {
  const project = mkdtempSync(join(tmpdir(), 'flowguard-fuzz-'));
  const schemas = join(project, 'schemas');
  mkdirSync(join(project, '.flowmcp'), { recursive: true });
  mkdirSync(schemas);
  const world = { answer: { kind: 'echo-plain' } } as World;
  Object.assign(world, {
    project,
    schemas,
    keyed: await startAnswering(() => world.answer),
    other: await startAnswering(() => world.answer),
    forbiddenHttp: await startForbidden(false),
    forbiddenHttps: await startForbidden(true),
    redis: REDIS_INSTALLED ? await startRedis() : null,
    caseNumber: 0,
    written: [],
    reads: new GrowingReads(),
    judged: { keyed: 0, other: 0, forbiddenHttp: 0, forbiddenHttps: 0 },
    logs: { stdio: { text: '' }, http: { text: '' } },
  });
  world.places = { forbiddenHttpPort: world.forbiddenHttp.port, forbiddenHttpsPort: world.forbiddenHttps.port };
  world.redisClient = world.redis ? new Redis(world.redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 }) : null;
  await world.redisClient?.connect();
  writeFileSync(
    join(project, '.env'),
    Object.entries(KEYS)
      .map(([name, value]) => `${name}="${value}"`)
      .join('\n') + '\n',
  );
  writeFileSync(join(project, '.flowmcp', 'config.json'), JSON.stringify(config(world, await freePort()), null, 2));
  writeFileSync(join(schemas, 'keyed.mjs'), KEYED_SCHEMA);
  writeFileSync(join(schemas, 'marker.mjs'), markerSchema(0));
  const [stdio, http] = await Promise.all([startServer(world, 'stdio'), startServer(world, 'http')]);
  world.servers = { stdio, http };
  return world;
}

function startServer(world: World, transport: TransportName): Promise<Served> {
  const args = serveArgs(world.project, world.redis?.url ?? null);
  return transport === 'stdio' ? startStdio(args, world.logs.stdio) : startHttp(args, world.logs.http, TOKENS[0]);
}

/** Starts again a server that died, so the next case meets a running one. */
export async function revive(world: World, transport: TransportName): Promise<void> {
  await world.servers[transport].close().catch(() => undefined);
  world.servers[transport] = await startServer(world, transport);
}

/** Removes the last case's hostile files, writes this case's, then the marker: a server showing `marker_caseN` has read them all. */
export function writeCaseFiles(world: World, texts: string[]): void {
  for (const path of world.written) unlinkSync(path);
  world.written = texts.map((text, i) => {
    const path = join(world.schemas, `case${world.caseNumber}-${i}.mjs`);
    writeFileSync(path, text);
    return path;
  });
  writeFileSync(join(world.schemas, 'marker.mjs'), markerSchema(world.caseNumber));
}

/** Whether `server` lists `marker_caseN` within the bound (a reload that hangs or fails shows here). */
export async function reloaded(server: Served, caseNumber: number): Promise<boolean> {
  return waitFor(
    async () => {
      try {
        return (await server.client.listTools(undefined, { timeout: 5_000 })).tools.some(
          (tool) => tool.name === `marker_case${caseNumber}`,
        );
      } catch {
        return false;
      }
    },
    30_000,
    100,
  );
}

export async function stopWorld(world: World | undefined): Promise<void> {
  if (!world) return;
  await Promise.all(Object.values(world.servers ?? {}).map((server) => server.close().catch(() => undefined)));
  world.redisClient?.disconnect();
  await world.redis?.kill();
  await Promise.all(
    [world.keyed, world.other, world.forbiddenHttp, world.forbiddenHttps].map((upstream) => upstream?.close()),
  );
  rmSync(world.project, { recursive: true, force: true });
}
