// Each query set's figures and every request it ranks wrong, for studying the misses:
// `node dist/bench/discovery/misses.js [tuned|unseen|unseen2|unseen3|unseen4|unseen6|held-out|unseen5|unseen7]` (all nine
// without an argument).
// A line per request whose first tool is not one it names: where the first it names came (`#3`,
// `miss`), the top three, and the first three it names; an unanswerable request answered with
// tools.

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Catalog } from '../../src/runtime/catalog.js';
import { ToolIndex } from '../../src/discovery/tool-index.js';
import { measureQuality, type Query } from './quality.js';
import { everyKey, querySets, type QuerySet } from './query-sets.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const { tuned, heldOut, unseen, unseen2, unseen3, unseen4, unseen5, unseen6, unseen7 } = querySets(ROOT);
const named = { tuned, unseen, unseen2, unseen3, unseen4, unseen6, 'held-out': heldOut, unseen5, unseen7 } as Record<
  string,
  QuerySet | undefined
>;
const which = process.argv[2];
const sets =
  which === undefined
    ? [tuned, unseen, unseen2, unseen3, unseen4, unseen6, heldOut, unseen5, unseen7]
    : [named[which]].filter((set) => set !== undefined);
if (sets.length === 0)
  throw new Error(
    `no query set ${which}: tuned, unseen, unseen2, unseen3, unseen4, unseen6, held-out, unseen5 or unseen7`,
  );
for (const set of sets) {
  if (!existsSync(set.schemas)) {
    console.log(`${set.label}: skipped, no ${set.catalog} corpus at ${set.corpus} (set ${set.variable})`);
    continue;
  }
  const project = mkdtempSync(join(tmpdir(), 'flowguard-misses-'));
  const options = { schemas: set.schemas, lists: set.lists, project, env: {}, sandbox: { size: 1 } };
  const catalog = await Catalog.load({ ...options, keys: await everyKey(options) });
  try {
    const index = new ToolIndex(catalog.visibleTools());
    const queries = JSON.parse(readFileSync(set.queries, 'utf8')) as Query[];
    const quality = measureQuality(queries, (query) => index.find(query, { limit: 10 }).map((hit) => hit.name));
    const share = (n: number) => n.toFixed(3);
    console.log(
      `${set.label}: hit@1 ${share(quality.hit1)}  hit@5 ${share(quality.hit5)}  MRR ${share(quality.mrr)}  "none" ${share(quality.noneRecognised)} recognised, ${share(quality.answerableRefused)} refused`,
    );
    for (const miss of quality.misses) console.log(`  ${miss}`);
  } finally {
    await catalog.close();
    rmSync(project, { recursive: true, force: true });
  }
}
