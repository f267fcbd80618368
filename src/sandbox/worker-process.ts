// One sandbox worker process as the host sees it: started with an empty environment and memory
// limits, its output kept away from the host's stdout, and its life reported to its owner:
// ready, each message, and its end (however it ends, once).

import { type ChildProcess, fork } from 'node:child_process';
import type { Socket } from 'node:net';
import { installedFile } from '../shared/version.js';
import type { Drop, Inbound, Late, Outbound, Park, Parked, Reply, Request } from './protocol.js';
import { ResidentMemory } from './resident-memory.js';
import { RETURNED_NOTE_FLAG, ReturnedNote } from './returned-note.js';

// The worker always runs compiled and unbundled, whether the host runs from a bundle or, in
// tests, from the TypeScript sources (`npm test` builds first).
const WORKER_ENTRY = installedFile('dist', 'src', 'sandbox', 'worker.js');
const STDERR_TAIL = 4096;

/** What a worker process sends after it is ready. */
export type WorkerMessage = Reply | Outbound | Parked | Late;

export interface WorkerEvents {
  ready(worker: WorkerProcess): void;
  message(worker: WorkerProcess, message: WorkerMessage): void;
  /** The process has ended; `cause` says how (a signal, an exit code, an error); `wasReady`, whether it had said it was ready. */
  stopped(worker: WorkerProcess, cause: string, wasReady: boolean): void;
}

export class WorkerProcess {
  /** Resident memory when it became ready, in MiB. */
  baselineMb = 0;
  private saidReady = false;
  private ended = false;
  private stderr = '';
  /** Messages read from it so far, and the latest time one of them says it was sent (protocol.ts, Parked). */
  heard = { count: 0, lastAt: 0 };

  /** Its resident memory, read while it runs. */
  private readonly memory: ResidentMemory | null;

  private constructor(
    private readonly child: ChildProcess,
    private readonly note: ReturnedNote | null,
  ) {
    this.memory = child.pid === undefined ? null : ResidentMemory.of(child.pid);
  }

  /** It has said it takes requests, and has not ended since. */
  get ready(): boolean {
    return this.saidReady && !this.ended;
  }

  /** Starts a worker process; throws only where Node throws instead of reporting (ENOMEM). */
  static start(memoryMb: number, events: WorkerEvents): WorkerProcess {
    const note = ReturnedNote.open();
    let child: ChildProcess;
    try {
      child = WorkerProcess.fork(memoryMb, note);
    } catch (error) {
      note?.close();
      throw error;
    }
    const worker = new WorkerProcess(child, note);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      worker.stderr = (worker.stderr + chunk).slice(-STDERR_TAIL);
    });
    child.once('message', () => {
      child.on('message', (message: WorkerMessage) => {
        worker.heard.count += 1;
        if ('at' in message) worker.heard.lastAt = Math.max(worker.heard.lastAt, message.at);
        events.message(worker, message);
      });
      worker.baselineMb = worker.residentMb();
      worker.saidReady = true;
      events.ready(worker);
    });
    const end = (cause: string) => {
      if (worker.ended) return;
      worker.ended = true;
      note?.close();
      worker.memory?.close();
      events.stopped(worker, cause, worker.saidReady);
    };
    child.on('exit', () => end(child.signalCode ?? `exit ${child.exitCode}`));
    child.on('error', (error) => {
      // An 'error' may come from a process that still runs (a failed signal or send): end it.
      child.kill('SIGKILL');
      end(error.message);
    });
    return worker;
  }

  private static fork(memoryMb: number, note: ReturnedNote | null): ChildProcess {
    const args = [
      `--rss-limit-mb=${rssLimitMb(memoryMb)}`,
      `--heap-limit-mb=${memoryMb}`,
      ...(note ? [RETURNED_NOTE_FLAG] : []),
    ];
    return fork(WORKER_ENTRY, args, {
      env: {},
      execArgv: [
        `--max-old-space-size=${memoryMb}`,
        `--max-semi-space-size=${Math.max(1, Math.floor(memoryMb / 32))}`,
        '--stack-size=984',
        // Buffer.allocUnsafe would hand a handler memory freed by another schema's calls.
        '--zero-fill-buffers',
      ],
      // Worker output is handler or library noise; it must never reach the host's stdout (MCP
      // stdio). stderr is kept in part: it says whether a dead process ran out of heap.
      // The fifth entry is the returned note (returned-note.ts, RETURNED_NOTE_FD).
      stdio: ['ignore', 'ignore', 'pipe', 'ipc', ...(note ? [note.fd] : [])],
      serialization: 'json',
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Serialises and sends one request (or a bridge answer, a park, a drop); throws when it cannot be serialised (nested too deep). */
  send(request: Request | Inbound | Park | Drop): void {
    this.child.send(request);
  }

  /** Whether the process has returned from request `id` (its answer may wait for the event loop to turn). */
  returned(id: number): boolean {
    return this.note?.returned(id) ?? false;
  }

  /** Whether V8 ended the process for running out of heap (it says so on stderr). */
  ranOutOfHeap(): boolean {
    return /heap (limit|out of memory)|Allocation failed/i.test(this.stderr);
  }

  /** Resident memory in MiB, from /proc on Linux; 0 where that is not available (no reading, so no memory counted). */
  residentMb(): number {
    return (this.memory?.bytes() ?? 0) / 2 ** 20;
  }

  /** An idle worker process must not keep the host alive; one with work to do must. */
  hold(busy: boolean): void {
    // The stderr pipe is a socket: it too keeps the host alive until unref'd.
    const handles: Array<{ ref(): unknown; unref(): unknown } | null | undefined> = [
      this.child,
      this.child.channel,
      this.child.stderr as unknown as Socket | null,
    ];
    for (const handle of handles) {
      if (busy) handle?.ref();
      else handle?.unref();
    }
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }

  /** Kills the process and waits until it has ended; held meanwhile, so the wait keeps the host running. */
  async stop(): Promise<void> {
    if (this.ended || this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.hold(true);
    await new Promise<void>((done) => {
      this.child.once('exit', () => done());
      this.kill();
    });
  }
}

/** Resident memory above which a worker process has run out of memory, in MiB. */
export function rssLimitMb(memoryMb: number): number {
  return memoryMb * 2 + 128;
}
