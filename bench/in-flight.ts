// Calls at 50 in flight for several builds at once, beside their ceilings: each build's catalog
// loaded into this one process against one loopback upstream, and in each round, in an order that
// rotates, raw undici (ceilings.ts), every build's calls without and with handlers, then the
// upstream's capacity (two raw clients at once). Prints the p50 of the rounds' calls/s and of the
// CPU time per call (this process, and its children: the workers and the upstream). hot-path.ts
// compares two builds; this compares as many as given, the way performance.md's tables of calls at
// 50 in flight were taken:
//
//   FLOWGUARD_IN_FLIGHT_BUILDS=/work/main/.bench/baseline-b409bbaedf97:/work/wt/base:. \
//     node dist/bench/in-flight.js
//
// FLOWGUARD_HOT_PATH_CONCURRENCY=N puts every build under one explicit limit, as in hot-path.ts.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { atOnce, RawClients, rawUndici, sameLimit, type Rate } from './ceilings.js';
import { loaderOf, type Catalog } from './package-entry.js';
import { median } from './stats.js';
import { priceSchema, startPriceUpstream } from './upstream.js';

const ROUNDS = Number(process.env.FLOWGUARD_IN_FLIGHT_ROUNDS ?? 5);
const TOTAL = 2000;
const IN_FLIGHT = 50;

export async function benchInFlight(builds: string[]): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'flowguard-bench-in-flight-'));
  const { child, port } = await startPriceUpstream(dir);
  writeFileSync(join(dir, 'bench.mjs'), priceSchema({ handlers: true }));
  const limit = sameLimit(dir);
  const url = `http://127.0.0.1:${port}/v1/price/eth?currency=usd`;
  const raw = rawUndici(url);
  const clients = new RawClients(dir, 2);
  const options = {
    schemas: dir,
    project: dir,
    env: {},
    keys: { BENCH_KEY: 'bench-key-value' },
    upstreams: { '*': `http://127.0.0.1:${port}` },
  };
  const catalogs: Array<[string, Catalog]> = [];
  try {
    for (const build of builds) catalogs.push([basename(resolve(build)), await (await loaderOf(build))(options)]);
    const subjects: Array<[string, () => Promise<Rate>]> = [['raw undici', () => atOnce(raw.one, TOTAL, IN_FLIGHT)]];
    for (const [name, catalog] of catalogs)
      for (const [kind, tool] of [
        ['no handlers', 'bench_getPrice'],
        ['handlers', 'bench_getRoundedPrice'],
      ] as const)
        subjects.push([`${name}, ${kind}`, () => atOnce(callOf(catalog, tool), TOTAL, IN_FLIGHT)]);
    for (const [, measure] of subjects) await measure();
    const rates = new Map<string, Rate[]>(subjects.map(([name]) => [name, []]));
    const capacity: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (let turn = 0; turn < subjects.length; turn += 1) {
        const [name, measure] = subjects[(turn + round) % subjects.length] as [string, () => Promise<Rate>];
        rates.get(name)?.push(await measure());
      }
      capacity.push(await clients.together(url, TOTAL, IN_FLIGHT));
    }
    return [
      `${TOTAL} calls at ${IN_FLIGHT} in flight, ${ROUNDS} rounds in rotating order, ${limit}; p50 calls/s and CPU per call (this process + its children)`,
      ...[...rates].map(
        ([name, taken]) =>
          `  ${name}: ${median(taken.map((rate) => rate.callsPerSecond)).toFixed(0)} calls/s (rounds ${taken.map((rate) => rate.callsPerSecond.toFixed(0)).join(', ')}), ${median(taken.map((rate) => rate.cpuUs)).toFixed(0)} + ${median(taken.map((rate) => rate.childCpuUs)).toFixed(0)} µs`,
      ),
      `  the upstream's capacity (two raw clients at once): ${median(capacity).toFixed(0)} calls/s`,
    ];
  } finally {
    await Promise.all(catalogs.map(([, catalog]) => catalog.close()));
    await raw.close();
    clients.close();
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

function callOf(catalog: Catalog, tool: string): () => Promise<void> {
  return async () => {
    const result = await catalog.call(tool, { symbol: 'eth' });
    if (!result.ok) throw new Error(`bench call of ${tool} failed: ${JSON.stringify(result)}`);
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const builds = (process.env.FLOWGUARD_IN_FLIGHT_BUILDS ?? '.').split(':').filter((build) => build !== '');
  for (const line of await benchInFlight(builds)) console.log(line);
}
