// MCP serving costs, each next to baselines from the same run:
//
// 1. Tool calls: 1,000 sequential `tools/call` of one route through a spawned
//    `flowguard serve --transport stdio` and a spawned `--transport http` server (SDK clients in
//    this process), next to the in-process `catalog.call` and a raw `undici.request` of the same
//    URL. The four are interleaved call by call, against one loopback upstream in a process of
//    its own, so every figure sees the same machine at the same moment.
// 2. Start-up: from spawning `flowguard serve --transport stdio` on 300 generated schemas (40 %
//    with handlers, so the sandbox starts too) to the first `tools/list` answer, complete on
//    stdout (the protocol spoken by hand), cold (no check cache) and warm, with the moment the
//    catalog was loaded; then the same
//    through the SDK Client, which also compiles a validator for every outputSchema it is sent;
//    next to the start of a bare `node` process. Target: under 1 s.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { request } from 'undici';
import { Catalog } from '../src/runtime/catalog.js';
import { generateCatalog } from './generate.js';
import { formatMs, median, percentile } from './stats.js';
import { priceSchema, startPriceUpstream } from './upstream.js';

const CALLS = 1000;
const WARM_UP = 100;
const STARTUP_FILES = 300;
const STARTUP_RUNS = 3;
const STARTUP_TARGET_MS = 1000;

// dist/bench/mcp.js → the package root.
const BIN = fileURLToPath(new URL('../../bin/flowguard.js', import.meta.url));
const KEY = 'bench-key-value';

// The servers get the key as an operator grants it: an environment variable named in security.keys.
const serverEnv = () => ({ PATH: process.env.PATH ?? '', BENCH_KEY: KEY });
const GRANT = JSON.stringify({ security: { keys: ['BENCH_KEY'] } });

async function connectStdio(args: string[]): Promise<Client> {
  const client = new Client({ name: 'flowguard-bench', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'serve', '--transport', 'stdio', '--tools', 'all', ...args],
      env: serverEnv(),
      stderr: 'ignore',
    }),
  );
  return client;
}

/** A spawned HTTP server on a free port; resolves with its URL once it listens. */
function spawnHttp(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--transport', 'http', '--port', '0', '--tools', 'all', ...args],
    { env: serverEnv(), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const url = /serving \d+ tools at (\S+)/.exec(stderr)?.[1];
      if (url) resolve({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`flowguard serve --transport http exited ${code}: ${stderr}`)));
  });
}

const elapsedMs = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

