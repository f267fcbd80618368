// What a sandbox process still holds once a request has ended (worker.ts asks after each one): on
// the V8 heap and outside it (ArrayBuffer contents). A handler may keep what it made in its
// closure or its factory's scope and return under every limit; the next call, another schema's
// perhaps, would then run out of heap or time in a process it did not fill, and be failed for it.
// So a request that leaves the process holding more than half its heap limit beyond what the
// process held before any request (lockdown, and the libraries imported since) fails itself, and
// the process ends; the next call runs in a fresh one with the whole limit (beside a parked call,
// whose memory it is cannot be told: the process ends, and no call is blamed). Garbage is no
// one's: past the line, the garbage is collected first and what is still held is judged.

import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

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

export class HeldMemory {
  /** What the process holds of its own: after start, plus what each import added. */
  private own: number;
  private readonly allowance: number;

  /** `heapLimitMb`: the process's V8 heap limit; 0 where it was not given (no judging). */
  constructor(private readonly heapLimitMb: number) {
    this.own = heldAfterCollecting();
    this.allowance = (heapLimitMb * 2 ** 20) / 2;
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

  /** Bytes held beyond the process's own, when more than allowed even once garbage is collected; 0 otherwise. */
  excess(): number {
    if (this.heapLimitMb === 0 || heldNow() - this.own <= this.allowance) return 0;
    const beyond = heldAfterCollecting() - this.own;
    return beyond > this.allowance ? beyond : 0;
  }

  /** What a request that ended left: `excess` bytes held (`where`: beside what). */
  describe(excess: number, where = 'when it ended'): string {
    return `holding ${Math.round(excess / 2 ** 20)} MiB ${where}, more than half its ${this.heapLimitMb} MiB heap limit`;
  }
}
