// The query set's rankings as text, for checking that a change to the index keeps every one:
// `node dist/bench/discovery/rankings.js [CACHE_DIR] > before.txt`, change, build, run again, `diff`.
// Each line is a request and its top 10 (name and score). The 3.0.0 corpus as bench.ts finds it,
// every key granted. With CACHE_DIR the index goes through the index caches kept there (the whole
// index, each file's terms), so that an index read or assembled from them can be compared too.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Catalog } from '../../src/runtime/catalog.js';
import { ToolIndex } from '../../src/discovery/tool-index.js';
import type { Query } from './quality.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const corpus = resolve(process.env.FLOWGUARD_BENCH_V3_CORPUS ?? join(ROOT, '../shared/corpora/flowmcp-v3'));
const options = { schemas: join(corpus, 'providers'), lists: join(corpus, '_lists'), env: {}, sandbox: { size: 1 } };
const project = mkdtempSync(join(tmpdir(), 'flowguard-rankings-'));
try {
  const probe = await Catalog.load({ ...options, project });
  const keys = Object.fromEntries(probe.tools.flatMap((tool) => tool.requiredKeys).map((key) => [key, `bench-${key}`]));
  await probe.close();
  const catalog = await Catalog.load({ ...options, project, keys });
  const tools = catalog.visibleTools();
  if (tools.length === 0) throw new Error(`no tools served from ${options.schemas} (set FLOWGUARD_BENCH_V3_CORPUS)`);
  const cacheDir = process.argv[2];
  const index = new ToolIndex(tools, cacheDir === undefined ? {} : { cacheDir });
  await index.termsStored;
  console.error(
    `index: ${index.fromCache ? 'read whole from the cache' : `built, ${index.termSources.read} files' terms read, ${index.termSources.made} made`}`,
  );
  const queries = JSON.parse(readFileSync(join(ROOT, 'bench', 'discovery', 'queries.json'), 'utf8')) as Query[];
  for (const { query } of queries)
    console.log(JSON.stringify([query, index.find(query, { limit: 10 }).map((hit) => `${hit.name} ${hit.score}`)]));
  await catalog.close();
} finally {
  rmSync(project, { recursive: true, force: true });
}
