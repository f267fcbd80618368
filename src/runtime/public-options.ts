// The options a program loads a catalog with (src/index.ts names them CatalogOptions): a leaf
// module, so that the public types reach nothing internal. The runtime's own options
// (catalog-options.ts) extend these with what the CLI and the server pass.

export interface PublicCatalogOptions {
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
  /** The sandbox's worker processes, a handler's deadline and memory; default the config's `sandbox`. */
  sandbox?: { size?: number; deadlineMs?: number; memoryMb?: number };
  /** Bounds of every upstream request; default the config's `http`. */
  http?: {
    connectTimeoutMs?: number;
    totalTimeoutMs?: number;
    maxResponseBytes?: number;
    maxRedirects?: number;
    maxJsonDepth?: number;
  };
  /** When handlers factories run: on the first call that needs one (default), or while loading. */
  handlers?: 'on-first-call' | 'at-load';
  /** Keep checks of unchanged files in `.flowmcp/cache/` for the next start. */
  cache?: boolean;
  /**
   * The key lock, `.flowmcp/keys.lock.json`: `record` judges every key's holders against it and
   * writes the keys seen for the first time, `check` judges only, `off` ignores it. Default:
   * `record` where the project has a lock file, `off` where it has none.
   */
  keyLock?: 'record' | 'check' | 'off';
}
