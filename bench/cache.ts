// The response cache in process: 2,000 calls answered from the cache (one call primed it) next
// to 2,000 misses of the same route (a new symbol each time: arguments checked, the key made, the
// lookup missed, the upstream asked, the answer stored), interleaved, against one loopback
// upstream in its own process. Target: a hit at most 0.05 ms p50.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Catalog } from '../src/runtime/catalog.js';
import { formatMs, median, percentile } from './stats.js';
import { priceSchema, startPriceUpstream, timeCall } from './upstream.js';

const CALLS = 2000;
const WARM_UP = 200;
const HIT_TARGET_MS = 0.05;

export async function benchCache(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'flowguard-bench-cache-'));
  const { child, port } = await startPriceUpstream(dir);
  writeFileSync(join(dir, 'bench.mjs'), priceSchema({ handlers: false }));
  // The bench route has no lifetime of its own: the operator's override gives it one.
  mkdirSync(join(dir, '.flowmcp'));
  writeFileSync(join(dir, '.flowmcp', 'config.json'), JSON.stringify({ cache: { overrides: { bench: 3600 } } }));
  const catalog = await Catalog.load({
    schemas: dir,
    project: dir,
    env: {},
    keys: { BENCH_KEY: 'bench-key-value' },
    upstreams: { '*': `http://127.0.0.1:${port}` },
  });
  try {
    // What is measured is what it says: a first call misses, the same again hits, another misses.
    // (Records are made only while someone listens, so the timed calls below run without one.)
    const seen: string[] = [];
    const stop = catalog.onCall((record) => seen.push(record.cache));
    for (const symbol of ['eth', 'eth', 'btc']) await timeCall(catalog, 'bench_getPrice', { symbol });
    catalog.deliverCallRecords();
    stop();
    if (seen.join() !== 'miss,hit,miss')
      throw new Error(`expected a miss, a hit and a miss; the cache said ${seen.join(', ')}`);
    const hits: number[] = [];
    const misses: number[] = [];
    for (let i = 0; i < CALLS + WARM_UP; i += 1) {
      const hit = await timeCall(catalog, 'bench_getPrice', { symbol: 'eth' });
      const miss = await timeCall(catalog, 'bench_getPrice', { symbol: `coin${i}` });
      if (i >= WARM_UP) {
        hits.push(hit);
        misses.push(miss);
      }
    }
    const hitP50 = median(hits);
    return [
      `response cache: ${CALLS} in-process calls answered from the cache, interleaved with ${CALLS} misses of the same route (loopback upstream in its own process)`,
      `  hit: p50 ${formatMs(hitP50)}, p99 ${formatMs(percentile(hits, 99))}`,
      `  miss (upstream asked, answer stored): p50 ${formatMs(median(misses))}, p99 ${formatMs(percentile(misses, 99))}`,
      `  hit p50 target at most ${HIT_TARGET_MS} ms: ${hitP50 <= HIT_TARGET_MS ? 'met' : 'MISSED'}`,
    ];
  } finally {
    await catalog.close();
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
