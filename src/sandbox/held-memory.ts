// What a sandbox process still holds once a request has ended (worker.ts asks after each one),
// on the V8 heap and outside it (ArrayBuffer contents). Resident memory above its limit, which
// alone bounds memory outside the heap, fails the request at once. And a handler may keep what it
// made in its closure or its factory's scope and return under every limit; the next call, another
// schema's perhaps, would then run out of heap or time in a process it did not fill, and be failed
// for it. So a request that leaves the process holding more than half its heap limit beyond what
// the process held before any request (lockdown, and the libraries imported since) fails itself,
// and the process ends; the next call runs in a fresh one with the whole limit (beside a parked
// call, whose memory it is cannot be told: the process ends, and no call is blamed). Garbage is
// no one's: past the line, the garbage is collected first and what is still held is judged.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Failure } from './protocol.js';
import { ResidentMemory } from './resident-memory.js';

// V8's `gc`, taken from a context of its own made while the flag was on: the process's global
// object never has it, so neither libraries nor handlers can call it.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
setFlagsFromString('--no-expose-gc');

/** Heap in use plus memory outside the heap, in bytes; garbage not yet collected included. */
function heldNow(): number {
  const heap = getHeapStatistics();
  return heap.used_heap_size + heap.external_memory;
}

function heldAfterCollecting(): number {
  collect();
  return heldNow();
}

/** A number the host started the process with (`--name=N`, worker-process.ts); 0 when not given. */
function numberFlag(argv: readonly string[], name: string): number {
  return Number(argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? 0);
}

/** What a request that has just ended leaves: a failure of its own, or why the process ends after its reply. */
export type MemoryOver = { failure: Failure } | { ends: string };

export class HeldMemory {
  /** What the process holds of its own: after start, plus what each import added. */
  private own: number;
  private readonly allowance: number;
  /** This process's resident memory: read from /proc where it can be (cheaper), from Node where not. */
  private readonly residentBytes: () => number;

  /**
   * `heapLimitMb`: the process's V8 heap limit; `rssLimitMb`: the resident memory above which it
   * gives up after a request (worker-process.ts, rssLimitMb); 0 where not given (no judging).
   */
  private constructor(
    private readonly heapLimitMb: number,
    private readonly rssLimitMb: number,
  ) {
    this.own = heldAfterCollecting();
    this.allowance = (heapLimitMb * 2 ** 20) / 2;
    const resident = ResidentMemory.of('self');
    this.residentBytes = resident ? () => resident.bytes() : () => process.memoryUsage.rss();
  }

  /** The limits the host started this process with (`--heap-limit-mb=N`, `--rss-limit-mb=N`). */
  static fromArgs(argv: readonly string[]): HeldMemory {
    return new HeldMemory(numberFlag(argv, 'heap-limit-mb'), numberFlag(argv, 'rss-limit-mb'));
  }

  /** Runs an import: what the libraries hold afterwards is the process's, not a schema's. */
  async importing<T>(run: () => Promise<T>): Promise<T> {
    const before = heldAfterCollecting();
    try {
      return await run();
    } finally {
      this.own += Math.max(0, heldAfterCollecting() - before);
    }
  }

  /**
   * Whether a request that has just ended leaves the process over a memory line; then the process
   * ends. Memory outside the V8 heap (ArrayBuffer contents) has no V8 limit: the resident-memory
   * limit bounds it. And a request may not leave so much held that the next one runs out. Either
   * fails the request; but `beside` other requests still unfinished (a parked call's work in
   * progress), whose excess it is cannot be told: the request answers as it would, and the
   * process ends after it (the calls beside it fail, as in any replacement).
   */
  over(beside: boolean): MemoryOver | null {
    if (this.rssLimitMb > 0 && this.residentBytes() > this.rssLimitMb * 2 ** 20)
      return {
        failure: {
          code: 'SEC106',
          message: `handler code left the sandbox process above its memory limit (${this.rssLimitMb} MiB)`,
        },
      };
    const excess = this.excess();
    if (excess === 0) return null;
    const holding = `holding ${Math.round(excess / 2 ** 20)} MiB`;
    const limit = `more than half its ${this.heapLimitMb} MiB heap limit`;
    if (beside) return { ends: `a call left it ${holding} beside calls still unfinished, ${limit}` };
    return {
      failure: { code: 'SEC106', message: `handler code left the sandbox process ${holding} when it ended, ${limit}` },
    };
  }

  /** Bytes held beyond the process's own, when more than allowed even once garbage is collected; 0 otherwise. */
  private excess(): number {
    if (this.heapLimitMb === 0 || heldNow() - this.own <= this.allowance) return 0;
    const beyond = heldAfterCollecting() - this.own;
    return beyond > this.allowance ? beyond : 0;
  }
}
