// Scan + validate cost per schema file over a generated catalog of realistic schemas, next to
// the bare cost of parsing the same text with meriyah, flowguard's parser (the baseline, measured in the same run).

import { readFileSync, rmSync } from 'node:fs';
import { parseModule } from 'meriyah';
import { effectiveAllowlist } from '../src/libraries/allowlist.js';
import { checkSchemaText } from '../src/schema/check.js';
import { generateCatalog } from './generate.js';
import { formatMs, median, percentile, timeMs } from './stats.js';

const FILES = 300;
const ROUNDS = 7;
const TARGET_MS = 1;

export function benchValidate(): string[] {
  const catalog = generateCatalog({ count: FILES, seed: 20261122, handlerShare: 0.4 });
  try {
    const texts = catalog.files.map((file) => ({ file, text: readFileSync(file, 'utf8') }));
    const options = { allowedLibraries: effectiveAllowlist([]) };
    // An unmeasured first pass warms the JIT and counts files the generator got wrong.
    const invalid = texts.filter(({ file, text }) => checkSchemaText(file, text, options).schema === null).length;
    const measured: number[] = [];
    const baseline: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const { file, text } of texts) {
        baseline.push(timeMs(() => parseModule(text, { ranges: true })));
        measured.push(timeMs(() => checkSchemaText(file, text, options)));
      }
    }
    const base = median(baseline);
    const p50 = median(measured);
    const bytes = texts.reduce((sum, t) => sum + t.text.length, 0) / texts.length;
    return [
      `validate: ${FILES} generated schemas (avg ${(bytes / 1024).toFixed(1)} KiB, 40% with handlers, ${invalid} invalid), ${ROUNDS} measured rounds`,
      `  scan+validate per file: p50 ${formatMs(p50)}, p90 ${formatMs(percentile(measured, 90))}, p99 ${formatMs(percentile(measured, 99))}`,
      `  baseline meriyah parseModule per file: p50 ${formatMs(base)}; ratio ${(p50 / base).toFixed(2)}x`,
      `  target p50 < ${TARGET_MS} ms: ${p50 < TARGET_MS ? 'met' : 'MISSED'}`,
    ];
  } finally {
    rmSync(catalog.dir, { recursive: true, force: true });
  }
}
