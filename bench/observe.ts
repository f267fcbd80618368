// What watching calls costs a call: the audit log, a log line at info and the metrics, as
// `serve` sets them up (cli/serve-observe.ts, observe/metrics.ts), against the same calls with
// no listener, in one run. Sequential in-process calls of the route of bench/call.ts; observed
// and unobserved calls alternate in blocks, so that both see the same machine at the same time.
// The audit lines and log lines go to files in a temporary folder, written as serve writes them
// (records are handed over in batches after the calls have answered, and written asynchronously).

import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Catalog } from '../src/runtime/catalog.js';
import { recordCall } from '../src/cli/serve-observe.js';
import { AuditLog } from '../src/observe/audit-log.js';
import { BatchedLines, createLogger, flushLogger } from '../src/observe/logger.js';
import { ServerMetrics } from '../src/observe/metrics.js';
import { formatMs, median, percentile } from './stats.js';
import { priceSchema, startPriceUpstream } from './upstream.js';

const CALLS = 3000;
const BLOCK = 10;
const WARM_UP = 300;
const TARGET_PERCENT = 5;

export async function benchObserve(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'flowguard-bench-observe-'));
  const { child, port } = await startPriceUpstream(dir);
  writeFileSync(join(dir, 'bench.mjs'), priceSchema({ handlers: false }));
  const catalog = await Catalog.load({
    schemas: dir,
    project: dir,
    env: {},
    keys: { BENCH_KEY: 'bench-key-value' },
    upstreams: { '*': `http://127.0.0.1:${port}` },
  });
  const audit = AuditLog.open({ dir: join(dir, 'audit') });
  const logger = createLogger({
    level: 'info',
    destination: new BatchedLines(createWriteStream(join(dir, 'log.jsonl'))),
  });
  const metrics = new ServerMetrics();
  const observe = recordCall(logger, audit);
  try {
    const off: number[] = [];
    const on: number[] = [];
    for (let block = 0; block < (2 * (CALLS + WARM_UP)) / BLOCK; block += 1) {
      const observed = block % 2 === 1;
      const stop = observed ? catalog.onCall((record) => (observe(record), metrics.record(record))) : null;
      for (let i = 0; i < BLOCK; i += 1) {
        const start = process.hrtime.bigint();
        const done = observed ? metrics.callStarted() : null;
        const result = await catalog.call('bench_getPrice', { symbol: 'eth' });
        done?.();
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        if (!result.ok) throw new Error(`bench call failed: ${JSON.stringify(result)}`);
        if (block >= (2 * WARM_UP) / BLOCK) (observed ? on : off).push(ms);
      }
      stop?.();
    }
    await catalog.close(); // hands the last calls' records over
    await audit.close();
    await flushLogger(logger);
    const auditLines = readdirSync(join(dir, 'audit')).reduce(
      (count, file) => count + readFileSync(join(dir, 'audit', file), 'utf8').split('\n').length - 1,
      0,
    );
    const logLines = readFileSync(join(dir, 'log.jsonl'), 'utf8').split('\n').length - 1;
    const overhead = ((median(on) - median(off)) / median(off)) * 100;
    return [
      `observed calls: ${CALLS} sequential calls with the audit log, a log line at info and metrics, ${CALLS} without, alternating in blocks of ${BLOCK}`,
      `  catalog.call unobserved: p50 ${formatMs(median(off))}, p99 ${formatMs(percentile(off, 99))}`,
      `  catalog.call observed:   p50 ${formatMs(median(on))}, p99 ${formatMs(percentile(on, 99))}`,
      `  cost at p50 ${overhead.toFixed(1)} %; target at most ${TARGET_PERCENT} %: ${overhead <= TARGET_PERCENT ? 'met' : 'MISSED'}`,
      `  written: ${auditLines} audit lines (${audit.dropped} dropped), ${logLines} log lines (warm-up included)`,
    ];
  } finally {
    await catalog.close();
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
