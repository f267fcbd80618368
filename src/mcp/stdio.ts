// MCP over stdio: stdin and stdout carry the protocol and nothing else. Anything that would
// print to stdout through `console` (a stray log line in a dependency) goes to stderr instead,
// where every log of the server belongs. The server closes when stdin ends (the client went
// away) or when `close()` is called. A line longer than MAX_LINE_BYTES is dropped and answered
// with an error, and the server goes on (stdio-lines.ts).

import { format } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { LiveCatalog } from './live-catalog.js';
import { boundedLines } from './stdio-lines.js';
import type { ServedCatalog as Catalog } from './served-catalog.js';
import { createMcpServer, notifyToolChanges, type McpServerOptions } from './server.js';
import { logLine } from '../shared/terminal-text.js';

export interface StdioServer {
  /** Settles once the server has closed, by `close()` or because stdin ended. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/** Longest line read from the client: the SDK's own bound, past which it would close the transport. */
const MAX_LINE_BYTES = 10 * 1024 * 1024;

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
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const lines = boundedLines(stdin, MAX_LINE_BYTES, (bytes) => {
    log(`flowguard: stdio: a line of ${bytes} bytes dropped (longer than ${MAX_LINE_BYTES})`);
    // Its id was never read: the answer names none (JSON-RPC's Invalid Request).
    stdout.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid Request: a line longer than ${MAX_LINE_BYTES} bytes was dropped` } })}\n`,
    );
  });
  const transport = new StdioServerTransport(lines, stdout as NodeJS.WriteStream, {
    maxBufferSize: MAX_LINE_BYTES + 1,
  });
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
      .then(() => {
        // As the SDK's transport leaves stdin when it reads it itself: paused, so it holds no process open.
        stdin.unpipe(lines);
        if (stdin.listenerCount('data') === 0) stdin.pause();
        resolveClosed();
      });
    return closing;
  };
  server.onclose = () => void close();
  // The transport's errors quote what the client wrote: escaped, one line.
  server.onerror = (error) => log(logLine(catalog.current.redact(`flowguard: stdio: ${error.message}`)));
  // The transport reads the lines, so it no longer hears stdin's errors: logged here, as it logged them.
  stdin.on('error', (error: Error) => server.onerror?.(error));
  // The lines' end comes after the last line read: stdin's own could come before it is served.
  lines.once('end', () => void close());
  await server.connect(transport);
  return { closed, close };
}

function routeConsoleToStderr(): void {
  const toStderr = (...args: unknown[]) => void process.stderr.write(`${format(...args)}\n`);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}
