// The set-up the benchmarks of calls at many in flight share (hot-path.ts, in-flight.ts): a folder
// with the price schema and its handler twin, the price upstream in its own process, the one
// concurrency every build takes (ceilings.ts), the ceilings' raw clients, and the options every
// build's catalog is loaded with. One place, so that both benchmarks measure the same thing.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RawClients, rawUndici, sameLimit } from './ceilings.js';
import type { Catalog } from './package-entry.js';
import { priceSchema, startPriceUpstream } from './upstream.js';

export interface PriceRig {
  /** The temporary folder: schema, project, and the scripts of the processes it starts. */
  dir: string;
  /** The concurrency every build takes, said as a benchmark's header says it. */
  limit: string;
  /** The price route's URL on the upstream, as raw clients ask it. */
  url: string;
  /** Raw `undici.request` in this process, the ceiling of a call. */
  raw: ReturnType<typeof rawUndici>;
  /** Two raw clients in processes of their own, to ask the upstream's capacity. */
  clients: RawClients;
  /** What every build's `loadCatalog` is given. */
  options: Record<string, unknown>;
  /** Stops the clients and the upstream and removes the folder. */
  close(): Promise<void>;
}

/** Opens the rig in a new temporary folder named with `prefix`. */
export async function openPriceRig(prefix: string): Promise<PriceRig> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const { child, port } = await startPriceUpstream(dir);
  writeFileSync(join(dir, 'bench.mjs'), priceSchema({ handlers: true }));
  const limit = sameLimit(dir);
  const url = `http://127.0.0.1:${port}/v1/price/eth?currency=usd`;
  const raw = rawUndici(url);
  const clients = new RawClients(dir, 2);
  return {
    dir,
    limit,
    url,
    raw,
    clients,
    options: {
      schemas: dir,
      project: dir,
      env: {},
      keys: { BENCH_KEY: 'bench-key-value' },
      upstreams: { '*': `http://127.0.0.1:${port}` },
    },
    async close() {
      await raw.close();
      clients.close();
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One call of the price route's `tool`, as `atOnce` takes it; a failed call stops the benchmark. */
export function callOf(catalog: Catalog, tool: string): () => Promise<void> {
  return async () => {
    const result = await catalog.call(tool, { symbol: 'eth' });
    if (!result.ok) throw new Error(`bench call of ${tool} failed: ${JSON.stringify(result)}`);
  };
}
