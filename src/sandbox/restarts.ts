// When the next worker process starts after one ended: at once after one that had been ready,
// after a delay that doubles with each death before ready (up to MAX_RESTART_DELAY_MS), so that a
// process that crashes while starting does not burn a core.

import { FIRST_RESTART_DELAY_MS, MAX_RESTART_DELAY_MS } from './sandbox-options.js';

export class Restarts {
  private failedStarts = 0;
  private timer: NodeJS.Timeout | null = null;

  /** The process said it takes requests: the next death restarts at once. */
  ready(): void {
    this.failedStarts = 0;
  }

  /** The delay before the next start, after a death `beforeReady` or not. */
  delayAfter(beforeReady: boolean): number {
    if (!beforeReady) return 0;
    this.failedStarts += 1;
    return Math.min(FIRST_RESTART_DELAY_MS * 2 ** (this.failedStarts - 1), MAX_RESTART_DELAY_MS);
  }

  /** Runs `start` after `delayMs` (at once for 0). Jobs waiting for the process keep the host alive through their own deadlines. */
  after(delayMs: number, start: () => void): void {
    if (delayMs === 0) return start();
    this.timer = setTimeout(start, delayMs);
    this.timer.unref();
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
