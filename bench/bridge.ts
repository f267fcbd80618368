// executeRequest costs: a compute-only executeRequest call next to a route
// with a preRequest and a postRequest; and a bridged fetch (the handler's fetch, performed by the
// core) next to the same request made by the core for a route without handlers. All routes are
// called interleaved against one loopback upstream in the same run.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Catalog } from '../src/runtime/catalog.js';
import { formatMs, median, percentile } from './stats.js';
import { PRICE_ROUTE, startPriceUpstream, timeCall } from './upstream.js';

const CALLS = 2000;
const WARM_UP = 200;
const FETCH_EXTRA_TARGET_MS = 0.3;

const SCHEMA = `export const main = {
  namespace: 'bench', name: 'Bench', description: 'Prices for the executeRequest benchmarks.', version: '2.0.0',
  root: 'https://api.bench.test',
  requiredServerParams: ['BENCH_KEY'],
  headers: { 'x-api-key': '{{BENCH_KEY}}' },
  routes: { getPrice: ${PRICE_ROUTE}, getRoundedPrice: ${PRICE_ROUTE}, computePrice: ${PRICE_ROUTE}, fetchPrice: ${PRICE_ROUTE} }
};
export const handlers = ({ sharedLists, libraries }) => ({
  getRoundedPrice: {
    preRequest: ({ struct, payload }) => ({ struct: { ...struct, headers: { ...struct.headers, 'x-symbol': payload.symbol.toUpperCase() } } }),
    postRequest: ({ response }) => ({ response: { ...response, price: Math.round(response.price * 100) / 100 } })
  },
  computePrice: {
    executeRequest: async ({ struct, payload }) => ({ response: { symbol: payload.userParams.symbol, currency: 'usd', price: Math.round(3120.456 * 100) / 100 } })
  },
  fetchPrice: {
    executeRequest: async ({ struct, payload }) => ({ response: await (await fetch(payload.url, { headers: payload.headers })).json() })
  }
});
`;

export async function benchBridge(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'flowguard-bench-bridge-'));
  const { child, port } = await startPriceUpstream(dir);
  writeFileSync(join(dir, 'bench.mjs'), SCHEMA);
  const catalog = await Catalog.load({
    schemas: dir,
    project: dir,
    env: {},
    keys: { BENCH_KEY: 'bench-key-value' },
    upstreams: { '*': `http://127.0.0.1:${port}` },
  });
  const tools = ['bench_getPrice', 'bench_getRoundedPrice', 'bench_computePrice', 'bench_fetchPrice'] as const;
  const samples = new Map<string, number[]>(tools.map((tool) => [tool, []]));
  const fetchExtra: number[] = [];
  const bridgeOnly: number[] = [];
  try {
    for (let i = 0; i < CALLS + WARM_UP; i += 1) {
      // Interleaved, so that every route sees the same machine at the same moment.
      const took: Record<string, number> = {};
      for (const tool of tools) took[tool] = await timeCall(catalog, tool);
      if (i < WARM_UP) continue;
      for (const tool of tools) samples.get(tool)?.push(took[tool] as number);
      fetchExtra.push((took.bench_fetchPrice as number) - (took.bench_getPrice as number));
      // The bridge alone: the fetch call less a handler call that makes no request and less the core's request.
      bridgeOnly.push(
        (took.bench_fetchPrice as number) - (took.bench_computePrice as number) - (took.bench_getPrice as number),
      );
    }
    const p50 = (tool: string) => median(samples.get(tool) as number[]);
    const p99 = (tool: string) => percentile(samples.get(tool) as number[], 99);
    const extra = median(fetchExtra);
    return [
      `executeRequest: ${CALLS} sequential in-process calls of each route, interleaved, loopback upstream in its own process`,
      `  compute-only executeRequest: p50 ${formatMs(p50('bench_computePrice'))}, p99 ${formatMs(p99('bench_computePrice'))} (no request)`,
      `  baseline, preRequest + postRequest route (one core request): p50 ${formatMs(p50('bench_getRoundedPrice'))}, p99 ${formatMs(p99('bench_getRoundedPrice'))}`,
      `  target compute-only no more than pre+post: ${p50('bench_computePrice') <= p50('bench_getRoundedPrice') ? 'met' : 'MISSED'}`,
      `  executeRequest with a bridged fetch: p50 ${formatMs(p50('bench_fetchPrice'))}, p99 ${formatMs(p99('bench_fetchPrice'))}`,
      `  baseline, the same request made by the core (route without handlers): p50 ${formatMs(p50('bench_getPrice'))}, p99 ${formatMs(p99('bench_getPrice'))}`,
      `  extra of the whole executeRequest call over the core's request (p50 of per-pair differences): ${formatMs(extra)}`,
      `  extra of the bridged fetch alone (fetch call − compute-only call − core request, p50): ${formatMs(median(bridgeOnly))}; target at most ${FETCH_EXTRA_TARGET_MS} ms: ${median(bridgeOnly) <= FETCH_EXTRA_TARGET_MS ? 'met' : 'MISSED'}`,
      `  load average while measured: ${loadavg()
        .map((load) => load.toFixed(2))
        .join(' ')} on ${availableParallelism()} cores (busy machines inflate every sandbox figure)`,
    ];
  } finally {
    await catalog.close();
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