export async function benchMcpCalls(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'flowguard-bench-mcp-'));
  const { child: upstream, port } = await startPriceUpstream(dir);
  const origin = `http://127.0.0.1:${port}`;
  const children: ChildProcess[] = [upstream];
  const clients: Client[] = [];
  let catalog: Catalog | undefined;
  try {
    writeFileSync(join(dir, 'bench.mjs'), priceSchema({ handlers: false }));
    mkdirSync(join(dir, '.flowmcp'));
    writeFileSync(join(dir, '.flowmcp', 'config.json'), GRANT);
    const args = ['--schemas', join(dir, 'bench.mjs'), '--project', dir, '--upstream', `*=${origin}`];
    catalog = await Catalog.load({
      schemas: join(dir, 'bench.mjs'),
      project: dir,
      env: { BENCH_KEY: KEY },
      upstreams: { '*': origin },
    });
    const stdio = await connectStdio(args);
    clients.push(stdio);
    const http = await spawnHttp(args);
    children.push(http.child);
    const httpClient = new Client({ name: 'flowguard-bench', version: '1.0.0' });
    await httpClient.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    clients.push(httpClient);
    await Promise.all([stdio.listTools(), httpClient.listTools()]); // the client then validates structuredContent, as real ones do

    const url = `${origin}/v1/price/eth?currency=usd`;
    const params = { name: 'bench_getPrice', arguments: { symbol: 'eth' } };
    const samples = { stdio: [] as number[], http: [] as number[], catalog: [] as number[], raw: [] as number[] };
    for (let i = 0; i < CALLS + WARM_UP; i += 1) {
      let start = process.hrtime.bigint();
      const overStdio = await stdio.callTool(params);
      const stdioMs = elapsedMs(start);
      start = process.hrtime.bigint();
      const overHttp = await httpClient.callTool(params);
      const httpMs = elapsedMs(start);
      start = process.hrtime.bigint();
      const inProcess = await catalog.call('bench_getPrice', { symbol: 'eth' });
      const catalogMs = elapsedMs(start);
      start = process.hrtime.bigint();
      const response = await request(url, { headers: { 'x-api-key': KEY } });
      await response.body.json();
      const rawMs = elapsedMs(start);
      if (overStdio.isError || overHttp.isError || !inProcess.ok || !overStdio.structuredContent)
        throw new Error(`bench call failed: ${JSON.stringify({ overStdio, overHttp, inProcess })}`);
      if (i >= WARM_UP) {
        samples.stdio.push(stdioMs);
        samples.http.push(httpMs);
        samples.catalog.push(catalogMs);
        samples.raw.push(rawMs);
      }
    }
    const p50 = {
      stdio: median(samples.stdio),
      http: median(samples.http),
      catalog: median(samples.catalog),
      raw: median(samples.raw),
    };
    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
    return [
      `MCP tool calls: ${CALLS} sequential tools/call of one route (key header, outputSchema checked), spawned servers, loopback upstream in its own process`,
      `  over stdio:            p50 ${formatMs(p50.stdio)}, p99 ${formatMs(percentile(samples.stdio, 99))}; ${ratio(p50.stdio, p50.catalog)} catalog.call, ${ratio(p50.stdio, p50.raw)} raw undici`,
      `  over Streamable HTTP:  p50 ${formatMs(p50.http)}, p99 ${formatMs(percentile(samples.http, 99))}; ${ratio(p50.http, p50.catalog)} catalog.call, ${ratio(p50.http, p50.raw)} raw undici`,
      `  baseline catalog.call in process: p50 ${formatMs(p50.catalog)}; raw undici.request: p50 ${formatMs(p50.raw)}`,
      `  MCP layer + transport over catalog.call: stdio +${formatMs(p50.stdio - p50.catalog)}, HTTP +${formatMs(p50.http - p50.catalog)}`,
    ];
  } finally {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await catalog?.close();
    for (const child of children) child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchMcpStartup(): Promise<string[]> {
  const generated = generateCatalog({ count: STARTUP_FILES, seed: 20261122, handlerShare: 0.4 });
  const args = ['--schemas', generated.dir, '--project', generated.dir];
  try {
    const onTheWire: number[] = [];
    const serving: number[] = [];
    const viaSdk: number[] = [];
    const bareNode: number[] = [];
    const cold: number[] = [];
    // Cold starts check every file and write no cache; then one start fills the cache, and the
    // runs after it are warm starts.
    for (let run = 0; run < STARTUP_RUNS; run += 1) cold.push((await rawStartup([...args, '--no-cache'])).listed);
    await rawStartup(args);
    let tools = 0;
    for (let run = 0; run < STARTUP_RUNS; run += 1) {
      let start = process.hrtime.bigint();
      await new Promise<void>((resolve, reject) =>
        spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
          .once('exit', () => resolve())
          .once('error', reject),
      );
      bareNode.push(elapsedMs(start));
      const raw = await rawStartup(args);
      onTheWire.push(raw.listed);
      serving.push(raw.serving);
      tools = raw.tools;
      start = process.hrtime.bigint();
      const client = await connectStdio(args);
      await client.listTools();
      viaSdk.push(elapsedMs(start));
      await client.close();
    }
    const p50 = median(onTheWire);
    return [
      `MCP start-up: spawn of flowguard serve --transport stdio on ${STARTUP_FILES} generated schemas (40 % with handlers) to the first tools/list answer (${tools} tools), Node ${process.versions.node}`,
      `  cold start (--no-cache: every file parsed and checked), ${STARTUP_RUNS} runs: p50 ${formatMs(median(cold))} (runs: ${cold.map(formatMs).join(', ')}); target p50 < ${STARTUP_TARGET_MS} ms: ${median(cold) < STARTUP_TARGET_MS ? 'met' : 'MISSED'}`,
      `  warm start (unchanged files from .flowmcp/cache/), ${STARTUP_RUNS} runs: answer complete on stdout: p50 ${formatMs(p50)} (runs: ${onTheWire.map(formatMs).join(', ')}); catalog loaded and summary printed at p50 ${formatMs(median(serving))}, so the MCP layer's share is ${formatMs(p50 - median(serving))}`,
      `  with the SDK Client (connect + listTools resolved, which includes the client compiling a validator per outputSchema): p50 ${formatMs(median(viaSdk))}`,
      `  baseline bare node process start and exit: p50 ${formatMs(median(bareNode))}; ratio ${(p50 / median(bareNode)).toFixed(1)}x`,
      `  target p50 < ${STARTUP_TARGET_MS} ms for the warm start: ${p50 < STARTUP_TARGET_MS ? 'met' : 'MISSED'}`,
    ];
  } finally {
    rmSync(generated.dir, { recursive: true, force: true });
  }
}

/** The protocol spoken by hand: when the summary appeared, and when the tools/list answer was complete. */
async function rawStartup(args: string[]): Promise<{ serving: number; listed: number; tools: number }> {
  const start = process.hrtime.bigint();
  const child = spawn(process.execPath, [BIN, 'serve', '--transport', 'stdio', '--tools', 'all', ...args], {
    env: serverEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const send = (message: object) => child.stdin?.write(`${JSON.stringify(message)}\n`);
  let serving = Number.NaN;
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    if (Number.isNaN(serving) && stderr.includes('serving')) serving = elapsedMs(start);
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  send({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'flowguard-bench', version: '1.0.0' },
    },
  });
  const result = await new Promise<{ listed: number; tools: number }>((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`flowguard serve exited ${code}: ${stderr}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      let newline: number;
      while ((newline = out.indexOf('\n')) !== -1) {
        const message = JSON.parse(out.slice(0, newline)) as { id?: number; result?: { tools?: unknown[] } };
        out = out.slice(newline + 1);
        if (message.id === 0) {
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
        } else if (message.id === 1) resolve({ listed: elapsedMs(start), tools: message.result?.tools?.length ?? 0 });
      }
    });
  });
  child.stdin?.end();
  await exited;
  return { serving, ...result };
}

/** Both MCP benchmarks, for `npm run bench`. */
export async function benchMcp(): Promise<string[]> {
  return [...(await benchMcpCalls()), ...(await benchMcpStartup())];
}
