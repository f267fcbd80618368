// The replies of one worker process, as they arrive. A worker answers a request once its event
// loop has turned after it (protocol.ts, Reply). Replies that come before anyone waits for them
// (loads sent together) are kept until asked for.

import { describeCommand, type Command, type Failure, type Outcome, type Reply } from './protocol.js';
import { OUT_OF_MEMORY } from './sandbox-options.js';
import type { WorkerProcess } from './worker-process.js';

export class Replies {
  /** Requests sent and not answered yet; replies nobody waited for. */
  private readonly sent = new Set<number>();
  private readonly early = new Map<number, Reply>();

  expect(id: number): void {
    this.sent.add(id);
  }

  /** The reply to a request that came before anyone waited for it. */
  take(id: number): Reply | undefined {
    const reply = this.early.get(id);
    this.early.delete(id);
    return reply;
  }

  keep(reply: Reply): void {
    this.early.set(reply.id, reply);
  }

  /** A reply from the worker, if it answers a request sent and not forgotten. */
  accept(reply: Reply): Reply | null {
    return this.sent.delete(reply.id) ? reply : null;
  }

  /** A request that failed while its process serves on: whatever it still answers is dropped. */
  forget(id: number): void {
    this.sent.delete(id);
    this.early.delete(id);
  }

  /** A new process: nothing sent to the old one will be answered. */
  clear(): void {
    this.sent.clear();
    this.early.clear();
  }
}

/** Why the worker exits after this reply, its last: it ran out of memory (SEC106), or holds too much beside calls still unfinished; null when it serves on. */
export function endsWorker(reply: Reply): string | null {
  return reply.ends ?? (!reply.ok && reply.failure.code === 'SEC106' ? reply.failure.message : null);
}

/** JSON from the worker, with `__proto__` keys dropped so that no later copy can pollute a prototype. */
export function parsePlain(json: string | undefined): Outcome<unknown> {
  if (json === undefined) return { ok: true, value: undefined };
  try {
    // A reviver makes parsing several times slower; only text that names the key needs one.
    if (!json.includes('"__proto__"')) return { ok: true, value: JSON.parse(json) };
    return { ok: true, value: JSON.parse(json, (key, value: unknown) => (key === '__proto__' ? undefined : value)) };
  } catch (error) {
    // The reviver recurses: a result nested a few thousand deep overflows the host's stack.
    return {
      ok: false,
      failure: { code: 'SEC101', message: `the handler's result could not be read (${describeError(error)})` },
    };
  }
}

/** An error's message; a stack overflow while (de)serialising data means the data is nested too deep. */
/** A job no process started within `waitMs`: SEC105 when the process was busy, SEC107 when it was (re)starting. */
export function notStarted(command: Command, waitMs: number, process: 'busy' | 'starting' | 'restarting'): Failure {
  const what = `${describeCommand(command)} could not start within ${waitMs} ms`;
  if (process === 'busy')
    return { code: 'SEC105', message: `${what}: the sandbox process was busy with the calls before it` };
  return { code: 'SEC107', message: `${what}: the sandbox process was ${process}` };
}

/** The worker's answer to a call sent ahead that it dropped (worker.ts: told to, or past its start bound). */
export function wasDropped(reply: Reply | Failure): boolean {
  return 'id' in reply && !reply.ok && reply.failure.code === 'SEC105' && reply.failure.message.startsWith('dropped:');
}

export function describeError(error: unknown): string {
  if (error instanceof RangeError && /call stack/i.test(error.message)) return 'nested too deep';
  return error instanceof Error ? error.message : String(error);
}

/** Why a request missed its deadline: it ran out of memory, did not finish, or returned but left work running. */
export function missedDeadline(
  worker: Pick<WorkerProcess, 'residentMb' | 'baselineMb'>,
  memoryMb: number,
  returned: boolean,
  what: string,
  deadline: number,
): Failure {
  // A process near its heap limit spends its last seconds collecting garbage: that call ran
  // out of memory rather than time. (A busy loop does not grow; three quarters of the heap
  // limit above the start is no loop.)
  if (worker.residentMb() > worker.baselineMb + memoryMb * 0.75) return OUT_OF_MEMORY;
  if (!returned) return { code: 'SEC105', message: `${what} did not finish within ${deadline} ms` };
  return {
    code: 'SEC105',
    message: `${what} returned but left work running after it returned (an endless promise chain?); the sandbox process was still busy with it after ${deadline} ms`,
  };
}
