import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateCatalog, type GeneratedCatalog } from '../../bench/generate.js';
import { lettersFor } from '../../bench/generator/model.js';

const made: GeneratedCatalog[] = [];

function generate(options: { count: number; seed: number; handlerShare?: number }): GeneratedCatalog {
  const catalog = generateCatalog(options);
  made.push(catalog);
  return catalog;
}

function texts(catalog: GeneratedCatalog): string[] {
  return catalog.files.map((file) => fs.readFileSync(file, 'utf8'));
}

/** Splits a generated file into its routes: every route starts with its `method:` line. */
function routeChunks(text: string): string[] {
  const main = text.split('export const handlers')[0] ?? '';
  return main.split(/\n\s+method: '/).slice(1);
}

afterAll(() => {
  for (const catalog of made) fs.rmSync(catalog.dir, { recursive: true, force: true });
});

describe('generateCatalog', () => {
  it('is deterministic: the same seed yields the same file names and texts', () => {
    const a = generate({ count: 25, seed: 42, handlerShare: 0.4 });
    const b = generate({ count: 25, seed: 42, handlerShare: 0.4 });
    expect(a.dir).not.toBe(b.dir);
    expect(a.files.map((f) => path.relative(a.dir, f))).toEqual(b.files.map((f) => path.relative(b.dir, f)));
    expect(texts(a)).toEqual(texts(b));
  });

  it('differs for a different seed', () => {
    const a = generate({ count: 10, seed: 1 });
    const b = generate({ count: 10, seed: 2 });
    expect(texts(a)).not.toEqual(texts(b));
  });

  it('writes exactly `count` files into a fresh flowguard-bench- temp dir', () => {
    const catalog = generate({ count: 37, seed: 7 });
    expect(path.basename(catalog.dir)).toMatch(/^flowguard-bench-/);
    expect(catalog.files).toHaveLength(37);
    expect(new Set(catalog.files).size).toBe(37);
    for (const file of catalog.files) {
      expect(file.startsWith(catalog.dir + path.sep)).toBe(true);
      expect(file.endsWith('.mjs')).toBe(true);
      expect(fs.existsSync(file)).toBe(true);
    }
    expect(generate({ count: 0, seed: 7 }).files).toEqual([]);
  });

  it('keeps every schema within 1-8 routes and every route within 2-6 parameters and 1-2 tests', () => {
    const catalog = generate({ count: 120, seed: 2024, handlerShare: 0.5 });
    const routeCounts = new Set<number>();
    const paramCounts = new Set<number>();
    for (const text of texts(catalog)) {
      const routes = routeChunks(text);
      expect(routes.length).toBeGreaterThanOrEqual(1);
      expect(routes.length).toBeLessThanOrEqual(8);
      routeCounts.add(routes.length);
      for (const route of routes) {
        const params = route.match(/\{ position: \{/g)?.length ?? 0;
        expect(params).toBeGreaterThanOrEqual(2);
        expect(params).toBeLessThanOrEqual(6);
        paramCounts.add(params);
        const tests = route.match(/\{ _description: '/g)?.length ?? 0;
        expect(tests).toBeGreaterThanOrEqual(1);
        expect(tests).toBeLessThanOrEqual(2);
        if (!route.startsWith('POST')) expect(route).not.toContain("location: 'body'");
      }
    }
    // Over 120 files the whole ranges are used, not just one corner.
    expect(Math.min(...routeCounts)).toBe(1);
    expect(Math.max(...routeCounts)).toBe(8);
    expect(Math.min(...paramCounts)).toBe(2);
    expect(Math.max(...paramCounts)).toBe(6);
  });

  it('uses letters-only namespaces, unique across the catalog', () => {
    const catalog = generate({ count: 60, seed: 3 });
    const namespaces = texts(catalog).map((text) => /namespace: '([^']*)'/.exec(text)?.[1]);
    for (const ns of namespaces) expect(ns).toMatch(/^[a-z]+$/);
    expect(new Set(namespaces).size).toBe(60);
    expect(lettersFor(0)).toBe('a');
    expect(lettersFor(25)).toBe('z');
    expect(lettersFor(26)).toBe('ba');
  });

  it('gives handlers to the requested share of files, and none by default', () => {
    const count = (catalog: GeneratedCatalog) =>
      texts(catalog).filter((t) => t.includes('export const handlers')).length;
    expect(count(generate({ count: 40, seed: 5 }))).toBe(0);
    expect(count(generate({ count: 40, seed: 5, handlerShare: 0.25 }))).toBe(10);
    expect(count(generate({ count: 40, seed: 5, handlerShare: 1 }))).toBe(40);
  });

  it('writes importable modules whose main is plain JSON data and whose handler keys name routes', async () => {
    const catalog = generate({ count: 30, seed: 11, handlerShare: 0.5 });
    for (const file of catalog.files) {
      const mod = (await import(file)) as {
        main: { routes: Record<string, unknown> };
        handlers?: (deps: object) => object;
      };
      expect(JSON.parse(JSON.stringify(mod.main))).toEqual(mod.main);
      expect(Object.keys(mod).sort()).toEqual(mod.handlers ? ['handlers', 'main'] : ['main']);
      if (mod.handlers) {
        const hooks = mod.handlers({ sharedLists: {}, libraries: {} });
        for (const name of Object.keys(hooks)) expect(mod.main.routes).toHaveProperty(name);
      }
    }
  });
});
