// The hot path against an older build, both loaded into this one process and measured in turns
// (the older build's catalog, then this build's, round after round), so both see the same machine
// at the same moments: the extra cost of a preRequest + postRequest over the same route without
// handlers, calls per second at 50 in flight with and without handlers (with the CPU time each
// call took), and the first handler call after start (the sandbox process starting and the
// unit's factory running on first use). Figures are ratios of this build over the older one.
// Beside them, in the same rounds, the ceilings of calls at 50 in flight (ceilings.ts): raw undici
// against the same upstream, and the upstream's own capacity. Both builds keep the upstream guard's
// default of 8 requests at once per origin, or both take FLOWGUARD_HOT_PATH_CONCURRENCY=N (0: none).
// And the floor of the handlers' extra (floor.ts): two round trips of a bare pair of processes. The older build: FLOWGUARD_HOT_PATH_BASELINE=DIR,
// or FLOWGUARD_HOT_PATH_BASELINE_REF=REF (default BASELINE_REF), built once as load.ts builds it.

import { pathToFileURL } from 'node:url';
import { atOnce, type Rate } from './ceilings.js';
import { BarePair } from './floor.js';
import { baselineBuild, root } from './load.js';
import { loaderOf, type Catalog } from './package-entry.js';
import { callOf, openPriceRig } from './price-rig.js';
import { formatMs, median } from './stats.js';
import { timeCall } from './upstream.js';

/** main when issue 29 was taken up: the build its targets are relative to. */
const BASELINE_REF = 'b409bba';
const ROUNDS = 5;
const PAIRS_PER_ROUND = 400;
const WARM_UP = 100;
const TOTAL = 1000;
const IN_FLIGHT = 50;
const FIRST_CALL_RUNS = 5;
const TARGETS = { extra: 0.25, plainRate: 2, handlerRate: 2.5 } as const;

/** p50 of (handler call − plain call), each pair taken one right after the other. */
async function handlerExtra(catalog: Catalog, pairs: number): Promise<number[]> {
  const extra: number[] = [];
  for (let i = 0; i < pairs; i += 1) {
    const plain = await timeCall(catalog, 'bench_getPrice');
    extra.push((await timeCall(catalog, 'bench_getRoundedPrice')) - plain);
  }
  return extra;
}

/** TOTAL calls with IN_FLIGHT running at any moment. */
function throughput(catalog: Catalog, tool: string): Promise<Rate> {
  return atOnce(callOf(catalog, tool), TOTAL, IN_FLIGHT);
}

/** The p50 of the rounds' rates, and the CPU per call of the same rounds (p50 each). */
function medianRate(rates: readonly Rate[]): Rate {
  return {
    callsPerSecond: median(rates.map((rate) => rate.callsPerSecond)),
    cpuUs: median(rates.map((rate) => rate.cpuUs)),
    childCpuUs: median(rates.map((rate) => rate.childCpuUs)),
  };
}

const cpuOf = (rate: Rate) => `${rate.cpuUs.toFixed(0)} + ${rate.childCpuUs.toFixed(0)} µs`;

function ratioLine(
  label: string,
  now: number,
  before: number,
  target: number,
  better: 'lower' | 'higher',
  show: (value: number) => string,
): string {
  const ratio = now / before;
  const met = better === 'lower' ? ratio <= target : ratio >= target;
  return `  ${label}: ${show(now)} now vs ${show(before)} before, ${ratio.toFixed(2)}x (target ${better === 'lower' ? '<=' : '>='} ${target}x: ${met ? 'met' : 'MISSED'})`;
}

