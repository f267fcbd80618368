// The host side of the sandbox: a small pool of worker threads, one isolation unit (an SES
// Compartment) per schema inside one of them. Every load and call runs under a deadline; a
// worker that misses one, runs out of memory or dies is terminated and replaced, and the
// units it held are loaded again on the new worker before their next call. A hostile handler
// can fail its own call; it cannot hang, crash or read the host.

import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Command, Failure, Hook, Ready, Reply, Request, UnitSpec } from './protocol.js';

export interface SandboxOptions {
  /** Worker threads; default: one core fewer than the machine has (the host keeps one), 1 to 4. */
  size?: number;
  /** Deadline of a factory or handler call, in milliseconds. */
  deadlineMs?: number;
  /** Heap limit of each worker, in MiB. */
  memoryMb?: number;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; failure: Failure };

export interface LoadedUnit {
  hooks: Record<string, Hook[]>;
  /** Routes the factory returned handlers for that the schema does not have (VAL005). */
  unknownRoutes: string[];
}

export const DEFAULT_DEADLINE_MS = 2000;
export const DEFAULT_MEMORY_MB = 128;

type Job = { request: Command; settle: (reply: Reply | Failure) => void };

const here = fileURLToPath(import.meta.url);
// Tests run the TypeScript sources; the worker always runs compiled (`npm test` builds first).
const WORKER_ENTRY = here.endsWith('.ts') ? resolve(dirname(here), '../../dist/src/sandbox/worker.js') : resolve(dirname(here), 'worker.js');

export class Sandbox {
  private readonly slots: Slot[];
  private readonly units = new Map<string, { spec: UnitSpec; slot: Slot; failure: Failure | null }>();

  constructor(options: SandboxOptions = {}) {
    const size = options.size ?? Math.min(Math.max(availableParallelism() - 1, 1), 4);
    this.slots = Array.from({ length: Math.max(1, size) }, () => new Slot(options));
  }

  /** Creates the unit's Compartment and runs its handlers factory, on the least busy worker. */
  async load(spec: UnitSpec): Promise<Outcome<LoadedUnit>> {
    const slot = this.slots.reduce((best, s) => (s.unitCount < best.unitCount ? s : best));
    slot.unitCount += 1;
    const entry = { spec, slot, failure: null as Failure | null };
    this.units.set(spec.id, entry);
    const reply = await slot.run({ kind: 'load', unit: spec });
    if (isFailure(reply)) entry.failure = reply;
    else if (reply.ok && 'hooks' in reply) return { ok: true, value: { hooks: reply.hooks, unknownRoutes: reply.unknownRoutes } };
    else entry.failure = reply.ok ? { code: 'SEC101', message: 'unexpected reply to load' } : reply.failure;
    return { ok: false, failure: entry.failure };
  }

  /** Runs one hook of a loaded unit; the result comes back as plain JSON data. */
  async call(unitId: string, route: string, hook: Hook, input: unknown): Promise<Outcome<unknown>> {
    const entry = this.units.get(unitId);
    if (!entry) return { ok: false, failure: { code: 'SEC101', message: `no sandbox unit '${unitId}'` } };
    if (entry.failure) return { ok: false, failure: entry.failure };
    const reply = await entry.slot.run({ kind: 'call', unit: unitId, route, hook, input }, entry.spec);
    if (isFailure(reply)) return { ok: false, failure: reply };
    if (!reply.ok) return { ok: false, failure: reply.failure };
    return 'json' in reply ? { ok: true, value: parsePlain(reply.json) } : { ok: false, failure: { code: 'SEC101', message: 'unexpected reply to call' } };
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.close()));
  }
}

/**
 * One worker thread and the queue of jobs for it. Jobs run one at a time, so a deadline
 * measures exactly one factory or handler call, and a network attempt is charged to the call
 * that made it.
 */
