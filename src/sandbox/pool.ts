// The host side of the sandbox: a small pool of worker processes, one isolation unit (an SES
// Compartment) per schema inside one of them. Every load and call runs under a deadline; a
// process that misses one, runs out of memory or dies is killed and replaced, and the units it
// held are loaded again in the new process before their next call. A hostile handler can fail
// its own call; it cannot hang, crash or read the host.
//
// Processes, not worker threads: a single allocation beyond a worker thread's heap limit aborts
// the whole host process (nodejs/node#47224), and memory outside the V8 heap is bounded only per
// process (`rssLimitMb`, checked by the worker after each call and by the host while one runs).

import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BusyPoll } from './busy-poll.js';
import type { Command, Failure, Hook, Ready, Reply, Request, UnitSpec } from './protocol.js';

export interface SandboxOptions {
  /** Worker processes; default: one core fewer than the machine has (the host keeps one), 1 to 4. */
  size?: number;
  /** Deadline of a factory or handler call, in milliseconds. */
  deadlineMs?: number;
  /** V8 heap limit of each worker process, in MiB; its resident memory may reach 2 × this + 128 MiB. */
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
/** Importing a library (ethers takes about half a second) is not the schema's time. */
const IMPORT_DEADLINE_MS = 30_000;
const RSS_POLL_MS = 50;
/** How long the host polls for a reply before it sleeps; most handler calls answer well within. */
const REPLY_POLL_MS = 2;
const OUT_OF_MEMORY: Failure = { code: 'SEC106', message: 'handler code exceeded the sandbox memory limit' };
const STDERR_TAIL = 4096;

type Job = { command: Command; spec?: UnitSpec; settle: (reply: Reply | Failure) => void };

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

