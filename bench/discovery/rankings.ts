// The query set's rankings as text, for checking that a change to the index keeps every one:
// `node dist/bench/discovery/rankings.js [CACHE_DIR] > before.txt`, change, build, run again, `diff`.
// Each line is a request and its top 10 (name and score). The 3.0.0 corpus as bench.ts finds it,
// every key granted; with FLOWGUARD_RANKINGS_SET=held-out the held-out set over the 2.0.0 corpus,
// with FLOWGUARD_RANKINGS_SET=unseen, unseen2, unseen3, unseen4 or unseen6 an unseen set over the 3.0.0
// one, with FLOWGUARD_RANKINGS_SET=unseen5 or unseen7 an unseen set over the 2.0.0 one (query-sets.ts).
// With CACHE_DIR the index goes through the index caches kept there (the whole index, each file's
// terms), so that an index read or assembled from them can be compared too.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Catalog } from '../../src/runtime/catalog.js';
import { ToolIndex } from '../../src/discovery/tool-index.js';
import type { Query } from './quality.js';
import { everyKey, querySets, type QuerySet } from './query-sets.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const sets = querySets(ROOT);
const chosen = process.env.FLOWGUARD_RANKINGS_SET;
const named = {
  'held-out': sets.heldOut,
  unseen: sets.unseen,
  unseen2: sets.unseen2,
  unseen3: sets.unseen3,
  unseen4: sets.unseen4,
  unseen5: sets.unseen5,
  unseen6: sets.unseen6,
  unseen7: sets.unseen7,
} as Record<string, QuerySet | undefined>;
const set = (chosen === undefined ? undefined : named[chosen]) ?? sets.tuned;
const options = { schemas: set.schemas, lists: set.lists, env: {}, sandbox: { size: 1 } };
const project = mkdtempSync(join(tmpdir(), 'flowguard-rankings-'));
try {
  const catalog = await Catalog.load({ ...options, project, keys: await everyKey({ ...options, project }) });
  const tools = catalog.visibleTools();
  if (tools.length === 0) throw new Error(`no tools served from ${options.schemas} (set ${set.variable})`);
  const cacheDir = process.argv[2];
  const index = new ToolIndex(tools, cacheDir === undefined ? {} : { cacheDir });
  await index.termsStored;
  console.error(
    `index: ${index.fromCache ? 'read whole from the cache' : `built, ${index.termSources.read} files' terms read, ${index.termSources.made} made`}`,
  );
  const queries = JSON.parse(readFileSync(set.queries, 'utf8')) as Query[];
  for (const { query } of queries)
    console.log(JSON.stringify([query, index.find(query, { limit: 10 }).map((hit) => `${hit.name} ${hit.score}`)]));
  await catalog.close();
} finally {
  rmSync(project, { recursive: true, force: true });
}
