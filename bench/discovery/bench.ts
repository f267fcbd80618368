// Discovery on the 3.0.0 catalog (FLOWGUARD_BENCH_V3_CORPUS, default ../shared/corpora/flowmcp-v3
// next to the project; skipped, saying so, when absent), served with every key granted (fake
// values: nothing is called): the query set's hit@1, hit@5, MRR and "none" figures; search
// latency p50/p99; index build time and heap next to the catalog's load; the tools/list size in
// tokens (o200k, gpt-tokenizer) of each mode, through a real MCP client in this process.

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { Catalog } from '../../src/runtime/catalog.js';
import { ToolIndex } from '../../src/discovery/tool-index.js';
import { createMcpServer } from '../../src/mcp/server.js';
import type { DiscoveryMode } from '../../src/discovery/served.js';
import { formatMs, percentile } from '../stats.js';
import { measureQuality, type Query } from './quality.js';

// dist/bench/discovery/bench.js → the package root.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const QUERIES = join(ROOT, 'bench', 'discovery', 'queries.json');
const LATENCY_ROUNDS = 5;

/** A full collection before each heap reading, also when node was started without --expose-gc. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

export async function benchDiscovery(): Promise<string[]> {
  const corpus = resolve(process.env.FLOWGUARD_BENCH_V3_CORPUS ?? join(ROOT, '../shared/corpora/flowmcp-v3'));
  const schemas = join(corpus, 'providers');
  if (!existsSync(schemas)) return [`discovery: skipped, no 3.0.0 corpus at ${schemas} (set FLOWGUARD_BENCH_V3_CORPUS)`];
  const lists = join(corpus, '_lists');
  // A project folder of its own: no config, no .env, nothing written next to the corpus.
  const project = mkdtempSync(join(tmpdir(), 'flowguard-bench-discovery-'));
  const options = { schemas, lists, project, env: {}, sandbox: { size: 1 } };
  // Every key the catalog asks for, granted with a fake value: every tool served, as an operator with all keys would.
  const firstStart = performance.now();
  const probe = await Catalog.load(options);
  const firstLoadMs = performance.now() - firstStart;
  const keys = Object.fromEntries(probe.tools.flatMap((tool) => tool.requiredKeys).map((key) => [key, `bench-${key}`]));
  await probe.close();

  const gc = collector();
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const loadStart = performance.now();
  const catalog = await Catalog.load({ ...options, keys });
  const loadMs = performance.now() - loadStart;
  const loadHeap = process.memoryUsage().heapUsed - heapBefore;
  const loadedRss = process.memoryUsage().rss;
  try {
    const tools = catalog.visibleTools();
    gc();
    const indexHeapBefore = process.memoryUsage().heapUsed;
    const buildStart = performance.now();
    const index = new ToolIndex(tools);
    const buildMs = performance.now() - buildStart;
    gc();
    const indexHeap = process.memoryUsage().heapUsed - indexHeapBefore;

    const queries = JSON.parse(readFileSync(QUERIES, 'utf8')) as Query[];
    const quality = measureQuality(queries, (query) => index.find(query, { limit: 10 }).map((hit) => hit.name));
    const latencies: number[] = [];
    for (let round = 0; round < LATENCY_ROUNDS; round += 1) {
      for (const { query } of queries) {
        const start = performance.now();
        index.find(query, { limit: 8 });
        latencies.push(performance.now() - start);
      }
    }
    const share = (n: number) => n.toFixed(2);
    const mib = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MiB`;
    return [
      `discovery: ${tools.length} tools of ${corpus} (every key granted); ${queries.length} requests (${quality.answerable} answerable, ${quality.unanswerable} not)`,
      `  hit@1 ${share(quality.hit1)}  hit@5 ${share(quality.hit5)}  MRR ${share(quality.mrr)}  (targets 0.70, 0.90, 0.80)`,
      `  "none": ${share(quality.noneRecognised)} of unanswerable requests recognised (target ≥ 0.60), ${share(quality.answerableRefused)} of answerable ones refused (target ≤ 0.10)`,
      `  search latency over ${latencies.length} searches: p50 ${formatMs(percentile(latencies, 50))}, p99 ${formatMs(percentile(latencies, 99))} (target p50 ≤ 2 ms)`,
      `  index build ${formatMs(buildMs)}, heap ${mib(indexHeap)}; catalog load ${formatMs(loadMs)} (the process's first load, without keys: ${formatMs(firstLoadMs)}), heap ${mib(loadHeap)}, process RSS once loaded ${mib(loadedRss)} (target ≤ 10 % of load)`,
      ...(await listingTokens(catalog)),
    ];
  } finally {
    await catalog.close();
    rmSync(project, { recursive: true, force: true });
  }
}

/** tools/list of each mode through a real client, in tokens (o200k) and bytes; also the part a client hands its model (name, description, input schema). */
async function listingTokens(catalog: Catalog): Promise<string[]> {
  const lines: string[] = [];
  for (const mode of ['all', 'search'] as DiscoveryMode[]) {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = createMcpServer(catalog, { discovery: mode, log: () => undefined });
    await server.connect(serverSide);
    const client = new Client({ name: 'flowguard-bench', version: '1.0.0' });
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    const text = JSON.stringify(tools);
    const modelPart = JSON.stringify(tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })));
    const largest = tools.map((tool) => ({ name: tool.name, tokens: countTokens(JSON.stringify(tool)) })).reduce((a, b) => (b.tokens > a.tokens ? b : a));
    lines.push(`  tools/list --tools ${mode}: ${tools.length} tools, ${(text.length / 1024).toFixed(0)} kB, ${countTokens(text)} tokens (name+description+inputSchema: ${countTokens(modelPart)}); largest definition ${largest.name}, ${largest.tokens} tokens`);
    await client.close();
    await server.close();
  }
  return lines;
}