  /** Creates the unit's Compartment and runs its handlers factory, on the least busy process. */
  async load(spec: UnitSpec): Promise<Outcome<LoadedUnit>> {
    const slot = this.slots.reduce((best, s) => (s.unitCount < best.unitCount ? s : best));
    slot.unitCount += 1;
    const entry = { spec, slot, failure: null as Failure | null };
    this.units.set(spec.id, entry);
    const reply = await slot.run({ kind: 'load', unit: spec }, spec);
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
 * One worker process and the queue of jobs for it. The worker runs requests one at a time, in
 * the order sent, so a deadline measures exactly one factory or handler call, and a network
 * attempt is charged to the call that made it. Consecutive loads are sent together (one wait
 * for a round trip instead of one per schema); everything else waits for the reply before it.
 */
class Slot {
  unitCount = 0;
  private child!: ChildProcess;
  private ready!: Promise<Ready>;
  private loaded = new Set<string>();
  private imported = new Set<string>();
  private stderr = '';
  private readonly queue: Job[] = [];
  private running = false;
  private nextId = 1;
  private current: { id: number; settle: (reply: Reply | Failure) => void } | null = null;
  /** Requests sent to this process and not answered yet; replies that came before anyone waited for them. */
  private readonly sent = new Set<number>();
  private readonly early = new Map<number, Reply>();
  private closed = false;
  private readonly memoryMb: number;
  /** Resident memory of the process when it became ready, in MiB. */
  private baselineMb = 0;
  private readonly replyPoll = new BusyPoll();

  constructor(private readonly options: SandboxOptions) {
    this.memoryMb = options.memoryMb ?? DEFAULT_MEMORY_MB;
    this.spawn();
  }

  run(command: Command, spec?: UnitSpec): Promise<Reply | Failure> {
    return new Promise((settle) => {
      this.queue.push({ command, spec, settle });
      void this.drain();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const child = this.child;
    if (child.exitCode !== null || child.signalCode !== null) return;
    // Held until it has exited, so that waiting for the exit keeps the host running.
    this.hold(true);
    await new Promise<void>((done) => {
      child.once('exit', () => done());
      child.kill('SIGKILL');
    });
  }

  private spawn(): void {
    const rssLimitMb = this.memoryMb * 2 + 128;
    const child = fork(WORKER_ENTRY, [`--rss-limit-mb=${rssLimitMb}`], {
      env: {},
      execArgv: [`--max-old-space-size=${this.memoryMb}`, `--max-semi-space-size=${Math.max(1, Math.floor(this.memoryMb / 32))}`, '--stack-size=984'],
      // Worker output is handler or library noise; it must never reach the host's stdout (MCP
      // stdio). stderr is kept in part: it says whether a dead process ran out of heap.
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
    });
    this.child = child;
    this.sent.clear();
    this.early.clear();
    this.loaded = new Set();
    this.imported = new Set();
    this.stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL);
    });
    this.hold(this.running);
    this.ready = new Promise((resolveReady) => {
      child.once('message', (ready: Ready) => {
        child.on('message', (reply: Reply) => {
          if (child === this.child) this.answer(reply);
        });
        this.baselineMb = residentMb(child.pid);
        resolveReady(ready);
      });
    });
    child.on('exit', () => this.died(child));
    child.on('error', () => this.died(child));
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.hold(true);
    // Memory outside the V8 heap grows without a V8 limit; watch it while jobs run.
    const poll = setInterval(() => this.checkMemory(), RSS_POLL_MS);
    poll.unref();
    while (this.queue.length > 0 && !this.closed) {
      await this.ready;
      const job = this.queue.shift() as Job;
      if (!this.isReadyLoad(job)) {
        job.settle(await this.perform(job));
        continue;
      }
      const loads = [job];
      while (this.queue.length > 0 && this.isReadyLoad(this.queue[0] as Job)) loads.push(this.queue.shift() as Job);
      await this.performLoads(loads);
    }
    clearInterval(poll);
    this.running = false;
    this.hold(false);
  }

  private checkMemory(): void {
    if (this.current && residentMb(this.child.pid) > this.memoryMb * 2 + 128) {
      this.current.settle(OUT_OF_MEMORY);
      this.replace();
    }
  }

  /** An idle worker process must not keep the host alive; one with work to do must. */
  private hold(busy: boolean): void {
    // The stderr pipe is a socket: it too keeps the host alive until unref'd.
    const handles: Array<{ ref(): unknown; unref(): unknown } | null | undefined> = [this.child, this.child.channel, this.child.stderr as unknown as Socket | null];
    for (const handle of handles) {
      if (busy) handle?.ref();
      else handle?.unref();
    }
  }

  /** A job, preceded by what a new process lacks: the unit's libraries, and the unit itself. */
  private async perform({ command, spec }: Job): Promise<Reply | Failure> {
    if (spec) {
      const missing = spec.libraries.filter((library) => !this.imported.has(library.name));
      if (missing.length > 0) {
        const imported = await this.execute({ kind: 'import', libraries: missing }, IMPORT_DEADLINE_MS);
        if (isFailure(imported) || !imported.ok) return imported;
        for (const library of missing) this.imported.add(library.name);
      }
    }
    if (spec && command.kind === 'call' && !this.loaded.has(spec.id)) {
      const reload = await this.execute({ kind: 'load', unit: spec });
      if (isFailure(reload) || !reload.ok) return reload;
      this.loaded.add(spec.id);
    }
    const reply = await this.execute(command);
    if (command.kind === 'load' && !isFailure(reply) && reply.ok) this.loaded.add(command.unit.id);
    return reply;
  }

  /** A load whose libraries this process has imported already: it needs nothing sent before it. */
  private isReadyLoad(job: Job): boolean {
    return job.command.kind === 'load' && job.command.unit.libraries.every((library) => this.imported.has(library.name));
  }

  /**
   * Loads sent together; the worker runs them in order. Each deadline starts when the load before
   * it has answered, which is when the worker starts it. When one load ends the process (deadline,
   * memory, crash), the loads behind it never ran: they go first into the new process.
   */
  private async performLoads(jobs: Job[]): Promise<void> {
    const child = this.child;
    const ids = jobs.map((job) => this.send(job.command));
    for (const [index, job] of jobs.entries()) {
      const reply = await this.replyTo(ids[index] as number, job.command);
      if (!isFailure(reply) && reply.ok && job.command.kind === 'load') this.loaded.add(job.command.unit.id);
      job.settle(reply);
      if (this.child !== child) {
        this.queue.unshift(...jobs.slice(index + 1));
        return;
      }
    }
  }

  /** Sends one request and waits for its reply or its deadline, whichever comes first. */
  private execute(command: Command, deadline?: number): Promise<Reply | Failure> {
    return this.replyTo(this.send(command), command, deadline);
  }

  private send(command: Command): number {
    const id = this.nextId++;
    this.sent.add(id);
    this.child.send({ ...command, id } as Request);
    return id;
  }

  /** Waits for the reply to a request sent to this process; its deadline starts now. */
  private replyTo(id: number, command: Command, deadline = this.options.deadlineMs ?? DEFAULT_DEADLINE_MS): Promise<Reply | Failure> {
    const child = this.child;
    const arrived = this.early.get(id);
    if (arrived) {
      this.early.delete(id);
      return Promise.resolve(this.received(arrived));
    }
    return new Promise((settle) => {
      const finish = (reply: Reply | Failure) => {
        clearTimeout(timer);
        this.replyPoll.stop();
        this.current = null;
        settle(reply);
      };
      const timer = setTimeout(() => {
        // A process near its heap limit spends its last seconds collecting garbage: that call
        // ran out of memory rather than time.
        // (A busy loop does not grow; three quarters of the heap limit above the start is no loop.)
        const outOfMemory = residentMb(child.pid) > this.baselineMb + this.memoryMb * 0.75;
        finish(outOfMemory ? OUT_OF_MEMORY : { code: 'SEC105', message: `${describeCommand(command)} did not finish within ${deadline} ms` });
        this.replace();
      }, deadline);
      this.current = { id, settle: (reply) => finish(isFailure(reply) ? reply : this.received(reply)) };
      this.replyPoll.extend(REPLY_POLL_MS);
    });
  }

  private answer(reply: Reply): void {
    if (!this.sent.delete(reply.id)) return;
    if (this.current?.id === reply.id) this.current.settle(reply);
    else this.early.set(reply.id, reply);
  }

  /**
   * A reply, looked at before anyone acts on it: a worker that reports running out of memory
   * exits after that reply, so it is replaced at once and no later request is lost with it.
   */
  private received(reply: Reply): Reply {
    if (!reply.ok && reply.failure.code === 'SEC106') this.replace();
    return reply;
  }

  private died(child: ChildProcess): void {
    if (child !== this.child || this.closed) return;
    // V8 ends a process that runs out of heap with this on stderr.
    const outOfMemory = /heap (limit|out of memory)|Allocation failed/i.test(this.stderr);
    this.current?.settle(outOfMemory ? OUT_OF_MEMORY : { code: 'SEC107', message: `the sandbox process stopped (${child.signalCode ?? `exit ${child.exitCode}`})` });
    this.spawn();
  }

  private replace(): void {
    const old = this.child;
    this.spawn();
    old.kill('SIGKILL');
  }
}

function describeCommand(command: Command): string {
  return command.kind === 'load' ? 'the handlers factory' : command.kind === 'import' ? 'importing libraries' : 'the handler';
}

/** Resident memory of a process in MiB, from /proc on Linux; 0 where that is not available. */
function residentMb(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return (pages * 4096) / 2 ** 20;
  } catch {
    return 0;
  }
}

function isFailure(value: Reply | Failure): value is Failure {
  return 'code' in value;
}

/** JSON from the worker, with `__proto__` keys dropped so that no later copy can pollute a prototype. */
function parsePlain(json: string | undefined): unknown {
  if (json === undefined) return undefined;
  // A reviver makes parsing several times slower; only text that names the key needs one.
  if (!json.includes('"__proto__"')) return JSON.parse(json);
  return JSON.parse(json, (key, value: unknown) => (key === '__proto__' ? undefined : value));
}
