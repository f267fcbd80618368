// How many jobs a sandbox worker process has in hand (queued or running). While it has any, the
// process keeps the host alive and its memory is watched (memory outside the V8 heap grows
// without a V8 limit); with none, an idle process lets the host exit.

import { RSS_POLL_MS } from './sandbox-options.js';

export class JobsInHand {
  private count = 0;
  private memoryPoll: NodeJS.Timeout | null = null;

  constructor(
    private readonly hold: (busy: boolean) => void,
    private readonly checkMemory: () => void,
  ) {}

  get busy(): boolean {
    return this.count > 0;
  }

  /** Counts a job in until `settle` is first called; returns the settle to give the job. */
  track<T>(settle: (reply: T) => void): (reply: T) => void {
    this.add(1);
    let settled = false;
    return (reply) => {
      if (!settled) this.add(-1);
      settled = true;
      settle(reply);
    };
  }

  add(change: number): void {
    this.count += change;
    if (this.busy === (this.memoryPoll !== null)) return;
    this.hold(this.busy);
    if (this.busy) {
      this.memoryPoll = setInterval(this.checkMemory, RSS_POLL_MS);
      this.memoryPoll.unref();
    } else {
      clearInterval(this.memoryPoll ?? undefined);
      this.memoryPoll = null;
    }
  }
}
