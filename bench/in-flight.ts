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

import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { atOnce, type Rate } from './ceilings.js';
import { loaderOf, type Catalog } from './package-entry.js';
import { callOf, openPriceRig } from './price-rig.js';
import { median } from './stats.js';

const ROUNDS = Number(process.env.FLOWGUARD_IN_FLIGHT_ROUNDS ?? 5);
const TOTAL = 2000;
const IN_FLIGHT = 50;

export async function benchInFlight(builds: string[]): Promise<string[]> {
  const rig = await openPriceRig('flowguard-bench-in-flight-');
  const catalogs: Array<[string, Catalog]> = [];
  try {
    for (const build of builds) catalogs.push([basename(resolve(build)), await (await loaderOf(build))(rig.options)]);
    const subjects: Array<[string, () => Promise<Rate>]> = [
      ['raw undici', () => atOnce(rig.raw.one, TOTAL, IN_FLIGHT)],
    ];
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
      capacity.push(await rig.clients.together(rig.url, TOTAL, IN_FLIGHT));
    }
    return [
      `${TOTAL} calls at ${IN_FLIGHT} in flight, ${ROUNDS} rounds in rotating order, ${rig.limit}; p50 calls/s and CPU per call (this process + its children)`,
      ...[...rates].map(
        ([name, taken]) =>
          `  ${name}: ${median(taken.map((rate) => rate.callsPerSecond)).toFixed(0)} calls/s (rounds ${taken.map((rate) => rate.callsPerSecond.toFixed(0)).join(', ')}), ${median(taken.map((rate) => rate.cpuUs)).toFixed(0)} + ${median(taken.map((rate) => rate.childCpuUs)).toFixed(0)} µs`,
      ),
      `  the upstream's capacity (two raw clients at once): ${median(capacity).toFixed(0)} calls/s`,
    ];
  } finally {
    await Promise.all(catalogs.map(([, catalog]) => catalog.close()));
    await rig.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const builds = (process.env.FLOWGUARD_IN_FLIGHT_BUILDS ?? '.').split(':').filter((build) => build !== '');
  for (const line of await benchInFlight(builds)) console.log(line);
}
