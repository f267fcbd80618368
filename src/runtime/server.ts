// A catalog served over MCP, as `flowguard serve` serves it and as a program that embeds
// flowguard builds the same server (src/index.ts). The server owns what it serves and what it is
// handed, and closes all of it in one order, the last opened first (as Fastify's onClose hooks
// run): the transport (no new requests), then the catalog (its calls settle, then its sandbox and
// HTTP client), then what the caller opened for it (shared state, logs).

import type { HttpServeOptions } from '../edge/http.js';
import { LiveCatalog } from '../mcp/live-catalog.js';
import { Catalog } from './catalog.js';
import { type CatalogOptions } from './catalog-options.js';

/** Something a server holds open until it closes. */
export interface Closable {
  close(): Promise<void> | void;
}

/**
 * What a server holds, closed in the reverse order it was taken, each once and each awaited
 * before the next; a part that fails to close does not keep the others open (the first failure
 * is thrown once all are closed). A second close() waits for the first.
 */
export class ClosingOrder {
  private readonly held: Closable[] = [];
  private closing: Promise<void> | undefined;

  /** Holds `part` (once, however often it is given) and returns it. */
  add<T extends Closable>(part: T): T {
    if (!this.held.includes(part)) this.held.push(part);
    return part;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      const failures: unknown[] = [];
      for (const part of [...this.held].reverse()) {
        try {
          await part.close();
        } catch (error) {
          failures.push(error);
        }
      }
      if (failures.length > 0) throw failures[0];
    })();
    return this.closing;
  }
}

export interface ServerOptions {
  /** What to serve: options to load a catalog with, or a catalog (or its live holder) loaded already. The server closes it. */
  catalog: CatalogOptions | Catalog | LiveCatalog<Catalog>;
  transport: 'stdio' | 'http';
  /** The MCP server's options and, over HTTP, where it listens and who may call (src/edge/http.ts). */
  serve?: HttpServeOptions;
  /** What the caller opened for this server; the server closes it after its own parts, the last added first. */
  opened?: ClosingOrder;
  /** stdio only: the streams of the protocol (default the process's). */
  stdio?: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream };
}

export interface Server {
  /** The catalog served now: `serve --watch` swaps in a new one. */
  readonly live: LiveCatalog<Catalog>;
  /** Over HTTP, `http://host:port/mcp`. */
  readonly url?: string;
  /** Over HTTP with OAuth, the resource its access tokens must be issued for. */
  readonly resource?: string;
  /** Settles when the transport ends by itself (stdin closed); never over HTTP. */
  readonly ended: Promise<void>;
  /** Closes the transport, the catalog and what the caller handed over, in that order. */
  close(): Promise<void>;
}

export async function createServer(options: ServerOptions): Promise<Server> {
  const closing = options.opened ?? new ClosingOrder();
  try {
    const live = closing.add(await servedCatalog(options.catalog));
    // Only the chosen transport's modules load (the MCP SDK is about a quarter of a second).
    if (options.transport === 'stdio') {
      const { serveStdio } = await import('../mcp/stdio.js');
      const stdio = closing.add(await serveStdio(live, options.serve, options.stdio?.stdin, options.stdio?.stdout));
      return { live, ended: stdio.closed, close: () => closing.close() };
    }
    const { startHttpServer } = await import('../edge/http.js');
    const http = closing.add(await startHttpServer(live, options.serve));
    return {
      live,
      url: http.url,
      resource: http.resource,
      ended: new Promise<void>(() => undefined),
      close: () => closing.close(),
    };
  } catch (error) {
    await closing.close().catch(() => undefined);
    throw error;
  }
}

async function servedCatalog(source: ServerOptions['catalog']): Promise<LiveCatalog<Catalog>> {
  if (source instanceof LiveCatalog) return source;
  return new LiveCatalog(source instanceof Catalog ? source : await Catalog.load(source));
}