class Slot {
  unitCount = 0;
  private worker!: Worker;
  private ready!: Promise<Ready>;
  private loaded = new Set<string>();
  private readonly queue: Array<{ job: Job; spec?: UnitSpec }> = [];
  private running = false;
  private nextId = 1;
  private current: { id: number; settle: (reply: Reply | Failure) => void } | null = null;
  private closed = false;

  constructor(private readonly options: SandboxOptions) {
    this.spawn();
  }

  run(request: Command, spec?: UnitSpec): Promise<Reply | Failure> {
    return new Promise((settle) => {
      this.queue.push({ job: { request, settle }, spec });
      void this.drain();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.worker.terminate();
  }

  private spawn(): void {
    const memory = this.options.memoryMb ?? DEFAULT_MEMORY_MB;
    this.worker = new Worker(WORKER_ENTRY, {
      env: {},
      argv: [],
      execArgv: [],
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: memory, maxYoungGenerationSizeMb: Math.max(8, memory / 8), stackSizeMb: 4 },
    });
    // Worker output is handler or library noise; it must not reach the host's stdout (MCP stdio).
    this.worker.stdout.resume();
    this.worker.stderr.resume();
    this.worker.unref();
    this.loaded = new Set();
    const worker = this.worker;
    this.ready = new Promise((resolveReady) => {
      worker.once('message', (ready: Ready) => {
        worker.on('message', (reply: Reply) => this.answer(reply));
        resolveReady(ready);
      });
    });
    worker.on('error', (error: Error & { code?: string }) => this.crashed(worker, error));
    worker.on('exit', () => this.crashed(worker, null));
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    while (this.queue.length > 0 && !this.closed) {
      const { job, spec } = this.queue.shift() as { job: Job; spec?: UnitSpec };
      await this.ready;
      // A replaced worker has lost its Compartments: load the unit again before calling it.
      if (spec && job.request.kind === 'call' && !this.loaded.has(spec.id)) {
        const reload = await this.execute({ kind: 'load', unit: spec });
        if (isFailure(reload) || !reload.ok) {
          job.settle(reload);
          continue;
        }
        this.loaded.add(spec.id);
      }
      const reply = await this.execute(job.request);
      if (job.request.kind === 'load' && !isFailure(reply) && reply.ok) this.loaded.add(job.request.unit.id);
      job.settle(reply);
    }
    this.running = false;
  }

  /** Sends one request and waits for its reply or its deadline, whichever comes first. */
  private execute(request: Command): Promise<Reply | Failure> {
    const id = this.nextId++;
    const deadline = this.options.deadlineMs ?? DEFAULT_DEADLINE_MS;
    return new Promise((settle) => {
      const timer = setTimeout(() => {
        this.current = null;
        settle({ code: 'SEC105', message: `${request.kind === 'load' ? 'the handlers factory' : 'the handler'} did not finish within ${deadline} ms` });
        this.replace();
      }, deadline);
      this.current = {
        id,
        settle: (reply) => {
          clearTimeout(timer);
          this.current = null;
          settle(reply);
        },
      };
      this.worker.postMessage({ ...request, id } as Request);
    });
  }

  private answer(reply: Reply): void {
    if (this.current?.id === reply.id) this.current.settle(reply);
  }

  private crashed(worker: Worker, error: (Error & { code?: string }) | null): void {
    if (worker !== this.worker || this.closed) return;
    const failure: Failure =
      error?.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? { code: 'SEC106', message: 'handler code exceeded the sandbox memory limit' }
        : { code: 'SEC107', message: `the sandbox worker stopped${error ? `: ${error.message}` : ''}` };
    this.current?.settle(failure);
    this.replace();
  }

  private replace(): void {
    const old = this.worker;
    this.spawn();
    void old.terminate();
  }
}

function isFailure(value: Reply | Failure): value is Failure {
  return 'code' in value;
}

/** JSON from the worker, with `__proto__` keys dropped so that no later copy can pollute a prototype. */
function parsePlain(json: string | undefined): unknown {
  if (json === undefined) return undefined;
  return JSON.parse(json, (key, value: unknown) => (key === '__proto__' ? undefined : value));
}
