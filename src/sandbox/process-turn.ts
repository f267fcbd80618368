// Whose code a sandbox worker process runs: one holder at a time, the others waiting in the order
// they asked. A job holds the turn from the moment it is sent; an executeRequest call that only
// waits for the core's requests gives it up (it is parked), and takes it again, behind whoever
// asked before, when an answer is there to hand over. So a call's wait on the network never
// holds other calls back, and a deadline still measures one request's own run time: the process
// runs nothing else while a holder's deadline counts.
//
// Chosen over starting extra processes for waiting calls: parking costs one message each way, and
// nothing when no one waits, where a process takes a few hundred milliseconds to start, must
// import the unit's libraries (ethers: half a second) and run its factory again, and holds its own
// memory. What it costs: a parked call shares its process, so when the job beside it misses its
// deadline and the process is replaced, the parked call fails too (SEC107, saying so), as a call
// queued behind such a job always has.

export class ProcessTurn {
  private holder: object | null = null;
  private readonly waiting: Array<{ owner: object; start: () => void }> = [];
  /** Told when someone waits while `owner` holds the turn. */
  private contended: { owner: object; listener: () => void } | null = null;

  /** Resolves once `owner` holds the turn. */
  take(owner: object): Promise<void> {
    if (this.holder === null) {
      this.holder = owner;
      return Promise.resolve();
    }
    return new Promise((start) => {
      this.waiting.push({ owner, start });
      if (this.contended?.owner === this.holder) this.contended.listener();
    });
  }

  /** Gives the turn to the next in line, if `owner` holds it; a wait of `owner` is dropped. */
  release(owner: object): void {
    const index = this.waiting.findIndex((entry) => entry.owner === owner);
    if (index >= 0) this.waiting.splice(index, 1);
    if (this.holder !== owner) return;
    const next = this.waiting.shift();
    this.holder = next?.owner ?? null;
    next?.start();
  }

  holds(owner: object): boolean {
    return this.holder === owner;
  }

  /** Whether anyone waits for the turn. */
  get wanted(): boolean {
    return this.waiting.length > 0;
  }

  /** Whether anyone but `except` waits for the turn. */
  wantedBesides(except: object | null): boolean {
    return this.waiting.some((entry) => entry.owner !== except);
  }

  /** `listener` runs whenever someone asks for the turn while `owner` holds it. */
  onContended(owner: object, listener: () => void): void {
    this.contended = { owner, listener };
  }
}