export async function benchHotPath(): Promise<string[]> {
  const baseline =
    process.env.FLOWGUARD_HOT_PATH_BASELINE ??
    baselineBuild(process.env.FLOWGUARD_HOT_PATH_BASELINE_REF ?? BASELINE_REF);
  const builds = { before: await loaderOf(baseline), now: await loaderOf(root) };
  const rig = await openPriceRig('flowguard-bench-hot-');
  const { raw, options } = rig;
  const bare = new BarePair(rig.dir);
  const first = { before: [] as number[], now: [] as number[] };
  const extra = { before: [] as number[], now: [] as number[] };
  const plainRate = { before: [] as Rate[], now: [] as Rate[] };
  const handlerRate = { before: [] as Rate[], now: [] as Rate[] };
  const ceiling = { raw: [] as Rate[], upstream: [] as number[] };
  const floor = { sleeping: [] as number[], polling: [] as number[] };
  try {
    // First handler call of a fresh catalog: the sandbox starts and the factory runs on first use.
    for (let run = 0; run < FIRST_CALL_RUNS; run += 1) {
      for (const name of ['before', 'now'] as const) {
        const catalog = await builds[name](options);
        first[name].push(await timeCall(catalog, 'bench_getRoundedPrice'));
        await catalog.close();
      }
    }
    const catalogs = { before: await builds.before(options), now: await builds.now(options) };
    try {
      for (const name of ['before', 'now'] as const) await handlerExtra(catalogs[name], WARM_UP);
      await atOnce(raw.one, TOTAL, IN_FLIGHT);
      for (let round = 0; round < ROUNDS; round += 1) {
        ceiling.raw.push(await atOnce(raw.one, TOTAL, IN_FLIGHT));
        ceiling.upstream.push(await rig.clients.together(rig.url, TOTAL, IN_FLIGHT));
        floor.sleeping.push(await bare.roundTrip(PAIRS_PER_ROUND, false));
        floor.polling.push(await bare.roundTrip(PAIRS_PER_ROUND, true));
        // Each build goes first every other round: neither always follows the other's load.
        for (const name of round % 2 === 0 ? (['before', 'now'] as const) : (['now', 'before'] as const)) {
          extra[name].push(...(await handlerExtra(catalogs[name], PAIRS_PER_ROUND)));
          plainRate[name].push(await throughput(catalogs[name], 'bench_getPrice'));
          handlerRate[name].push(await throughput(catalogs[name], 'bench_getRoundedPrice'));
        }
      }
    } finally {
      await Promise.all([catalogs.before.close(), catalogs.now.close()]);
    }
    const rate = (value: number) => `${value.toFixed(0)} calls/s`;
    const plain = { now: medianRate(plainRate.now), before: medianRate(plainRate.before) };
    const handlers = { now: medianRate(handlerRate.now), before: medianRate(handlerRate.before) };
    const rawRate = medianRate(ceiling.raw);
    // The least two round trips take, sleeping or polling, whichever was faster in this run.
    const floorMs = 2 * Math.min(median(floor.sleeping), median(floor.polling));
    return [
      `hot path against an older build (${baseline}), both in this process, ${ROUNDS} rounds taken in turns; ${rig.limit}`,
      ratioLine(
        'extra p50 of preRequest + postRequest over the same call without',
        median(extra.now),
        median(extra.before),
        TARGETS.extra,
        'lower',
        formatMs,
      ),
      ratioLine(
        `${TOTAL} calls at ${IN_FLIGHT} in flight, no handlers (p50 of rounds)`,
        plain.now.callsPerSecond,
        plain.before.callsPerSecond,
        TARGETS.plainRate,
        'higher',
        rate,
      ),
      `    CPU per call (this process + its children): ${cpuOf(plain.now)} now vs ${cpuOf(plain.before)} before`,
      ratioLine(
        `${TOTAL} calls at ${IN_FLIGHT} in flight, with handlers (p50 of rounds)`,
        handlers.now.callsPerSecond,
        handlers.before.callsPerSecond,
        TARGETS.handlerRate,
        'higher',
        rate,
      ),
      `    CPU per call (this process + its children: workers, upstream): ${cpuOf(handlers.now)} now vs ${cpuOf(handlers.before)} before`,
      `  ceiling: raw undici.request at ${IN_FLIGHT} in flight, same upstream and rounds: ${rate(rawRate.callsPerSecond)} (${cpuOf(rawRate)} per call), ${(rawRate.callsPerSecond / plain.before.callsPerSecond).toFixed(2)}x the older build's rate without handlers: no build over undici gets past it`,
      `  ceiling: the upstream's capacity, two raw clients in processes of their own at once: ${rate(median(ceiling.upstream))}`,
      `  floor: a bare pair of processes' round trip, p50 ${formatMs(median(floor.sleeping))} sleeping, ${formatMs(median(floor.polling))} polling; two of them, ${formatMs(floorMs)}, are ${(floorMs / median(extra.before)).toFixed(2)}x the older build's handler extra (the target, ${TARGETS.extra}x, is ${formatMs(TARGETS.extra * median(extra.before))}): the least a handler call adds while handlers run in a process of their own`,
      `  first handler call of a fresh catalog (sandbox start + factory): p50 ${formatMs(median(first.now))} now vs ${formatMs(median(first.before))} before (${(median(first.now) / median(first.before)).toFixed(2)}x), ${FIRST_CALL_RUNS} runs`,
    ];
  } finally {
    bare.close();
    await rig.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const line of await benchHotPath()) console.log(line);
}
