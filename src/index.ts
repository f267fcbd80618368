// The programmatic API: load a folder of schemas, then call its tools, or serve them over MCP
// as `flowguard serve` does.
//
//   const catalog = await loadCatalog({ schemas: 'schemas' });
//   const result = await catalog.call('coingecko_getSimplePrice', { ids: 'bitcoin' }, { signal });
//   await catalog.close();
//
//   const server = await createServer({ catalog: { schemas: 'schemas' }, transport: 'http', port: 0 });
//   console.log(server.url);
//   await server.close();
//
// Everything named here is a promise to every user, so it is kept small and declared here (or in
// the few leaf modules it names): the runtime's own Catalog has much more, for the CLI and the
// server, and may change with any release. The compiler holds the runtime to these types where
// loadCatalog hands its catalog out.

import { Catalog as RuntimeCatalog } from './runtime/catalog.js';
import { createServer as createRuntimeServer } from './runtime/server.js';
import { AccessGate } from './edge/auth.js';
import { DEFAULT_HOST } from './edge/origins.js';
import type { CallOptions, CallResult, DryRunResult } from './call/outcome.js';
import type { Finding } from './report/findings.js';
import type { PublicCatalogOptions as CatalogOptions } from './runtime/public-options.js';

export type {
  CallFailure,
  CallOptions,
  CallResult,
  DryRunResult,
  OutboundRecord,
  SentRequest,
  ToolError,
  ToolErrorKind,
} from './call/outcome.js';
export type { Decoded } from './http/decode.js';
export type { Finding, Severity } from './report/findings.js';
export type { Code } from './report/codes.js';
export { CODES } from './report/codes.js';
export type { PublicCatalogOptions as CatalogOptions } from './runtime/public-options.js';

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
  /** Calls a tool; with `dryRun: true`, builds the request it would send (keys redacted) and sends nothing. */
  call(nameOrReference: string, args: unknown, options: CallOptions & { dryRun: true }): Promise<DryRunResult>;
  call(nameOrReference: string, args: unknown, options?: CallOptions & { dryRun?: false }): Promise<CallResult>;
  /** `dryRun` known only at run time: either result. */
  call(nameOrReference: string, args: unknown, options?: CallOptions): Promise<CallResult | DryRunResult>;
  /** Findings of the schema files, then of the shared-list files that were read. */
  findings(): Finding[];
  /** Closes the sandbox, the HTTP client and the catalog's own state; a second call waits for the first. */
  close(): Promise<void>;
}

export function loadCatalog(options: CatalogOptions): Promise<Catalog> {
  return RuntimeCatalog.load(options);
}

export interface ServerOptions {
  /** The catalog to load and serve; the server closes it. */
  catalog: CatalogOptions;
  /** `stdio` speaks MCP on the process's stdin and stdout; `http` is Streamable HTTP. */
  transport: 'stdio' | 'http';
  /** http: the address to bind; default 127.0.0.1. */
  host?: string;
  /** http: the port; 0 picks a free one (default 3000, as `serve`). */
  port?: number;
  /** http: bearer tokens a client must present (each at least 32 characters); required to bind a non-loopback address. */
  authTokens?: readonly string[];
  /** http: origins a browser request may come from besides loopback pages, exact or `scheme://host:*`. */
  allowedOrigins?: readonly string[];
  /** http: keep one session per client (Mcp-Session-Id) instead of answering every request on its own. */
  sessions?: boolean;
  /** Text results longer than this many characters are cut. */
  maxResultChars?: number;
}

/** A running MCP server over a catalog. */
export interface Server {
  /** http: `http://host:port/mcp`. */
  readonly url?: string;
  /** Settles when the transport ends by itself (stdin closed); never over HTTP. */
  readonly ended: Promise<void>;
  /** Stops taking requests, lets running calls settle, then closes the catalog (sandbox, HTTP client, state). */
  close(): Promise<void>;
}

export async function createServer(options: ServerOptions): Promise<Server> {
  const {
    catalog,
    transport,
    host = DEFAULT_HOST,
    port,
    authTokens,
    allowedOrigins,
    sessions,
    maxResultChars,
  } = options;
  const access = AccessGate.create({ host, tokens: authTokens });
  return await createRuntimeServer({
    catalog,
    transport,
    serve: { host, port, allowedOrigins, sessions, maxResultChars, access },
  });
}
