// What a catalog is loaded with (the options of Catalog.load and of the public loadCatalog), and
// the shared-list folder it was loaded from.

import type { HttpLimits } from '../http/client.js';
import type { SandboxOptions } from '../sandbox/host.js';
import type { SharedState } from '../state/shared-state.js';
import type { Catalog } from './catalog.js';
import type { PublicCatalogOptions } from './public-options.js';

/** What a program may pass (public-options.ts), and what the CLI and the server pass besides. */
export interface CatalogOptions extends PublicCatalogOptions {
  /** `onEvent` hears each worker process that stops or is replaced (default: a line on stderr). */
  sandbox?: Pick<SandboxOptions, 'size' | 'deadlineMs' | 'memoryMb' | 'onEvent'>;
  http?: Partial<HttpLimits>;
  /** Where the response cache keeps its entries and the upstream guard its rate buckets and pauses (Redis, for replicas); default in this process, closed with the catalog. */
  state?: SharedState;
  /**
   * The catalog this one replaces (`serve --watch`): a schema file whose new version has errors
   * (the check dropped it or a route) keeps the version `previous` served, if it served one.
   */
  previous?: Catalog;
}

/** The shared-list folder a catalog was loaded with. */
export interface ListsFolder {
  path: string;
  /** Every list file in it, read or not (a catalog reads only those its schemas reach). */
  files: readonly string[];
}
