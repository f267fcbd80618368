// The host's part in one executeRequest call (RULINGS R12): each request the handler asks for is
// handed to the call's bridge (the core performs it) and the answer sent back to the worker.
// While requests are in flight the handler's deadline is paused: it counts the handler's own run
// time; time on the network is bounded by the HTTP client's timeouts, the per-call request bound,
// and the whole call's bound (WorkerSupervisor).

import type { Bridge, BridgeAnswer, Failure, Inbound, Outbound } from './protocol.js';
import { describeError } from './replies.js';

/** A deadline that can stop counting while the handler waits on the network. */
export class PausableTimer {
  private timer: NodeJS.Timeout | null;
  private endsAt: number;
  private left = 0;
  private stopped = false;

  constructor(ms: number, private readonly fire: () => void) {
    this.endsAt = performance.now() + ms;
    this.timer = setTimeout(fire, ms);
  }

  pause(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.left = Math.max(0, this.endsAt - performance.now());
  }

  resume(): void {
    if (this.timer || this.stopped) return;
    this.endsAt = performance.now() + this.left;
    this.timer = setTimeout(this.fire, this.left);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

export interface BridgedCallHost {
  /** The bound of the whole call, handler and requests, in milliseconds. */
  wholeMs: number;
  /** Fails the call (and replaces its process). */
  missed: (failure: Failure) => void;
  /** Sends an answer to the worker process, if it is still the one running the call. */
  send: (inbound: Inbound) => void;
}

export class BridgedCall {
  private inFlight = 0;
  private readonly whole: NodeJS.Timeout;

  constructor(
    private readonly bridge: Bridge,
    private readonly deadline: PausableTimer,
    private readonly host: BridgedCallHost,
  ) {
    this.whole = setTimeout(() => host.missed({ code: 'SEC105', message: `the handler and its requests did not finish within ${host.wholeMs} ms` }), host.wholeMs);
  }

  stop(): void {
    clearTimeout(this.whole);
  }

  async perform(message: Outbound): Promise<void> {
    if (this.inFlight++ === 0) this.deadline.pause();
    let answer: BridgeAnswer;
    try {
      answer = await this.bridge(message.request);
    } catch (error) {
      // A bug of the core, not the handler's doing: this request fails, the call goes on.
      answer = { ok: false, message: `the core could not perform the request: ${describeError(error)}` };
    } finally {
      if (--this.inFlight === 0) this.deadline.resume();
    }
    try {
      this.host.send({ kind: 'inbound', outbound: message.outbound, answer });
    } catch {
      // The process has gone; its call fails through its deadline or its death.
    }
  }
}
