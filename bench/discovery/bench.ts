// Discovery on the 3.0.0 catalog (FLOWGUARD_BENCH_V3_CORPUS, default ../shared/corpora/flowmcp-v3
// next to the project; skipped, saying so, when absent), served with every key granted (fake
// values: nothing is called): the query set's hit@1, hit@5, MRR and "none" figures, and beside
// them the five unseen sets' over the same catalog, and the held-out set's and the unseen5 and
// unseen7 sets' over the 2.0.0 catalog (FLOWGUARD_BENCH_CORPUS, query-sets.ts); search latency p50/p99; the index's time and memory at three starts, each in a fresh process
// (start-probe.ts) next to that process's catalog load: (a) warm (the whole index read from its
// cache), (b) one schema file changed (the whole index missed, that file's terms made, the others'
// read), (c) fully cold (no index cache and no check cache: the load is cold too); the tools/list size
// in tokens (o200k, gpt-tokenizer) of each mode, through a real MCP client in this process.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { Catalog } from '../../src/runtime/catalog.js';
import { searchCacheDir } from '../../src/discovery/index-cache.js';
import { termCacheDir } from '../../src/discovery/term-cache.js';
import { ToolIndex } from '../../src/discovery/tool-index.js';
import { createMcpServer } from '../../src/mcp/server.js';
import type { DiscoveryMode } from '../../src/discovery/served.js';
import { formatMs, percentile } from '../stats.js';
import { measureQuality, type Quality, type Query } from './quality.js';
import { everyKey, querySets, type QuerySet } from './query-sets.js';

// dist/bench/discovery/bench.js → the package root.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const LATENCY_ROUNDS = 5;

/** The heap and the typed arrays' buffers (outside the heap, where the index keeps its postings), after a full collection (also when node was started without --expose-gc). */
function memoryMeter(): () => number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return () => {
    gc();
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    return heapUsed + arrayBuffers;
  };
}

