// The search index's per-file cache of terms (term-cache.ts), on real schema files in a real
// project: after one file changed only that file's terms are made again and the others read; a
// damaged entry is refused, made afresh and written over; a folder that cannot be written only
// costs the speed; and every answer is the same as an index
// built with no cache at all.

import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { searchCacheDir } from '../../src/discovery/index-cache.js';
import { termCacheDir } from '../../src/discovery/term-cache.js';
import { ToolIndex } from '../../src/discovery/tool-index.js';
import { tempProject } from '../support/project.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'discovery', 'schemas');
const REQUESTS = [
  'storm alerts for my district',
  'wheather forecast',
  'Wetterwarnungen',
  'gold price',
  'pollen count in Berlin',
  'latest block',
  'book by isbn',
];

describe('the per-file term cache', () => {
  let project: { dir: string; remove: () => void } | undefined;
  afterEach(() => project?.remove());

  /** Loads the project's copy of the fixtures and indexes it with the cache; checks its answers against an index built without one. */
  async function indexed(dir: string): Promise<{ index: ToolIndex; files: number }> {
    const catalog = await Catalog.load({ schemas: join(dir, 'schemas'), project: dir, env: {} });
    try {
      const tools = catalog.visibleTools();
      const index = new ToolIndex(tools, { cacheDir: searchCacheDir(dir) });
      await index.termsStored;
      const cold = new ToolIndex(tools);
      for (const request of REQUESTS)
        expect(index.find(request, { limit: 10 })).toEqual(cold.find(request, { limit: 10 }));
      return { index, files: new Set(tools.map((tool) => tool.schema)).size };
    } finally {
      await catalog.close();
    }
  }

  const entries = (dir: string) =>
    readdirSync(termCacheDir(searchCacheDir(dir))).filter((name) => name.endsWith('.terms'));
  /** Drops the whole-index cache, so that the next index is assembled from the per-file entries. */
  const dropWholeIndexes = (dir: string) => {
    for (const name of readdirSync(searchCacheDir(dir)))
      if (name.endsWith('.index')) rmSync(join(searchCacheDir(dir), name));
  };

  it("makes only a changed file's terms again, reads the others, and serves the changed text", async () => {
    project = tempProject();
    cpSync(FIXTURES, join(project.dir, 'schemas'), { recursive: true });
    const first = await indexed(project.dir);
    expect(first.files).toBeGreaterThan(1);
    expect(first.index.termSources).toEqual({ read: 0, made: first.files });
    expect(entries(project.dir)).toHaveLength(first.files);

    const weather = join(project.dir, 'schemas', 'weather.mjs');
    writeFileSync(
      weather,
      readFileSync(weather, 'utf8').replace(
        'Hourly weather forecast for a city.',
        'Hourly weather forecast and pollen count for a city.',
      ),
    );
    const second = await indexed(project.dir);
    expect(second.index.fromCache).toBe(false);
    expect(second.index.termSources).toEqual({ read: first.files - 1, made: 1 });
    expect(second.index.find('pollen', { limit: 3 }).map((hit) => hit.name)).toEqual(['skyline_getForecast']);
    // The unchanged start again reads the whole index, not the files.
    const third = await indexed(project.dir);
    expect(third.index.fromCache).toBe(true);
    expect(third.index.termSources).toEqual({ read: 0, made: 0 });
  });

  it("builds the same index where the terms cannot be written, and says it made every file's", async () => {
    project = tempProject();
    cpSync(FIXTURES, join(project.dir, 'schemas'), { recursive: true });
    // A file where the terms folder should be: nothing can be listed or written there.
    mkdirSync(searchCacheDir(project.dir), { recursive: true });
    writeFileSync(termCacheDir(searchCacheDir(project.dir)), 'not a folder');
    const { index, files } = await indexed(project.dir);
    expect(index.termSources).toEqual({ read: 0, made: files });
    dropWholeIndexes(project.dir);
    expect((await indexed(project.dir)).index.termSources).toEqual({ read: 0, made: files });
  });

  it('refuses a damaged entry (cut, an index out of range, another shape), makes it afresh and writes it over', async () => {
    project = tempProject();
    cpSync(FIXTURES, join(project.dir, 'schemas'), { recursive: true });
    const { files } = await indexed(project.dir);
    const dir = termCacheDir(searchCacheDir(project.dir));
    const victim = join(dir, entries(project.dir)[0] as string);
    const whole = readFileSync(victim, 'utf8');
    const parsed = JSON.parse(whole) as { terms: string[]; tools: number[][][] };
    const outOfRange = {
      ...parsed,
      tools: parsed.tools.map((fields) =>
        fields.map(([words, , count]) =>
          count === undefined ? [words as number] : [words as number, parsed.terms.length, count],
        ),
      ),
    };
    for (const damage of [
      whole.slice(0, whole.length - 7),
      JSON.stringify(outOfRange),
      JSON.stringify({ terms: parsed.terms, tools: [] }),
      '[]',
    ]) {
      writeFileSync(victim, damage);
      dropWholeIndexes(project.dir);
      const rebuilt = await indexed(project.dir);
      expect(rebuilt.index.termSources).toEqual({ read: files - 1, made: 1 });
      expect(readFileSync(victim, 'utf8')).toBe(whole);
    }
    dropWholeIndexes(project.dir);
    expect((await indexed(project.dir)).index.termSources).toEqual({ read: files, made: 0 });
  });
});
