// The host's part in one executeRequest call (decision R12): each request the handler asks for is
// handed to the call's bridge (the core performs it) and the answer sent back to the worker.
// While requests are in flight the handler's deadline is paused: it counts the handler's own run
// time; time on the network is bounded by the HTTP client's timeouts, the per-call request bound,
// and the whole call's bound (WorkerSupervisor). A call that only waits while others want the
// process is parked (process-turn.ts): it gives up its turn, its answers wait until it has the
// turn again, and its deadline stays paused until they are handed over. Asked to park, a call
// counts its deadline until the worker says it has: one that computes beside its requests in
// flight holds the process, and misses its deadline rather than fail the calls waiting on it. When the call ends, its
// requests still in flight are aborted (the bridge records them), and nothing more is sent for it.

import { setMaxListeners } from 'node:events';
import type { ProcessTurn } from './process-turn.js';
import type { Bridge, BridgeAnswer, Failure, Inbound, Outbound, Park } from './protocol.js';
import { describeError } from './replies.js';

/** A deadline that can stop counting while the handler waits on the network. */
export class PausableTimer {
  private timer: NodeJS.Timeout | null;
  private endsAt: number;
  private left = 0;
  private stopped = false;

  constructor(
    ms: number,
    private readonly fire: () => void,
  ) {
    this.endsAt = performance.now() + ms;
    this.timer = setTimeout(fire, ms);
  }

  /** Stops counting as of `at` (a Date.now() time, by default now): the worker's word on when it stopped may be read late. */
  pause(at = Date.now()): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.left = Math.max(0, this.endsAt - performance.now() + (Date.now() - at));
  }

  /** When the deadline ends, or ended, as a Date.now() time: what the worker's stamps are compared with. */
  get endsAtTime(): number {
    return Date.now() + this.endsAt - performance.now();
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
  /** What the host has read from the worker process so far (WorkerProcess.heard). */
  heard: () => { count: number; lastAt: number };
  /** Sends an answer or a park to the worker process, if it is still the one running the call. */
  send: (message: Inbound | Park) => void;
  /** The worker process's turn, and who holds it for this call. */
  turn: ProcessTurn;
  owner: object;
}

export class BridgedCall {
  /** Requests whose answers the handler has not been handed yet: the deadline is paused while there are any. */
  private inFlight = 0;
  private readonly whole: NodeJS.Timeout;
  private readonly ended = new AbortController();
  /** Each request in flight, by its number: the handler may abort one (its AbortController). */
  private readonly cancels = new Map<number, AbortController>();
  /** Answers that came while the call was parked, for when it has the turn again. */
  private readonly held: Inbound[] = [];
  private parking = false;
  private taking = false;
  /** The deadline ran out while the worker's word on parking was awaited: the miss, unless that word says it came in time. */
  private overdueMiss: (() => void) | null = null;

  constructor(
    private readonly id: number,
    private readonly bridge: Bridge,
    private readonly deadline: PausableTimer,
    private readonly host: BridgedCallHost,
  ) {
    this.whole = setTimeout(
      () =>
        host.missed({
          code: 'SEC105',
          message: `the handler and its requests did not finish within ${host.wholeMs} ms`,
        }),
      host.wholeMs,
    );
    // Every request of the call listens for its end; the core bounds how many there are.
    setMaxListeners(0, this.ended.signal);
    host.turn.onContended(host.owner, () => this.parkIfWaiting());
  }

  /** The call has answered (or failed): its requests in flight are aborted, later ones refused. */
  stop(): void {
    clearTimeout(this.whole);
    this.ended.abort();
    for (const inbound of this.held.splice(0)) this.refuse(inbound);
  }

