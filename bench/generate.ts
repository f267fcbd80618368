// Benchmark corpus generator: writes realistic, spec-valid FlowMCP 2.0 schema files into a fresh
// temp dir. Output depends only on the options (seeded mulberry32, no Math.random), so the same
// seed always yields byte-identical files. Parts (bench/generator/): random.ts the seeded Rng,
// vocabulary.ts the words, model.ts one schema as data, render.ts that schema as source.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeSchema } from './generator/model.js';
import { Rng } from './generator/random.js';
import { renderSchema } from './generator/render.js';

export interface GeneratedCatalog {
  dir: string;
  files: string[];
}

export interface GenerateOptions {
  count: number;
  seed: number;
  /** Share (0..1) of the files that get a `handlers` factory. Default 0. */
  handlerShare?: number;
}

/** Writes `count` realistic schema files (deterministic from `seed`) into a fresh temp dir. */
export function generateCatalog(options: GenerateOptions): GeneratedCatalog {
  const { count, seed } = options;
  const share = Math.min(1, Math.max(0, options.handlerShare ?? 0));
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count must be a non-negative integer, got ${count}`);
  const rng = new Rng(seed);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flowguard-bench-'));
  const files: string[] = [];
  // Exactly round(count * share) files get handlers, spread evenly over the catalog.
  const handlerFiles = Math.round(count * share);
  for (let index = 0; index < count; index += 1) {
    const withHandlers = Math.floor(((index + 1) * handlerFiles) / count) > Math.floor((index * handlerFiles) / count);
    const schema = makeSchema(index, rng, withHandlers);
    const folder = path.join(dir, schema.namespace);
    fs.mkdirSync(folder, { recursive: true });
    const file = path.join(folder, `${schema.stem}.mjs`);
    fs.writeFileSync(file, renderSchema(schema.main, schema.routes));
    files.push(file);
  }
  return { dir, files };
}
