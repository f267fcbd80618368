// Issue 23, "a net under all of it": property-based attacks on a real `flowguard serve` (the
// built CLI) over stdio and Streamable HTTP, with the audit log, debug logs, metrics, the
// response cache, Redis, --watch and sessions on. Each generated case writes hostile schema files
// into the watched folder, makes the upstreams answer in a hostile way and calls every tool with
// hostile arguments; then the properties of ./case.ts must hold. After the run, the servers'
// memory and file descriptors must be back under their bound.
//
// `npm test` runs a short, fixed-seed run; `npm run fuzz` a long one (FUZZ_RUNS, FUZZ_SEED;
// FUZZ_SHRINK=1 shrinks a failure to its smallest case, at the cost of a server start per try;
// FUZZ_KEEP_GOING=1 plays every case and lists every failing one).

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_INSTALLED, REDIS_MISSING } from '../state/redis-server.js';
import { waitFor } from '../support/wait.js';
import { fuzzCase, type FuzzCase } from './arbitraries.js';
import { runCase } from './case.js';
import { keyFormsIn } from './keys.js';
import { KNOWN_ATTACKS } from './known-attacks.js';
import { LEGIT_PREFIX } from './schemas.js';
import { childrenOf, processUse, type TransportName } from './servers.js';
import { startWorld, stopWorld, type World } from './world.js';

const LONG = process.env.FUZZ_RUNS !== undefined;
/** Random cases after the known attacks (which every run plays first). */
const RUNS = LONG ? Number(process.env.FUZZ_RUNS) : 3;
const SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : LONG ? Date.now() % 2 ** 31 : 23;
const SHRINK = process.env.FUZZ_SHRINK === '1';
/** Survey mode: play every case, print each failure as it comes, and fail once at the end with all of them. */
const KEEP_GOING = process.env.FUZZ_KEEP_GOING === '1';

/** Open descriptors a server may hold beyond its count after the warm-up (sockets of a pool, a rotated audit file). */
const FD_SLACK = 24;
const MIB = 1024 * 1024;

/** The operator's tools only, with plain arguments and a plain echo: what every later case is measured against. */
const WARM_UP: FuzzCase = { files: [], answer: { kind: 'echo-plain' }, args: [], front: '', probe: 'none' };

let world: World;
const baseline = new Map<TransportName, { rss: number; fds: number }>();

beforeAll(async () => {
  if (!REDIS_INSTALLED) console.warn(`fuzz: ${REDIS_MISSING}; the servers run without --redis`);
  world = await startWorld();
  await runCase(world, WARM_UP);
  for (const [transport, server] of Object.entries(world.servers) as [
    TransportName,
    World['servers'][TransportName],
  ][]) {
    const use = processUse(server.pid);
    if (use) baseline.set(transport, use);
  }
}, 180_000);

afterAll(async () => {
  const pids = world ? Object.values(world.servers).flatMap((server) => [server.pid, ...childrenOf(server.pid)]) : [];
  await stopWorld(world);
  // No orphans: every server and every sandbox worker they started is gone.
  expect(await waitFor(() => pids.every((pid) => processUse(pid) === null), 10_000)).toBe(true);
}, 60_000);

describe('flowguard serve under generated attacks', () => {
  it('the net is armed: the operator’s calls carry both keys to keyed, and every check reads what it should', () => {
    const keyed = world.keyed.records.filter((entry) => entry.url.startsWith(LEGIT_PREFIX));
    expect(keyed.length).toBeGreaterThanOrEqual(4);
    for (const entry of keyed)
      expect(keyFormsIn(`${entry.url}\n${entry.rawHeaders.join('\n')}`).length).toBeGreaterThan(0);
    expect(world.servers.stdio.stderr()).toContain('"msg":"call"');
    expect(world.servers.http.stderr()).toContain('"msg":"call"');
  });

  it(
    `holds every property over the ${KNOWN_ATTACKS.length} known attacks and ${RUNS} generated cases (seed ${SEED})`,
    async () => {
      console.log(`fuzz: seed ${SEED}, ${RUNS} runs; replay with FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} npm run fuzz`);
      const failures: string[] = [];
      const play = async (spec: FuzzCase): Promise<void> => {
        try {
          await runCase(world, spec);
        } catch (error) {
          if (!KEEP_GOING) throw error;
          const failure = `${error instanceof Error ? error.message : String(error)}\ncounterexample: ${fc.stringify(spec)}`;
          console.log(`fuzz: ${failure}`);
          failures.push(failure);
        }
      };
      await fc.assert(fc.asyncProperty(fuzzCase, play), {
        seed: SEED,
        numRuns: KNOWN_ATTACKS.length + RUNS,
        examples: KNOWN_ATTACKS.map((attack) => [attack]),
        endOnFailure: !SHRINK,
        reporter: (details) => {
          if (!details.failed) return;
          const error =
            details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
          throw new Error(
            `${fc.defaultReportMessage(details)}\n\n${error}\n\nreplay: FUZZ_SEED=${details.seed} FUZZ_RUNS=${RUNS} npm run fuzz (FUZZ_KEEP_GOING=1 lists every failing case)`,
          );
        },
      });
      expect(
        failures,
        `${failures.length} of ${KNOWN_ATTACKS.length + RUNS} cases failed (seed ${SEED}):\n\n${failures.join('\n\n')}`,
      ).toEqual([]);
    },
    90_000 + (KNOWN_ATTACKS.length + RUNS) * 30_000,
  );

  it('afterwards, each server’s memory and open file descriptors are back under their bound, and it runs no more sandbox workers than configured', async () => {
    for (const [transport, server] of Object.entries(world.servers) as [
      TransportName,
      World['servers'][TransportName],
    ][]) {
      const start = baseline.get(transport) ?? { rss: 128 * MIB, fds: 32 };
      const bound = { rss: 2 * start.rss + 64 * MIB, fds: start.fds + FD_SLACK };
      let use = processUse(server.pid);
      const settled = await waitFor(
        () => {
          use = processUse(server.pid);
          return use !== null && use.rss <= bound.rss && use.fds <= bound.fds;
        },
        20_000,
        250,
      );
      console.log(
        `fuzz: the ${transport} server after the run: ${JSON.stringify(use)}, bound ${JSON.stringify(bound)}`,
      );
      expect(settled, `${transport} server: ${JSON.stringify(use)} against the bound ${JSON.stringify(bound)}`).toBe(
        true,
      );
      expect(childrenOf(server.pid).length).toBeLessThanOrEqual(1);
    }
  }, 60_000);
});