export async function benchDiscovery(): Promise<string[]> {
  const { tuned, heldOut, unseen, unseen2, unseen3, unseen4, unseen5, unseen6, unseen7 } = querySets(ROOT);
  const unseenSets = [unseen, unseen2, unseen3, unseen4, unseen6];
  const overV2: [QuerySet, ...QuerySet[]] = [heldOut, unseen5, unseen7];
  const { corpus, schemas, lists } = tuned;
  if (!existsSync(schemas))
    return [
      `discovery: skipped, no 3.0.0 corpus at ${schemas} (set ${tuned.variable})`,
      ...unseenSets.map(skippedLine),
      ...(await ownCatalogLines(overV2)),
    ];
  // A project folder of its own: no config, no .env, nothing written next to the corpus.
  const project = mkdtempSync(join(tmpdir(), 'flowguard-bench-discovery-'));
  const options = { schemas, lists, project, env: {}, sandbox: { size: 1 } };
  const firstStart = performance.now();
  const keys = await everyKey(options);
  const firstLoadMs = performance.now() - firstStart;

  const memory = memoryMeter();
  const heapBefore = memory();
  const loadStart = performance.now();
  const catalog = await Catalog.load({ ...options, keys });
  const loadMs = performance.now() - loadStart;
  const loadHeap = memory() - heapBefore;
  const loadedRss = process.memoryUsage().rss;
  try {
    const tools = catalog.visibleTools();
    const index = new ToolIndex(tools);
    // Fills the project's index caches (the whole index and every file's terms) for the starts below.
    await new ToolIndex(tools, { cacheDir: searchCacheDir(project) }).termsStored;
    const keysFile = join(project, 'bench-keys.json');
    writeFileSync(keysFile, JSON.stringify(keys));
    const warm = startProbe(schemas, lists, project, keysFile);
    forgetOneFile(project);
    const oneFile = startProbe(schemas, lists, project, keysFile);
    const coldProject = mkdtempSync(join(tmpdir(), 'flowguard-bench-discovery-cold-'));
    const cold = (() => {
      try {
        return startProbe(schemas, lists, coldProject, keysFile);
      } finally {
        rmSync(coldProject, { recursive: true, force: true });
      }
    })();

    const queries = JSON.parse(readFileSync(tuned.queries, 'utf8')) as Query[];
    const quality = measureSet(index, queries);
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
      `discovery: ${tools.length} tools of ${corpus} (every key granted)`,
      ...qualityLines(tuned, quality),
      ...unseenSets.flatMap((set) =>
        qualityLines(set, measureSet(index, JSON.parse(readFileSync(set.queries, 'utf8')) as Query[])),
      ),
      ...(await ownCatalogLines(overV2)),
      `  search latency over ${latencies.length} searches: p50 ${formatMs(percentile(latencies, 50))}, p99 ${formatMs(percentile(latencies, 99))} (target p50 ≤ 2 ms)`,
      `  catalog load ${formatMs(loadMs)} (the process's first load, without keys: ${formatMs(firstLoadMs)}), memory ${mib(loadHeap)}, process RSS once loaded ${mib(loadedRss)}`,
      `  index at a start, each a fresh process, against its own catalog load (targets ≤ 0.10; CPU time's share in brackets):`,
      `    (a) warm, the whole index from its cache: load ${formatMs(warm.loadMs)}, ${mib(warm.loadHeap)}; index ${formatMs(warm.indexMs)} = ${share(warm.indexMs / warm.loadMs)} of load [${share(warm.indexCpuMs / warm.loadCpuMs)}], memory ${mib(warm.indexHeap)} = ${share(warm.indexHeap / warm.loadHeap)}`,
      `    (b) one schema file changed (${oneFile.made} file's terms made, ${oneFile.read} read): load ${formatMs(oneFile.loadMs)}; index ${formatMs(oneFile.indexMs)} = ${share(oneFile.indexMs / oneFile.loadMs)} of load [${share(oneFile.indexCpuMs / oneFile.loadCpuMs)}], memory ${mib(oneFile.indexHeap)} = ${share(oneFile.indexHeap / oneFile.loadHeap)}`,
      `    (c) fully cold, no index cache (${cold.made} files' terms made) and no check cache: load ${formatMs(cold.loadMs)}, ${mib(cold.loadHeap)}; index ${formatMs(cold.indexMs)} = ${share(cold.indexMs / cold.loadMs)} of the cold load [${share(cold.indexCpuMs / cold.loadCpuMs)}], ${share(cold.indexMs / warm.loadMs)} of the warm load (a) [${share(cold.indexCpuMs / warm.loadCpuMs)}], ${share(cold.indexMs / cold.readyMs)} [${share(cold.indexCpuMs / cold.readyCpuMs)}] of the process's time to a callable catalog (from its start: ${formatMs(cold.readyMs)}) (then ${formatMs(cold.storedMs)} writing the terms, off the start's path); memory ${mib(cold.indexHeap)} = ${share(cold.indexHeap / cold.loadHeap)} of the cold load's, ${share(cold.indexHeap / warm.loadHeap)} of the warm load's`,
      ...(await listingTokens(catalog)),
    ];
  } finally {
    await catalog.close();
    rmSync(project, { recursive: true, force: true });
  }
}

/** How the index ranks a query set (the first ten of each request). */
function measureSet(index: ToolIndex, queries: readonly Query[]): Quality {
  return measureQuality(queries, (query) => index.find(query, { limit: 10 }).map((hit) => hit.name));
}

/** A query set's figures beside the targets, under its label. */
function qualityLines(set: QuerySet, quality: Quality, catalog = ''): string[] {
  const share = (n: number) => n.toFixed(2);
  return [
    `  ${set.label}${catalog}: ${quality.answerable + quality.unanswerable} requests (${quality.answerable} answerable, ${quality.unanswerable} not)`,
    `    hit@1 ${share(quality.hit1)}  hit@5 ${share(quality.hit5)}  MRR ${share(quality.mrr)}  (targets 0.70, 0.90, 0.80)`,
    `    "none": ${share(quality.noneRecognised)} of unanswerable requests recognised (target ≥ 0.60), ${share(quality.answerableRefused)} of answerable ones refused (target ≤ 0.10)`,
  ];
}

