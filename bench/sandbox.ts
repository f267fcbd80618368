// Sandbox costs: loading a catalog whose handlers run in the sandbox, next to checking the same
// files without it; and the extra cost of a route's preRequest + postRequest handlers, next to
// the same route without them, both called against one loopback upstream in the same run.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Catalog } from '../src/runtime/catalog.js';
import { selectSchemaFiles } from '../src/scan/files.js';
import { checkSchemaFile } from '../src/project/check-file.js';
import { effectiveAllowlist } from '../src/libraries/allowlist.js';
import { generateCatalog } from './generate.js';
import { formatMs, median, percentile, timeMs } from './stats.js';
import { priceSchema, startPriceUpstream, timeCall } from './upstream.js';

const FILES = 300;
const LOAD_RUNS = 3;
const CALLS = 2000;
const WARM_UP = 200;
const LOAD_TARGET_MS = 500;
const EXTRA_TARGET_MS = 0.3;

export async function benchCatalogLoad(): Promise<string[]> {
  const generated = generateCatalog({ count: FILES, seed: 20261122, handlerShare: 0.4 });
  try {
    const { files } = selectSchemaFiles([generated.dir]);
    const validateOnly: number[] = [];
    const load: number[] = [];
    let withHandlers = 0;
    for (let run = 0; run < LOAD_RUNS; run += 1) {
      validateOnly.push(
        timeMs(() => files.map((file) => checkSchemaFile(file, { allowedLibraries: effectiveAllowlist([]) }))),
      );
      const start = process.hrtime.bigint();
      const catalog = await Catalog.load({ schemas: generated.dir, handlers: 'at-load' });
      load.push(Number(process.hrtime.bigint() - start) / 1e6);
      withHandlers = catalog.schemas.filter(
        (entry) => Object.keys(catalog.hooksOf(entry.file) ?? {}).length > 0,
      ).length;
      await catalog.close();
    }
    const p50 = median(load);
    return [
      `catalog load: ${FILES} generated schemas, ${withHandlers} with handlers loaded in the sandbox, ${LOAD_RUNS} runs`,
      `  load (scan, validate, sandbox start, factories): p50 ${formatMs(p50)}`,
      `  baseline scan+validate only: p50 ${formatMs(median(validateOnly))}; ratio ${(p50 / median(validateOnly)).toFixed(2)}x`,
      `  target p50 < ${LOAD_TARGET_MS} ms: ${p50 < LOAD_TARGET_MS ? 'met' : 'MISSED'}`,
    ];
  } finally {
    rmSync(generated.dir, { recursive: true, force: true });
  }
}

export async function benchHandlerCost(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'flowguard-bench-handlers-'));
  const { child, port } = await startPriceUpstream(dir);
  writeFileSync(join(dir, 'bench.mjs'), priceSchema({ handlers: true }));
  const catalog = await Catalog.load({
    schemas: dir,
    project: dir,
    env: {},
    keys: { BENCH_KEY: 'bench-key-value' },
    upstreams: { '*': `http://127.0.0.1:${port}` },
  });
  try {
    const without: number[] = [];
    const withHandlers: number[] = [];
    const extra: number[] = [];
    for (let i = 0; i < CALLS + WARM_UP; i += 1) {
      // Interleaved, so that both routes see the same machine at the same moment.
      const plain = await timeCall(catalog, 'bench_getPrice');
      const handled = await timeCall(catalog, 'bench_getRoundedPrice');
      if (i >= WARM_UP) {
        without.push(plain);
        withHandlers.push(handled);
        extra.push(handled - plain);
      }
    }
    const p50 = median(extra);
    return [
      `handler cost: ${CALLS} sequential in-process calls of a route with a preRequest and a postRequest, interleaved with its twin without handlers`,
      `  with handlers: p50 ${formatMs(median(withHandlers))}, p99 ${formatMs(percentile(withHandlers, 99))}`,
      `  baseline, the same route without handlers: p50 ${formatMs(median(without))}, p99 ${formatMs(percentile(without, 99))}`,
      `  extra cost of the handlers (p50 of the per-pair differences): ${formatMs(p50)}; target < ${EXTRA_TARGET_MS} ms: ${p50 < EXTRA_TARGET_MS ? 'met' : 'MISSED'}`,
    ];
  } finally {
    await catalog.close();
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
