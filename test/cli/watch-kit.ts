// Real parts for the tests of `serve --watch`'s watcher (src/cli/watch.ts) in process: a project
// folder of `shop` schemas (test/reload/helpers.ts), its catalog loaded and held live as `serve`
// holds it, and the watcher over it. `useWatchKit()` registers the clean-up after each test: the
// watcher closed first (no reload starts after), then the live catalog, then the folders.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { watchCatalog, type CatalogWatch, type WatchOptions } from '../../src/cli/watch.js';
import { LiveCatalog } from '../../src/mcp/live-catalog.js';
import { createLogger } from '../../src/observe/logger.js';
import { Catalog } from '../../src/runtime/catalog.js';
import { makeProject, ORIGIN, type Project } from '../reload/helpers.js';

export interface Watched {
  /** The catalog served now, swapped by each reload. */
  live: LiveCatalog<Catalog>;
  watcher: CatalogWatch;
  /** How many loads have run, the first one included. */
  loads(): number;
}

export interface WatchStart extends Partial<Omit<WatchOptions, 'load'>> {
  /** The schemas folder loaded and watched (default: the project's). */
  schemas?: string;
}

export interface WatchKit {
  /** A project of `schemas/shop/<file>` files, removed after the test. */
  project(files: Record<string, string>): Project;
  /** A temporary folder outside the project, removed after the test. */
  outside(prefix: string): string;
  /**
   * Loads the project's catalog (the shop's origin sent to a closed loopback port), holds it live
   * and watches `paths` (default: the schemas folder) with a logger that drops its lines.
   */
  watch(start?: WatchStart): Promise<Watched>;
}

/** The names of the tools `catalog` serves, sorted. */
export const servedNames = (catalog: Catalog): string[] =>
  catalog
    .visibleTools()
    .map((tool) => tool.name)
    .sort();

export function useWatchKit(): WatchKit {
  let project: Project | undefined;
  let live: LiveCatalog<Catalog> | undefined;
  let watcher: CatalogWatch | undefined;
  let outsides: string[] = [];
  afterEach(async () => {
    try {
      await watcher?.close();
      await live?.close();
    } finally {
      project?.remove();
      for (const dir of outsides) rmSync(dir, { recursive: true, force: true });
      [project, live, watcher, outsides] = [undefined, undefined, undefined, []];
    }
  });
  return {
    project(files) {
      project = makeProject(files);
      return project;
    },
    outside(prefix) {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      outsides.push(dir);
      return dir;
    },
    async watch({ schemas, paths, ...options } = {}) {
      if (!project) throw new Error('watch() needs project() first');
      const folder = schemas ?? project.schemas;
      const dir = project.dir;
      let loads = 0;
      const load = (previous?: Catalog) => {
        loads += 1;
        return Catalog.load({ schemas: folder, project: dir, upstreams: { [ORIGIN]: 'http://127.0.0.1:9' }, previous });
      };
      live = new LiveCatalog(await load());
      watcher = await watchCatalog(live, {
        paths: paths ?? [folder],
        load,
        logger: createLogger({ level: 'warn', destination: { write: () => undefined } }),
        ...options,
      });
      return { live, watcher, loads: () => loads };
    },
  };
}
