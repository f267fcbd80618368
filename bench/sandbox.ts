// Sandbox costs: loading a catalog whose handlers run in the sandbox, next to checking the same
// files without it; and the extra cost of a route's preRequest + postRequest handlers, next to
// the same transformations run as plain functions in this process. Both from the same run.

import { rmSync } from 'node:fs';
import { Catalog } from '../src/catalog/load.js';
import { selectSchemaFiles } from '../src/catalog/files.js';
import { checkSchemaFiles } from '../src/catalog/validate.js';
import { effectiveAllowlist } from '../src/libraries/allowlist.js';
import { Sandbox } from '../src/sandbox/pool.js';
import { generateCatalog } from './generate.js';
import { formatMs, median, percentile, timeMs } from './stats.js';

const FILES = 300;
const LOAD_RUNS = 3;
const CALLS = 2000;
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
      validateOnly.push(timeMs(() => checkSchemaFiles(files, { allowedLibraries: effectiveAllowlist([]) })));
      const start = process.hrtime.bigint();
      const catalog = await Catalog.load({ schemas: generated.dir });
      load.push(Number(process.hrtime.bigint() - start) / 1e6);
      withHandlers = catalog.schemas.filter((entry) => Object.keys(entry.hooks).length > 0).length;
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

// The same two transformations, as a schema's handlers and as plain in-process functions.
const preRequest = ({ struct, payload }: { struct: { url: string }; payload: { symbol: string } }) => {
  struct.url = `${struct.url}&symbol=${payload.symbol.toUpperCase()}`;
  return { struct };
};
const postRequest = ({ response }: { response: { price: number; symbol: string } }) => ({ response: { ...response, price: Math.round(response.price * 100) / 100 } });
const FACTORY = `({ sharedLists, libraries }) => ({ getPrice: { preRequest: ${preRequest.toString()}, postRequest: ${postRequest.toString()} } })`;

export async function benchHandlerCost(): Promise<string[]> {
  const sandbox = new Sandbox();
  try {
    const loaded = await sandbox.load({ id: 'bench', source: FACTORY, routes: ['getPrice'], libraries: [], sharedLists: {} });
    if (!loaded.ok) throw new Error(`bench factory failed: ${loaded.failure.message}`);
    const input = () => ({ struct: { url: 'https://api.example.com/price?x=1', method: 'GET', headers: {}, body: null }, payload: { symbol: 'eth' } });
    const response = { response: { price: 3120.123456, symbol: 'ETH' }, struct: {}, payload: {} };
    const sandboxed: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < CALLS + 200; i += 1) {
      const start = process.hrtime.bigint();
      await sandbox.call('bench', 'getPrice', 'preRequest', input());
      await sandbox.call('bench', 'getPrice', 'postRequest', response);
      const took = Number(process.hrtime.bigint() - start) / 1e6;
      const direct = timeMs(() => {
        postRequest(structuredClone(response));
        preRequest(structuredClone(input()));
      });
      // The first 200 warm the JIT on both sides.
      if (i >= 200) {
        sandboxed.push(took);
        plain.push(direct);
      }
    }
    const p50 = median(sandboxed);
    return [
      `handler cost: preRequest + postRequest of one route, ${CALLS} sequential calls`,
      `  in the sandbox: p50 ${formatMs(p50)}, p99 ${formatMs(percentile(sandboxed, 99))}`,
      `  baseline as plain in-process functions: p50 ${formatMs(median(plain))}`,
      `  extra cost of the handlers over the same route without them: p50 ${formatMs(p50)}; target < ${EXTRA_TARGET_MS} ms: ${p50 < EXTRA_TARGET_MS ? 'met' : 'MISSED'}`,
    ];
  } finally {
    await sandbox.close();
  }
}
