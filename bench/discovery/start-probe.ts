// A server's start, in a fresh process, for bench/discovery: `node start-probe.js SCHEMAS LISTS
// PROJECT KEYS_FILE`. It loads the catalog (with whatever check cache PROJECT holds), then makes
// the search index as `serve` does (with whatever index caches PROJECT holds), and prints one JSON
// line: each step's time, the memory it added, and how many files' terms were read or made.

import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Catalog } from '../../src/runtime/catalog.js';
import { searchCacheDir } from '../../src/discovery/index-cache.js';
import { ToolIndex } from '../../src/discovery/tool-index.js';

const [schemas, lists, project, keysFile] = process.argv.slice(2);
if (!schemas || !lists || !project || !keysFile) throw new Error('usage: start-probe SCHEMAS LISTS PROJECT KEYS_FILE');
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
// The heap and the typed arrays' buffers (outside the heap, where the index keeps its postings), after a full
// collection. A freed buffer's memory is given back by V8's sweeper on a background thread after the collection:
// read at once, the build's freed scratch arrays counted as kept in some runs (4.9 MiB instead of 1.1). So collected
// and read again, a few milliseconds apart, until the buffers' figure stops moving (at most 20 times).
const heap = async () => {
  let previous = -1;
  for (let round = 0; round < 20; round += 1) {
    gc();
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    if (arrayBuffers === previous) return heapUsed + arrayBuffers;
    previous = arrayBuffers;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};

const keys = JSON.parse(readFileSync(keysFile, 'utf8')) as Record<string, string>;
const heapBefore = await heap();
// CPU time beside the wall time: on a shared machine the wall time says as much about the neighbours.
const cpuMs = (since?: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};
const loadCpu = process.cpuUsage();
const loadStart = performance.now();
const catalog = await Catalog.load({ schemas, lists, project, keys, env: {}, sandbox: { size: 1 } });
const loadMs = performance.now() - loadStart;
const loadCpuMs = cpuMs(loadCpu);
// From the process's start (what bench/load.ts calls the time to a callable catalog): node, the modules, the load.
const readyMs = performance.now();
const readyCpuMs = cpuMs();
const loadHeap = (await heap()) - heapBefore;
const tools = catalog.visibleTools();
const indexCpu = process.cpuUsage();
const indexStart = performance.now();
const index = new ToolIndex(tools, { cacheDir: searchCacheDir(project) });
const indexMs = performance.now() - indexStart;
const indexCpuMs = cpuMs(indexCpu);
// The terms made are written after the build (the start does not wait); the memory counted is what the index keeps once they are.
await index.termsStored;
const storedMs = performance.now() - indexStart - indexMs;
const indexHeap = (await heap()) - heapBefore - loadHeap;
console.log(
  JSON.stringify({
    loadMs,
    loadCpuMs,
    readyMs,
    readyCpuMs,
    loadHeap,
    indexMs,
    indexCpuMs,
    indexHeap,
    storedMs,
    tools: index.size,
    fromCache: index.fromCache,
    ...index.termSources,
  }),
);
await catalog.close();
