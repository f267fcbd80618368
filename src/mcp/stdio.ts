// MCP over stdio: stdin and stdout carry the protocol and nothing else. Anything that would
// print to stdout through `console` (a stray log line in a dependency) goes to stderr instead,
// where every log of the server belongs. The server closes when stdin ends (the client went
// away) or when `close()` is called.

import { format } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { LiveCatalog } from './live-catalog.js';
import type { ServedCatalog as Catalog } from './served-catalog.js';
import { createMcpServer, notifyToolChanges, type McpServerOptions } from './server.js';

export interface StdioServer {
  /** Settles once the server has closed, by `close()` or because stdin ended. */
  closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveStdio(
  source: Catalog | LiveCatalog,
  options: McpServerOptions = {},
  stdin: NodeJS.ReadableStream = process.stdin,
  stdout: NodeJS.WritableStream = process.stdout,
): Promise<StdioServer> {
  if (stdout === process.stdout) routeConsoleToStderr();
  const catalog = LiveCatalog.of(source);
  const server = createMcpServer(catalog, options);
  const stopNotifying = notifyToolChanges(catalog, server);
  const transport = new StdioServerTransport(stdin as NodeJS.ReadStream, stdout as NodeJS.WriteStream);
  let resolveClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    stopNotifying();
    closing ??= server
      .close()
      .catch(() => undefined)
      .then(() => resolveClosed());
    return closing;
  };
  server.onclose = () => void close();
  server.onerror = (error) =>
    (options.log ?? ((line: string) => process.stderr.write(`${line}\n`)))(
      catalog.current.redact(`flowguard: stdio: ${error.message}`),
    );
  stdin.once('end', () => void close());
  await server.connect(transport);
  return { closed, close };
}

function routeConsoleToStderr(): void {
  const toStderr = (...args: unknown[]) => void process.stderr.write(`${format(...args)}\n`);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}
