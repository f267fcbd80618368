// The programmatic API: load a folder of schemas, then call its tools.
//
//   const catalog = await loadCatalog({ schemas: 'schemas' });
//   const result = await catalog.call('coingecko_getSimplePrice', { ids: 'bitcoin' }, { signal });
//   await catalog.close();
//
// Everything named here is a promise to every user, so it is kept small and declared here (or in
// the few leaf modules it names): the runtime's own Catalog has much more, for the CLI and the
// server, and may change with any release. The compiler holds the runtime to these types where
// loadCatalog hands its catalog out.

import { Catalog as RuntimeCatalog } from './runtime/catalog.js';
import type { CallOptions, CallResult } from './call/outcome.js';
import type { Finding } from './report/findings.js';

export type { CallOptions, CallResult, OutboundRecord, SentRequest, ToolError, ToolErrorKind } from './call/outcome.js';
export type { Decoded } from './http/decode.js';
export type { Finding, Severity, Code } from './report/findings.js';
export { CODES } from './report/findings.js';

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
  /** The sandbox's worker processes, a handler's deadline and memory; default the config's `sandbox`. */
  sandbox?: { size?: number; deadlineMs?: number; memoryMb?: number };
  /** Bounds of every upstream request; default the config's `http`. */
  http?: { connectTimeoutMs?: number; totalTimeoutMs?: number; maxResponseBytes?: number; maxRedirects?: number; maxJsonDepth?: number };
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

/** One route of a schema, served as an MCP tool. */
export interface Tool {
  /** The MCP name, e.g. `coingecko_getSimplePrice`. */
  readonly name: string;
  /** The full reference `namespace/file.mjs::route`. */
  readonly reference: string;
  readonly description: string;
  readonly namespace: string;
  readonly method: string;
  /** Every key the route uses. */
  readonly requiredKeys: readonly string[];
  /** Keys it needs that are not granted to it: such a tool is hidden and cannot be called. */
  readonly missingKeys: readonly string[];
}

/** A loaded catalog: its tools, what its files were found to hold, and calls. */
export interface Catalog {
  /** Every tool compiled at load, hidden ones too. */
  readonly tools: readonly Tool[];
  /** A tool by its MCP name or its full reference. */
  tool(nameOrReference: string): Tool | undefined;
  /** Tools whose keys are all present and whose handlers did not fail to load. */
  visibleTools(): Tool[];
  call(nameOrReference: string, args: unknown, options?: CallOptions): Promise<CallResult>;
  /** Findings of the schema files, then of the shared-list files that were read. */
  findings(): Finding[];
  /** Closes the sandbox, the HTTP client and the catalog's own state; a second call waits for the first. */
  close(): Promise<void>;
}

export function loadCatalog(options: CatalogOptions): Promise<Catalog> {
  return RuntimeCatalog.load(options);
}