/** The line standing for a set whose corpus is absent. */
function skippedLine(set: QuerySet): string {
  return `  ${set.label}: skipped, no ${set.catalog} corpus at ${set.corpus} (set ${set.variable})`;
}

/**
 * The figures of sets over one catalog other than the tuned set's (the held-out, unseen5 and unseen7 sets'
 * 2.0.0), loaded once and served with every key granted; a line for each saying so when its corpus is absent.
 */
async function ownCatalogLines(sets: readonly [QuerySet, ...QuerySet[]]): Promise<string[]> {
  const [first] = sets;
  if (!existsSync(first.lists)) return sets.map(skippedLine);
  const project = mkdtempSync(join(tmpdir(), 'flowguard-bench-heldout-'));
  const options = { schemas: first.schemas, lists: first.lists, project, env: {}, sandbox: { size: 1 } };
  const catalog = await Catalog.load({ ...options, keys: await everyKey(options) });
  try {
    const tools = catalog.visibleTools();
    const index = new ToolIndex(tools);
    return sets.flatMap((set) =>
      qualityLines(
        set,
        measureSet(index, JSON.parse(readFileSync(set.queries, 'utf8')) as Query[]),
        `, ${tools.length} tools of ${set.corpus} (every key granted)`,
      ),
    );
  } finally {
    await catalog.close();
    rmSync(project, { recursive: true, force: true });
  }
}

interface StartFigures {
  loadMs: number;
  loadHeap: number;
  indexMs: number;
  indexHeap: number;
  /** CPU time of the process during each step. */
  loadCpuMs: number;
  indexCpuMs: number;
  /** Time and CPU time from the process's start to a loaded catalog. */
  readyMs: number;
  readyCpuMs: number;
  /** How long writing the terms made took, after the index was ready. */
  storedMs: number;
  /** Files whose terms were read from the per-file cache, and made. */
  read: number;
  made: number;
}

/**
 * What the index caches hold after one schema file changed: no whole index (its key covers every
 * tool), and no terms for that one file (the newest entry stands for it). The load's check cache
 * keeps the file: only the index's part of a change is measured here.
 */
function forgetOneFile(project: string): void {
  const search = searchCacheDir(project);
  for (const name of readdirSync(search)) if (name.endsWith('.index')) rmSync(join(search, name));
  const terms = termCacheDir(search);
  const [entry] = readdirSync(terms).filter((name) => name.endsWith('.terms'));
  if (entry === undefined) throw new Error(`no per-file terms were cached in ${terms}`);
  rmSync(join(terms, entry));
}

/** start-probe.ts in a fresh process: the load and the index as a server start makes them. */
function startProbe(schemas: string, lists: string, project: string, keysFile: string): StartFigures {
  const probe = fileURLToPath(new URL('./start-probe.js', import.meta.url));
  const output = execFileSync(process.execPath, [probe, schemas, lists, project, keysFile], { encoding: 'utf8' });
  return JSON.parse(output.trim().split('\n').pop() as string) as StartFigures;
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
    const modelPart = JSON.stringify(
      tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    );
    const largest = tools
      .map((tool) => ({ name: tool.name, tokens: countTokens(JSON.stringify(tool)) }))
      .reduce((a, b) => (b.tokens > a.tokens ? b : a));
    lines.push(
      `  tools/list --tools ${mode}: ${tools.length} tools, ${(text.length / 1024).toFixed(0)} kB, ${countTokens(text)} tokens (name+description+inputSchema: ${countTokens(modelPart)}); largest definition ${largest.name}, ${largest.tokens} tokens`,
    );
    await client.close();
    await server.close();
  }
  return lines;
}
