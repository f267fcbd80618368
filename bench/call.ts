// Tool calls in process: 2,000 sequential calls of a route without handlers through the whole
// pipeline (arguments, request plan, origin pin, secrets, HTTP client, decoding, redaction),
// next to the same request made with raw `undici.request` (body parsed as JSON too), against
// one loopback server in the same run.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { Catalog } from '../src/runtime/catalog.js';
import { formatMs, median, percentile } from './stats.js';
import { priceSchema, startPriceUpstream } from './upstream.js';

const CALLS = 2000;
const WARM_UP = 200;
const RATIO_TARGET = 1.1;

function cpuMicros(since: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(since);
  return user + system;
}

export async function benchCalls(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'flowguard-bench-call-'));
  const { child, port } = await startPriceUpstream(dir);
  writeFileSync(join(dir, 'bench.mjs'), priceSchema({ handlers: false }));
  const catalog = await Catalog.load({
    schemas: dir,
    project: dir,
    env: {},
    keys: { BENCH_KEY: 'bench-key-value' },
    upstreams: { '*': `http://127.0.0.1:${port}` },
  });
  const url = `http://127.0.0.1:${port}/v1/price/eth?currency=usd`;
  try {
    const viaCatalog: number[] = [];
    const raw: number[] = [];
    // CPU per call beside the wall time (process.cpuUsage, so V8's compiler threads count too).
    let cpuViaCatalog = 0;
    let cpuRaw = 0;
    let peakRss = process.memoryUsage.rss();
    for (let i = 0; i < CALLS + WARM_UP; i += 1) {
      // Interleaved, so that both see the same machine at the same moment.
      let cpu = process.cpuUsage();
      let start = process.hrtime.bigint();
      const result = await catalog.call('bench_getPrice', { symbol: 'eth' });
      const tool = Number(process.hrtime.bigint() - start) / 1e6;
      const toolCpu = cpuMicros(cpu);
      if (!result.ok) throw new Error(`bench call failed: ${JSON.stringify(result)}`);
      cpu = process.cpuUsage();
      start = process.hrtime.bigint();
      const response = await request(url, { headers: { 'x-api-key': 'bench-key-value' } });
      await response.body.json();
      const direct = Number(process.hrtime.bigint() - start) / 1e6;
      const directCpu = cpuMicros(cpu);
      if (i >= WARM_UP) {
        viaCatalog.push(tool);
        raw.push(direct);
        cpuViaCatalog += toolCpu;
        cpuRaw += directCpu;
      }
      if (i % 100 === 0) peakRss = Math.max(peakRss, process.memoryUsage.rss());
    }
    const ratio = median(viaCatalog) / median(raw);
    return [
      `tool calls: ${CALLS} sequential in-process calls of a route without handlers, loopback upstream in its own process`,
      `  catalog.call: p50 ${formatMs(median(viaCatalog))}, p99 ${formatMs(percentile(viaCatalog, 99))}`,
      `  baseline raw undici.request + body.json(): p50 ${formatMs(median(raw))}, p99 ${formatMs(percentile(raw, 99))}`,
      `  CPU per call: catalog.call ${(cpuViaCatalog / CALLS).toFixed(0)} µs, raw ${(cpuRaw / CALLS).toFixed(0)} µs`,
      `  ratio p50 ${ratio.toFixed(2)} (p99 ${(percentile(viaCatalog, 99) / percentile(raw, 99)).toFixed(2)}); target at most ${RATIO_TARGET}: ${ratio <= RATIO_TARGET ? 'met' : 'MISSED'}`,
      `  peak RSS of this process: ${(peakRss / 2 ** 20).toFixed(0)} MiB`,
    ];
  } finally {
    await catalog.close();
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
