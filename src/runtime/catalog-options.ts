// What a catalog is loaded with (the options of Catalog.load and of the public loadCatalog), and
// the shared-list folder it was loaded from.

import type { HttpLimits } from '../http/client.js';
import type { HandlerLoading } from '../config/project.js';
import type { SandboxOptions } from '../sandbox/host.js';
import type { SharedState } from '../state/shared-state.js';
import type { KeyLockSetting } from '../keylock/key-lock.js';
import type { Catalog } from './catalog.js';

export interface CatalogOptions {
  /** Folder of schema files (searched recursively), or one file. */
  schemas: string;
  /** Folder of shared-list files; default `shared-lists` in the project folder. */
  lists?: string;
  /** Folder holding `.flowmcp/config.json` and `.env`; default the working directory. */
  project?: string;
  /** The environment: a key is taken from it only where `security.keys` grants it; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Key values given by the embedding program; as trusted as the project's `.env`. */
  keys?: Readonly<Record<string, string | undefined>>;
  /** Upstream overrides, ORIGIN (or `*`) → base URL; added to the config's `upstreams`. */
  upstreams?: Readonly<Record<string, string>>;
  /** `onEvent` hears each worker process that stops or is replaced (default: a line on stderr). */
  sandbox?: Pick<SandboxOptions, 'size' | 'deadlineMs' | 'memoryMb' | 'onEvent'>;
  http?: Partial<HttpLimits>;
  /** When handlers factories run: on the first call that needs one (default), or while loading (`at-load`, as `doctor` does). */
  handlers?: HandlerLoading;
  /** Keep checks of unchanged files in `.flowmcp/cache/` for the next start (servers do); written a second after the load or at close(). */
  cache?: boolean;
  /** Where the response cache keeps its entries and the upstream guard its rate buckets and pauses (Redis, for replicas); default in this process, closed with the catalog. */
  state?: SharedState;
  /**
   * The catalog this one replaces (`serve --watch`): a schema file whose new version has errors
   * (the check dropped it or a route) keeps the version `previous` served, if it served one.
   */
  previous?: Catalog;
  /**
   * The key lock, `.flowmcp/keys.lock.json` (src/keylock/): `record` judges every key's holders
   * against it and writes the keys seen for the first time, `check` judges only, `off` ignores it.
   * Default: `record` where the project has a lock file, `off` where it has none (the CLI always records).
   */
  keyLock?: KeyLockSetting;
}

/** The shared-list folder a catalog was loaded with. */
export interface ListsFolder {
  path: string;
  /** Every list file in it, read or not (a catalog reads only those its schemas reach). */
  files: readonly string[];
}
