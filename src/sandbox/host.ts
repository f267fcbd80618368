// The host side of the sandbox: a small pool of worker processes, one isolation unit (an SES
// Compartment) per schema inside one of them. Every load and call runs under a deadline; a
// process that misses one, runs out of memory or dies is killed and replaced, and the units it
// held are loaded again in the new process before their next call. A hostile handler can fail
// its own call; it cannot hang, crash or read the host. Nothing a caller sends, and no worker
// that dies, makes SandboxHost throw or wait without bound: every job settles, at the latest when
// its deadline has passed.
//
// Processes, not worker threads: a single allocation beyond a worker thread's heap limit aborts
// the whole host process (nodejs/node#47224), and memory outside the V8 heap is bounded only per
// process (`rssLimitMb`, checked by the worker after each call and by the host while one runs).
//
// Parts: WorkerSupervisor (worker-supervisor.ts) keeps one worker process going and runs its jobs,
// WorkerLife (worker-life.ts) starts it, replaces it and starts it again; WorkerRequests
// (worker-requests.ts) makes each request's round trip to it under its deadline;
// WorkerProcess (worker-process.ts) is the child process as the host sees it, worker.ts the code
// running inside it; JobQueue holds the jobs waiting for a process, each with its start bound; Replies matches the worker's replies
// and turn markers to the requests sent; BridgedCall serves an executeRequest call's requests;
// ProcessTurn says whose code a process runs (a call waiting on the network is parked beside the
// next job), RunningRequests holds the requests a process runs. Inside the worker, job-context.ts
// ties every request and network attempt to the request whose code made it, and held-memory.ts
// judges what each request leaves held.

import { availableParallelism } from 'node:os';
import { isFailure, type Bridge, type Failure, type Hook, type Outcome, type UnitSpec } from './protocol.js';
import { parsePlain } from './replies.js';
import type { SandboxOptions } from './sandbox-options.js';
import { WorkerSupervisor } from './worker-supervisor.js';

export type { Bridge, Outcome } from './protocol.js';
export { DEFAULT_DEADLINE_MS, DEFAULT_MEMORY_MB, type SandboxOptions } from './sandbox-options.js';

/** Worker processes when the config sets none (`sandbox.workers`): one core left to the host, at most four. */
export const DEFAULT_WORKERS = Math.min(Math.max(availableParallelism() - 1, 1), 4);

export interface LoadedUnit {
  hooks: Record<string, Hook[]>;
  /** Routes the factory returned handlers for that the schema does not have (VAL005). */
  unknownRoutes: string[];
}

export class SandboxHost {
  private readonly workers: WorkerSupervisor[];
  private readonly units = new Map<string, { spec: UnitSpec; worker: WorkerSupervisor; failure: Failure | null }>();

  constructor(options: SandboxOptions = {}) {
    const size = options.size ?? DEFAULT_WORKERS;
    this.workers = Array.from({ length: Math.max(1, size) }, () => new WorkerSupervisor(options));
  }

  /** Creates the unit's Compartment and runs its handlers factory, on the least busy process. */
  async load(spec: UnitSpec): Promise<Outcome<LoadedUnit>> {
    const worker = this.workers.reduce((best, w) => (w.unitCount < best.unitCount ? w : best));
    worker.unitCount += 1;
    const entry = { spec, worker, failure: null as Failure | null };
    this.units.set(spec.id, entry);
    const reply = await worker.run({ kind: 'load', unit: spec }, spec);
    if (isFailure(reply)) entry.failure = reply;
    else if (reply.ok && 'hooks' in reply)
      return { ok: true, value: { hooks: reply.hooks, unknownRoutes: reply.unknownRoutes } };
    else entry.failure = reply.ok ? { code: 'SEC101', message: 'unexpected reply to load' } : reply.failure;
    return { ok: false, failure: entry.failure };
  }

  /** Runs one hook of a loaded unit; the result comes back as plain JSON data. An executeRequest hook's requests go to `bridge`. */
  async runHook(unitId: string, route: string, hook: Hook, input: unknown, bridge?: Bridge): Promise<Outcome<unknown>> {
    const entry = this.units.get(unitId);
    if (!entry) return { ok: false, failure: { code: 'SEC101', message: `no sandbox unit '${unitId}'` } };
    if (entry.failure) return { ok: false, failure: entry.failure };
    const reply = await entry.worker.run({ kind: 'call', unit: unitId, route, hook, input }, entry.spec, bridge);
    if (isFailure(reply)) return { ok: false, failure: reply };
    if (!reply.ok) return { ok: false, failure: reply.failure };
    return 'json' in reply
      ? parsePlain(reply.json)
      : { ok: false, failure: { code: 'SEC101', message: 'unexpected reply to call' } };
  }

  /** The process ids of the worker processes, one per supervisor (the last one started, live or not). */
  pids(): Array<number | undefined> {
    return this.workers.map((worker) => worker.pid);
  }

  /** Whether every worker process is running and ready (none is starting or being replaced). */
  ready(): boolean {
    return this.workers.every((worker) => worker.ready);
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.close()));
  }
}
