// Poll before sleeping. A message between two processes that sleep in the kernel costs a wake-up
// on each side; on a virtual machine, waking a process on another core costs about 50 µs, more
// than the handler call itself. While an answer is expected soon, each side keeps its event loop
// turning (`setImmediate`, which polls for I/O without blocking) instead, for a bounded window:
// the message is then read at once, and nothing else the process does waits for it.
//
// Only while the machine has a core to spare, though. On a busy machine the poller takes the core
// the other side needs to answer, and the kernel's scheduler ranks a process that has burnt its
// share behind one that slept: measured on 2 cores at a load of 12, a sandbox round trip took
// 2.5 ms p50 with polling and 0.09 ms without (docs/internals/performance.md).

import { availableParallelism, loadavg } from 'node:os';

/** How often the machine's load is looked at again, in milliseconds. */
const LOAD_CHECK_MS = 1000;
const CORES = availableParallelism();
let spare = true;
let checkedAt = Number.NEGATIVE_INFINITY;

/** Whether the machine has a core to spare: its runnable processes (the one-minute load) fewer than its cores. */
export function spareCore(): boolean {
  const now = performance.now();
  if (now - checkedAt >= LOAD_CHECK_MS) {
    checkedAt = now;
    spare = (loadavg()[0] as number) < CORES;
  }
  return spare;
}

export class BusyPoll {
  private until = 0;
  private polling = false;

  /** @param worthIt whether polling helps now (by default: while the machine has a core to spare). */
  constructor(private readonly worthIt: () => boolean = spareCore) {}

  /** Keeps polling for at least `ms` more milliseconds, or until `stop()`; nothing when polling does not help now. */
  extend(ms: number): void {
    if (!this.worthIt()) return;
    this.until = Math.max(this.until, performance.now() + ms);
    if (this.polling) return;
    this.polling = true;
    setImmediate(this.turn);
  }

  stop(): void {
    this.until = 0;
  }

  private readonly turn = (): void => {
    if (performance.now() < this.until) setImmediate(this.turn);
    else this.polling = false;
  };
}
