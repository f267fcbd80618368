// Poll before sleeping. A message between two processes that sleep in the kernel costs a wake-up
// on each side; on a virtual machine, waking a process on another core costs about 50 µs, more
// than the handler call itself. While an answer is expected soon, each side keeps its event loop
// turning (`setImmediate`, which polls for I/O without blocking) instead, for a bounded window:
// the message is then read at once, and nothing else the process does waits for it.
//
// Only while the process gets the core it polls on, though. On a busy machine the poller takes
// the core the other side needs to answer, and the kernel's scheduler ranks a process that has
// burnt its share behind one that slept: measured on 2 cores at a load of 12, a sandbox round
// trip took 2.5 ms p50 with polling and 0.09 ms without (docs/internals/performance.md). A
// polling process never sleeps, so time between two turns of the poll that it did not spend on
// the CPU (wall-clock time minus CPU time) is time the kernel kept it off its core: then no one
// in the process polls for a while (50 ms), and messages wake it instead. A short gap (under
// 5 ms, about a time slice of the kernel's) is an interrupt or a neighbour's burst, not a lost
// core: on an idle two-core machine, where host and worker both spin, a tighter rule (2 ms, 250 ms)
// gave up polling often enough to make a handler call 1.5 to 1.8 times as slow.
//
// Nor while calls overlap: a request that arrives while another is in hand (sent ahead to the
// worker, queued in the host) shows that the next message comes anyway, and a poller then only takes
// a core the others need. With 50 calls in flight on two cores (host, worker and upstream sharing
// them) the worker's polling cost about 40 µs of CPU per handler call (docs/internals/performance.md,
// "Calls at 50 in flight"); a lone call, whose messages never overlap, polls as before.
//
// CPU time is read at most once a millisecond (`process.cpuUsage()` is a system call; read on every
// turn it took 40 % of the host's samples in a profile of handler calls, and each turn, the time a
// message waits to be seen, grew by as much). A lost core shows the same: a turn after 5 ms off the
// CPU is always a millisecond or more after the last reading.

/** Time off the CPU between two turns of the poll beyond which the process lost its core. */
const PREEMPTED_MS = 5;
/** How long the process does not poll after it lost its core while polling, or saw its work overlap. */
const BACKOFF_MS = 50;
/** Least wall-clock time between two readings of the CPU time. */
const CPU_READING_MS = 1;
let backOffUntil = 0;

/**
 * Work arrived while other work was in hand: the calls of this process overlap. Nothing in the
 * process polls for a while (as after a lost core), so the cores go to the work itself.
 */
export function workOverlaps(): void {
  backOffUntil = Math.max(backOffUntil, performance.now() + BACKOFF_MS);
}

/** Whether polling helps now: the process has neither lost its core while polling nor seen its work overlap lately. */
function keepsItsCore(): boolean {
  return performance.now() >= backOffUntil;
}

/** CPU time this process has used, in milliseconds. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

export class BusyPoll {
  private until = 0;
  private polling = false;
  /** Wall-clock and CPU time of the last reading. */
  private readAt = 0;
  private readCpuMs = 0;

  /** @param worthIt whether polling helps now (by default: the process kept its core while polling lately). */
  constructor(private readonly worthIt: () => boolean = keepsItsCore) {}

  /** Keeps polling for at least `ms` more milliseconds, or until `stop()`; nothing when polling does not help now. */
  extend(ms: number): void {
    if (!this.worthIt()) return;
    this.until = Math.max(this.until, performance.now() + ms);
    if (this.polling) return;
    this.polling = true;
    this.readAt = performance.now();
    this.readCpuMs = cpuMs();
    setImmediate(this.turn);
  }

  stop(): void {
    this.until = 0;
  }

  private readonly turn = (): void => {
    const now = performance.now();
    if (now - this.readAt >= CPU_READING_MS) {
      const cpu = cpuMs();
      if (now - this.readAt - (cpu - this.readCpuMs) > PREEMPTED_MS) backOffUntil = now + BACKOFF_MS;
      this.readAt = now;
      this.readCpuMs = cpu;
    }
    if (now < this.until && this.worthIt()) setImmediate(this.turn);
    else this.polling = false;
  };
}
