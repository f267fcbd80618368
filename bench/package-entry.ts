// The module a package user of a flowguard build imports: its package.json's entry point
// (dist/bundle/index.js now, dist/src/index.js in builds before the bundle).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export function packageEntry(build: string): string {
  const pkg = JSON.parse(readFileSync(join(build, 'package.json'), 'utf8')) as {
    main?: string;
    exports?: { '.'?: { import?: string } };
  };
  return join(build, pkg.exports?.['.']?.import ?? pkg.main ?? 'dist/src/index.js');
}

/** What the benchmarks need of a catalog of any build. */
export interface Catalog {
  call(name: string, args: unknown): Promise<{ ok: boolean }>;
  close(): Promise<void>;
}
export type Load = (options: Record<string, unknown>) => Promise<Catalog>;

/** The catalog loader of a build, as its package entry exports it. */
export async function loaderOf(build: string): Promise<Load> {
  // loadCatalog since the public API became types (issue 26); Catalog.load before.
  const module = (await import(pathToFileURL(packageEntry(build)).href)) as {
    loadCatalog?: Load;
    Catalog?: { load: Load };
  };
  const load = module.loadCatalog ?? module.Catalog?.load.bind(module.Catalog);
  if (!load) throw new Error(`${build}: its package entry exports neither loadCatalog nor Catalog.load`);
  return load;
}
