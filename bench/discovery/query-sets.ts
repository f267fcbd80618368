// The query sets bench/discovery measures, each over the catalog it was written for: the
// project's own (queries.json, the 3.0.0 catalog; the ranking was tuned on it), a held-out one
// (queries-heldout.json, the 2.0.0 catalog; written before the ranker was run on it, tuned on
// since), an unseen one (queries-unseen.json, the 3.0.0 catalog; written by someone who had read
// neither the ranker nor the other sets, committed before any measurement, tuned on since the
// ranking is tuned on all three), a second unseen one (queries-unseen2.json, the 3.0.0 catalog;
// written the same way, after the first was tuned on; tuned on since the ranking is tuned on all
// four), a third unseen one (queries-unseen3.json, the 3.0.0 catalog; written the same way, after
// the second was tuned on; tuned on since the ranking is tuned on all five), a fourth unseen one
// (queries-unseen4.json, the 3.0.0 catalog) and one over the 2.0.0 catalog (queries-unseen5.json),
// both written the same way and committed before any measurement, tuned on since the tenth pass,
// and a sixth and seventh (queries-unseen6.json over the 3.0.0 catalog, queries-unseen7.json over
// the 2.0.0 one), written the same way when the tenth pass began and measured only to keep or drop
// it: the honest estimates for requests nobody has tuned on; and the keys that serve every tool of
// a catalog.

import { join, resolve } from 'node:path';
import { Catalog } from '../../src/runtime/catalog.js';
import type { CatalogOptions } from '../../src/runtime/catalog-options.js';

export interface QuerySet {
  /** What the figures are printed under. */
  label: string;
  /** The catalog's version, for the line that says its corpus is absent. */
  catalog: string;
  corpus: string;
  schemas: string;
  lists: string;
  queries: string;
  /** The environment variable that points at the corpus, named when it is absent. */
  variable: string;
}

/** `root`: the package root (the corpora default to ../shared/corpora beside it). */
export function querySets(root: string): {
  tuned: QuerySet;
  heldOut: QuerySet;
  unseen: QuerySet;
  unseen2: QuerySet;
  unseen3: QuerySet;
  unseen4: QuerySet;
  unseen5: QuerySet;
  unseen6: QuerySet;
  unseen7: QuerySet;
} {
  const v3 = resolve(process.env.FLOWGUARD_BENCH_V3_CORPUS ?? join(root, '../shared/corpora/flowmcp-v3'));
  const v2 = resolve(process.env.FLOWGUARD_BENCH_CORPUS ?? join(root, '../shared/corpora/flowmcp-v2'));
  const overV3 = (file: string) => ({
    catalog: '3.0.0',
    corpus: v3,
    schemas: join(v3, 'providers'),
    lists: join(v3, '_lists'),
    queries: join(root, 'bench', 'discovery', file),
    variable: 'FLOWGUARD_BENCH_V3_CORPUS',
  });
  const overV2 = (file: string) => ({
    catalog: '2.0.0',
    corpus: v2,
    // The 2.0.0 corpus keeps its schema folders at its top, beside _lists.
    schemas: v2,
    lists: join(v2, '_lists'),
    queries: join(root, 'bench', 'discovery', file),
    variable: 'FLOWGUARD_BENCH_CORPUS',
  });
  return {
    tuned: {
      label: 'queries.json over the 3.0.0 catalog (the set the ranking was tuned on)',
      ...overV3('queries.json'),
    },
    unseen: {
      label: 'queries-unseen.json over the 3.0.0 catalog (unseen when written, tuned on since)',
      ...overV3('queries-unseen.json'),
    },
    unseen2: {
      label: 'queries-unseen2.json over the 3.0.0 catalog (unseen when written, tuned on since)',
      ...overV3('queries-unseen2.json'),
    },
    unseen3: {
      label: 'queries-unseen3.json over the 3.0.0 catalog (unseen when written, tuned on since)',
      ...overV3('queries-unseen3.json'),
    },
    unseen4: {
      label: 'queries-unseen4.json over the 3.0.0 catalog (unseen when written, tuned on since)',
      ...overV3('queries-unseen4.json'),
    },
    unseen6: {
      label: 'queries-unseen6.json over the 3.0.0 catalog (unseen: written before any measurement, not tuned on)',
      ...overV3('queries-unseen6.json'),
    },
    heldOut: {
      label: 'queries-heldout.json over the 2.0.0 catalog (held out when written, tuned on since)',
      ...overV2('queries-heldout.json'),
    },
    unseen5: {
      label: 'queries-unseen5.json over the 2.0.0 catalog (unseen when written, tuned on since)',
      ...overV2('queries-unseen5.json'),
    },
    unseen7: {
      label: 'queries-unseen7.json over the 2.0.0 catalog (unseen: written before any measurement, not tuned on)',
      ...overV2('queries-unseen7.json'),
    },
  };
}

/** Every key the catalog asks for, with a fake value: every tool served, as an operator with all keys would (nothing is called). */
export async function everyKey(options: CatalogOptions): Promise<Record<string, string>> {
  const probe = await Catalog.load(options);
  try {
    return Object.fromEntries(probe.tools.flatMap((tool) => tool.requiredKeys).map((key) => [key, `bench-${key}`]));
  } finally {
    await probe.close();
  }
}
