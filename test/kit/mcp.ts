// The one MCP harness: the official SDK client over the real transports, against a flowguard
// server spawned as an operator starts it (stdio, or Streamable HTTP on a free port) or one a
// test started in its own process (`startHttpServer`, then `connectHttp`). Errors the client's
// protocol layer reports are collected, so a test can assert there were none.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BIN, ROOT, startFlowguard, type RunningFlowguard, type SpawnOptions } from './spawn.js';

export interface McpConnection {
  client: Client;
  /** Errors the client's protocol layer reported (an unknown progress token, a bad message). */
  errors: Error[];
  /** What the server wrote to stderr so far (spawned stdio servers only). */
  stderr(): string;
  close(): Promise<void>;
}

function newClient(): { client: Client; errors: Error[] } {
  const client = new Client({ name: 'flowguard-test', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  return { client, errors };
}

/** `flowguard serve --transport stdio <args>` spawned by the SDK's stdio transport; its environment is PATH plus `env`. */
export function connectStdio(
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<McpConnection> {
  return connectSpawned([BIN, 'serve', '--transport', 'stdio', ...args], options);
}

/** `node <argv>` (a whole command line: the script, its command and flags) spawned by the SDK's stdio transport, its stderr collected. */
export async function connectSpawned(
  argv: readonly string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<McpConnection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...argv],
    env: { PATH: process.env.PATH ?? '', ...options.env },
    cwd: options.cwd ?? ROOT,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const { client, errors } = newClient();
  await client.connect(transport);
  return { client, errors, stderr: () => stderr, close: () => client.close() };
}

/** The names of the tools a client is listed, sorted. */
export async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name).sort();
}

/** A client over Streamable HTTP to `url`, sending `headers` (an Authorization header, say) on every request. */
export async function connectHttp(url: string, headers: Record<string, string> = {}): Promise<McpConnection> {
  const { client, errors } = newClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return { client, errors, stderr: () => '', close: () => client.close() };
}

export interface SpawnedHttpServer extends RunningFlowguard {
  /** The /mcp URL the server printed. */
  url: string;
}

const SERVING = /serving \d+ tools? at (\S+)/;

/**
 * `flowguard serve --transport http --port 0 <args>` spawned, once it printed where it serves.
 * Rejects with its stderr when it ends or stays silent for `readyMs` first.
 */
export async function spawnHttpServer(
  args: readonly string[],
  options: SpawnOptions & { readyMs?: number } = {},
): Promise<SpawnedHttpServer> {
  const server = startFlowguard(['serve', '--transport', 'http', '--port', '0', ...args], {
    timeoutMs: 120_000,
    ...options,
  });
  if (!(await server.waitForStderr(SERVING, options.readyMs ?? 20_000))) {
    await server.stop();
    throw new Error(`flowguard serve did not start:\n${server.stderr()}`);
  }
  return Object.assign(server, { url: (SERVING.exec(server.stderr()) as RegExpExecArray)[1] as string });
}