  async perform(message: Outbound): Promise<void> {
    if ('cancel' in message) {
      this.cancels.get(message.outbound)?.abort();
      return;
    }
    if (this.inFlight++ === 0) this.deadline.pause();
    this.parkIfWaiting();
    const cancel = new AbortController();
    this.cancels.set(message.outbound, cancel);
    let answer: BridgeAnswer;
    try {
      answer = await this.bridge(message.request, this.ended.signal, cancel.signal);
    } catch (error) {
      // A bug of the core, not the handler's doing: this request fails, the call goes on.
      answer = { ok: false, message: `the core could not perform the request: ${describeError(error)}` };
    } finally {
      this.cancels.delete(message.outbound);
    }
    this.handOver({ kind: 'inbound', outbound: message.outbound, answer });
  }

  /**
   * The deadline has run out. Asked to park, the call misses it only if the worker had not parked
   * by then: the host may not have read the worker's word yet when it is busy (reading another
   * call's flood of requests), and that time is not this call's. So the word is awaited while the
   * host still reads what the worker sent before the end; once a turn of the host's event loop
   * reads nothing more from it (a handler that computes sends nothing) or reads something sent
   * after the end, without that word, the call has missed its deadline.
   */
  overdue(miss: () => void): void {
    if (!this.parking) return miss();
    this.overdueMiss = miss;
    const end = this.deadline.endsAtTime;
    let count = this.host.heard().count;
    const judge = () => {
      if (this.overdueMiss !== miss || this.ended.signal.aborted) return;
      const heard = this.host.heard();
      if (heard.count === count || heard.lastAt > end) return miss();
      count = heard.count;
      setImmediate(judge);
    };
    setImmediate(judge);
  }

  /** The worker has stopped running the call (`at`, by its clock): it waits aside, and the process is free for others. */
  parked(at: number): void {
    if (!this.parking) return;
    this.parking = false;
    const overdue = this.overdueMiss;
    this.overdueMiss = null;
    if (overdue && at > this.deadline.endsAtTime) return overdue();
    // Shown to wait since `at`: the deadline counts no more until an answer is handed over.
    if (this.inFlight > 0) this.deadline.pause(at);
    if (this.ended.signal.aborted || !this.host.turn.holds(this.host.owner)) return;
    this.host.turn.release(this.host.owner);
    if (this.held.length > 0) void this.resume();
  }

  /** Only waiting, and someone else wants the process: ask the worker to set the call aside. */
  private parkIfWaiting(): void {
    if (this.parking || this.inFlight === 0 || !this.host.turn.wanted || !this.host.turn.holds(this.host.owner)) return;
    this.parking = true;
    // Until the worker says it has set the call aside, the call may be running, not waiting (a
    // loop beside its request in flight): that time is the handler's, and others wait on it.
    this.deadline.resume();
    this.send({ kind: 'park', id: this.id });
  }

  private handOver(inbound: Inbound): void {
    if (this.ended.signal.aborted) return this.refuse(inbound);
    if (this.parking || !this.host.turn.holds(this.host.owner)) {
      this.held.push(inbound);
      if (!this.parking) void this.resume();
      return;
    }
    this.deliver(inbound);
  }

  /** Takes the turn again, behind whoever asked first, and hands over the answers that came meanwhile. */
  private async resume(): Promise<void> {
    if (this.taking) return;
    this.taking = true;
    await this.host.turn.take(this.host.owner);
    this.taking = false;
    if (this.ended.signal.aborted) {
      this.host.turn.release(this.host.owner);
      return;
    }
    this.host.turn.onContended(this.host.owner, () => this.parkIfWaiting());
    for (const inbound of this.held.splice(0)) this.deliver(inbound);
    this.parkIfWaiting();
  }

  private deliver(inbound: Inbound): void {
    if (--this.inFlight === 0) this.deadline.resume();
    this.send(inbound);
  }

  /** The call has ended: the answer is a refusal, so that code it left waiting (a call failed alone) is not kept waiting. */
  private refuse(inbound: Inbound): void {
    this.send({
      ...inbound,
      answer: {
        ok: false,
        message: 'CALL_ENDED: the call that made this request has ended; its answer is not handed over',
      },
    });
  }

  private send(message: Inbound | Park): void {
    try {
      this.host.send(message);
    } catch {
      // The process has gone; its call fails through its deadline or its death.
    }
  }
}
