// One cold load in a fresh process, for bench/load.ts: `node load-probe.js BUILD SCHEMAS LISTS PROJECT`.
// It loads the catalog through BUILD's public API (so it measures any build, old or new) and
// prints one JSON line: the time from process start to a callable catalog, its CPU time, the peak resident
// memory of this process and of every process below it, and the schema files it loaded.

import { readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { packageEntry } from './package-entry.js';

interface LoadedCatalog {
  schemas: Array<{ file: string }>;
  tools: unknown[];
  close(): Promise<void>;
}

/** Peak resident memory of a process in KiB (VmHWM), 0 when it cannot be read. */
function peakKib(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Every process below `pid`, read from /proc (Linux). */
function descendants(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((task) => {
    const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    return children === ''
      ? []
      : children
          .split(/\s+/)
          .map(Number)
          .flatMap((child) => [child, ...descendants(child)]);
  });
}

const [build, schemas, lists, project] = process.argv.slice(2);
if (!build || !schemas || !lists || !project) throw new Error('usage: load-probe BUILD SCHEMAS LISTS PROJECT');
const api = (await import(pathToFileURL(packageEntry(build)).href)) as {
  loadCatalog(options: object): Promise<LoadedCatalog>;
};
const catalog = await api.loadCatalog({ schemas, lists, project });
const readyMs = performance.now();
// CPU time of this process (all its threads: the compiler's and the collector's too), which a
// busy machine's other work changes less than the time.
const { userCPUTime, systemCPUTime } = process.resourceUsage();
const processes = [process.pid, ...descendants(process.pid)];
const peakMib = processes.reduce((sum, pid) => sum + peakKib(pid), 0) / 1024;
console.log(
  JSON.stringify({
    readyMs,
    cpuMs: (userCPUTime + systemCPUTime) / 1000,
    peakMib,
    processes: processes.length,
    tools: catalog.tools.length,
    files: catalog.schemas.map(({ file }) => file),
  }),
);
await catalog.close();
