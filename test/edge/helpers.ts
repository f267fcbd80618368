// Real parts for the edge suites: raw node:http requests (headers exactly as given, Host
// included, which fetch would not allow), and the sandbox worker processes of this process.

import { request } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with exactly these headers (a `host` among them replaces the one node would send). */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

export const LIST_BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A JSON-RPC tools/list as a raw POST, with extra headers. */
export function postList(url: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return rawRequest(url, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: LIST_BODY });
}

/** Process ids of the sandbox worker processes that `parent` started (read from /proc). */
export function sandboxWorkers(parent = process.pid): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('sandbox/worker.js'))
        pids.push(Number(entry));
    } catch {
      // The process ended while it was read.
    }
  }
  return pids;
}

/** The value of each sample of a Prometheus text exposition, by `name{labels}` as written. */
export function parseMetrics(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const split = line.lastIndexOf(' ');
    samples.set(line.slice(0, split), Number(line.slice(split + 1)));
  }
  return samples;
}
