// The requests a sandbox worker process runs now, by id: the one holding its turn (process-turn.ts)
// and the executeRequest calls parked beside it. What the worker sends about a request finds it
// here; when the process goes, every one of them fails, each saying why.

import type { BridgedCall } from './bridged-call.js';
import type { ProcessTurn } from './process-turn.js';
import type { Failure, Reply } from './protocol.js';

export interface RunningRequest {
  /** Who holds the process's turn for it. */
  owner: object;
  bridge: BridgedCall | undefined;
  settle: (reply: Reply | Failure) => void;
}

export class RunningRequests {
  private readonly byId = new Map<number, RunningRequest>();
  /**
   * The highest ended request whose late attempts the operator has been told of: ids only grow, so
   * one number keeps the telling to once per request without a set that grows with every call
   * (an earlier request's late attempt after a later one's is not told again; it is refused all the same).
   */
  private lastToldLate = 0;

  constructor(private readonly turn: ProcessTurn) {}

  get size(): number {
    return this.byId.size;
  }

  add(id: number, request: RunningRequest): void {
    this.byId.set(id, request);
  }

  /** Whether an executeRequest call is parked beside the request holding the turn (it waits to take the turn back). */
  get anyParked(): boolean {
    for (const request of this.byId.values()) if (!this.turn.holds(request.owner)) return true;
    return false;
  }

  get(id: number): RunningRequest | undefined {
    return this.byId.get(id);
  }

  /** Takes a request off the table; false when it was settled already. */
  remove(id: number): boolean {
    return this.byId.delete(id);
  }

  /** Whether this is the first late attempt heard of for ended request `id`. */
  firstLate(id: number): boolean {
    if (id <= this.lastToldLate) return false;
    this.lastToldLate = id;
    return true;
  }

  /**
   * Fails every running request: the one holding the turn with `failure(true)`; a parked one,
   * innocent of what ended the process, with `failure(false)` and a word on why it failed.
   */
  failAll(failure: (holder: boolean) => Failure): void {
    for (const request of [...this.byId.values()]) {
      const holder = this.turn.holds(request.owner);
      const failed = failure(holder);
      request.settle(
        holder
          ? failed
          : {
              code: 'SEC107',
              message: `${failed.message} while this call waited for the network beside another request`,
            },
      );
    }
  }
}
