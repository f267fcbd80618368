// The life of one supervisor's sandbox worker process (worker-supervisor.ts runs the jobs): it is
// started, says it is ready, ends by itself (a crash, an outside kill, a failed start) or is killed
// and replaced by the host (a missed deadline, memory), and the next one starts: at once after a
// process that had been ready, after a growing delay after one that never was (restarts.ts). Each
// end and replacement is told to the operator; what it does to the jobs is the supervisor's.

import type { SandboxEventListener } from './events.js';
import { describeError } from './replies.js';
import { Restarts } from './restarts.js';
import { WorkerProcess, type WorkerEvents, type WorkerMessage } from './worker-process.js';

/** What the supervisor does at each turn of the process's life. */
export interface LifeHooks {
  /** A process is about to start: it holds nothing, and nothing sent to the one before will be answered. */
  starting(): void;
  /** Whether jobs are in hand: a process started then keeps the host alive. */
  busy(): boolean;
  ready(): void;
  message(message: WorkerMessage): void;
  /**
   * The process ended without the host asking (`worker`), or could not start (null); `beforeReady`:
   * it never said it was ready. The next one starts after this.
   */
  ended(worker: WorkerProcess | null, cause: string, beforeReady: boolean): void;
  report: SandboxEventListener;
}

export class WorkerLife {
  /** The last process started; null only when starting one failed at once. */
  private current: WorkerProcess | null = null;
  /** Processes started so far. */
  private started = 0;
  private readonly restarts = new Restarts();
  private stopped = false;
  private readonly events: WorkerEvents = {
    ready: (worker) => {
      if (worker !== this.current) return;
      this.restarts.ready();
      this.hooks.ready();
    },
    message: (worker, message) => worker === this.current && this.hooks.message(message),
    stopped: (worker, cause, wasReady) => {
      if (worker === this.current && !this.stopped) this.restartAfter(worker, cause, !wasReady);
    },
  };

  constructor(
    private readonly memoryMb: number,
    private readonly hooks: LifeHooks,
  ) {}

  get worker(): WorkerProcess | null {
    return this.current;
  }

  /** The current process has said it takes requests, and has not ended since. */
  get ready(): boolean {
    return this.current?.ready === true;
  }

  /** Whether a process ran before this one: a job that waits now waits for a restart, not the first start. */
  get restarting(): boolean {
    return this.started > 1;
  }

  get closed(): boolean {
    return this.stopped;
  }

  start(): void {
    if (this.stopped) return;
    this.restarts.cancel();
    this.started += 1;
    this.hooks.starting();
    try {
      this.current = WorkerProcess.start(this.memoryMb, this.events);
    } catch (error) {
      this.current = null;
      this.restartAfter(null, describeError(error), true);
      return;
    }
    this.current.hold(this.hooks.busy());
  }

  /** Kills the process and starts another (the supervisor has failed what ran in it). */
  replace(reason: string): void {
    if (this.stopped) return;
    const old = this.current;
    this.hooks.report({ kind: 'worker-replaced', pid: old?.pid, reason });
    this.start();
    old?.kill();
  }

  /** No process starts any more; the current one is killed, and this waits until it has ended. */
  async close(): Promise<void> {
    this.stopped = true;
    this.restarts.cancel();
    await this.current?.stop();
  }

  /** Starts the next process: at once after one that was ready, after a growing delay otherwise. */
  private restartAfter(worker: WorkerProcess | null, cause: string, beforeReady: boolean): void {
    this.hooks.ended(worker, cause, beforeReady);
    const delay = this.restarts.delayAfter(beforeReady);
    this.hooks.report({ kind: 'worker-stopped', pid: worker?.pid, cause, beforeReady, restartInMs: delay });
    this.restarts.after(delay, () => this.start());
  }
}
