// Poll before sleeping. A message between two processes that sleep in the kernel costs a wake-up
// on each side; on a virtual machine, waking a process on another core costs about 50 µs, more
// than the handler call itself. While an answer is expected soon, each side keeps its event loop
// turning (`setImmediate`, which polls for I/O without blocking) instead, for a bounded window:
// the message is then read at once, and nothing else the process does waits for it.

export class BusyPoll {
  private until = 0;
  private polling = false;

  /** Keeps polling for at least `ms` more milliseconds, or until `stop()`. */
  extend(ms: number): void {
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
