// The two `flowguard serve` processes the fuzz suite attacks, built CLI and all: one over stdio
// (started by the SDK's stdio client), one over Streamable HTTP with sessions, both watching the
// schema folder, logging at debug, with the audit log, the response cache and Redis. A server
// that died (a hole) is started again before the next case, so one crash does not hide what the
// later cases would find.

import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { rawRequest } from '../edge/helpers.js';
import { waitFor } from '../support/wait.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'flowguard.js');

export type TransportName = 'stdio' | 'http';

/** `promise`, or `fallback` once `ms` pass: a server that hangs fails a property instead of the test's timeout. */
export function bounded<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

export interface Served {
  transport: TransportName;
  client: Client;
  pid: number;
  /** Everything every process of this transport wrote to stderr (logs included), restarts too. */
  stderr(): string;
  /** `/metrics` text (HTTP only; '' for stdio, which has none). */
  metrics(): Promise<string>;
  /** `/healthz` status for HTTP; for stdio, whether a ping is answered (200 or 0). */
  health(): Promise<number>;
  /** Why the process is gone ('' while it runs). */
  death(): string;
  /** Settles when the process is gone: calls in flight race it rather than wait out their timeout. */
  died: Promise<void>;
  /** Writes one JSON-RPC message as given (text the SDK client cannot make); the answer is not awaited. */
  sendRaw(message: string): Promise<void>;
  /** HTTP: the endpoint and the session its client holds. */
  endpoint?: { url: string; sessionId(): string | undefined };
  close(): Promise<void>;
}

/** The serve command line shared by both transports. */
export function serveArgs(project: string, redisUrl: string | null): string[] {
  return [
    BIN,
    'serve',
    '--schemas',
    join(project, 'schemas'),
    '--project',
    project,
    '--watch',
    '--log-level',
    'debug',
    ...(redisUrl ? ['--redis', redisUrl] : []),
  ];
}

function newClient(): Client {
  return new Client({ name: 'flowguard-fuzz', version: '1.0.0' });
}

export async function startStdio(args: string[], log: { text: string }): Promise<Served> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...args, '--transport', 'stdio'],
    env: { PATH: process.env.PATH ?? '' },
    cwd: ROOT,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (log.text += chunk.toString('utf8')));
  let death = '';
  let markDied = () => {};
  const died = new Promise<void>((resolve) => (markDied = resolve));
  transport.onclose = () => {
    death ||= 'the stdio transport closed';
    markDied();
  };
  const client = newClient();
  await client.connect(transport);
  return {
    transport: 'stdio',
    client,
    pid: transport.pid as number,
    stderr: () => log.text,
    metrics: async () => '',
    sendRaw: async (message) => {
      // The SDK keeps the child private; its stdin is the protocol's input.
      (transport as unknown as { _process?: ChildProcess })._process?.stdin?.write(`${message}\n`);
    },
    health: async () => {
      try {
        await client.ping({ timeout: 10_000 });
        return 200;
      } catch {
        return 0;
      }
    },
    death: () => death,
    died,
    close: async () => {
      await client.close().catch(() => undefined);
      // The SDK ends its child with SIGTERM; one that outlives the bound is killed.
      if (!(await waitFor(() => processUse(transport.pid ?? 0) === null, 10_000)))
        process.kill(transport.pid as number, 'SIGKILL');
    },
  };
}

/** `token`: the bearer token the client sends (the config holds its digest). */
export async function startHttp(args: string[], log: { text: string }, token: string): Promise<Served> {
  const child: ChildProcess = spawn(process.execPath, [...args, '--transport', 'http', '--port', '0', '--sessions'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const start = log.text.length;
  child.stderr?.on('data', (chunk: Buffer) => (log.text += chunk.toString('utf8')));
  let death = '';
  const died = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      death = `exited with ${code ?? signal}`;
      resolve();
    }),
  );
  const printed = () => /serving \d+ tools? at (\S+)/.exec(log.text.slice(start))?.[1];
  if (!(await waitFor(() => printed() !== undefined || death !== '', 30_000)))
    throw new Error(`the HTTP server did not start: ${log.text.slice(start)}`);
  const url = printed();
  if (url === undefined) throw new Error(`the HTTP server ${death}: ${log.text.slice(start)}`);
  const client = newClient();
  const auth = { authorization: `Bearer ${token}` };
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: auth } });
  await client.connect(transport);
  const base = url.replace(/\/mcp$/, '');
  return {
    transport: 'http',
    client,
    pid: child.pid as number,
    stderr: () => log.text,
    metrics: () =>
      bounded(
        rawRequest(`${base}/metrics`, { headers: auth }).then((answer) => answer.body),
        10_000,
        '',
      ),
    sendRaw: async (message) => {
      const session: Record<string, string> = transport.sessionId ? { 'mcp-session-id': transport.sessionId } : {};
      await rawRequest(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
          ...auth,
          ...session,
        },
        body: message,
      }).catch(() => undefined);
    },
    health: () =>
      bounded(
        rawRequest(`${base}/healthz`).then(
          (answer) => answer.status,
          () => 0,
        ),
        10_000,
        0,
      ),
    death: () => death,
    died,
    endpoint: { url, sessionId: () => transport.sessionId },
    close: async () => {
      await client.close().catch(() => undefined);
      if (death !== '') return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      if (!(await waitFor(() => death !== '', 10_000))) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Resident memory (bytes) and open file descriptors of a process, or null once it is gone. */
export function processUse(pid: number): { rss: number; fds: number } | null {
  try {
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return { rss: rssKb * 1024, fds: readdirSync(`/proc/${pid}/fd`).length };
  } catch {
    return null;
  }
}

/** The processes whose parent is `parent` (sandbox workers of a server, or leftovers of this test). */
export function childrenOf(parent: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) pids.push(Number(entry));
    } catch {
      // The process ended while it was read.
    }
  }
  return pids;
}
