// The response-size bounds, counted while the body is read (decision R5): a declared
// Content-Length over the cap fails before a byte of the body is read, a body that grows past it
// fails at the chunk that crosses it, and the connection is dropped at once (no reading on to
// the end). Two policies:
//
// - `sizeCap`: the final answer's body (outside `redirect`, so it counts the answer, not the
//   redirect hops, which `redirect` bounds itself).
// - `byteBudget`: a bound several requests share (an executeRequest call's bytes), innermost, so
//   that every byte read off the wire is taken from it, a redirect's drained body included. A
//   request without `budget` in its dispatch options has no such policy.

import { HttpError } from '../errors.js';
import type { Controller, Headers, Policy, PolicyChain, PolicyMaker } from './policy-chain.js';

/** Bytes several requests may read together; `take` says why not when a chunk passes it. */
export interface ByteBudget {
  take(bytes: number): string | null;
}

/** The dispatch option that names a request's shared budget. */
export interface BudgetOptions {
  budget?: ByteBudget;
}

export function sizeCap(maxResponseBytes: number): PolicyMaker {
  return (chain) => new SizeCap(chain, maxResponseBytes);
}

export function byteBudget(): PolicyMaker {
  return (chain, options) => {
    const { budget } = options as BudgetOptions;
    return budget === undefined ? null : new Budget(chain, budget);
  };
}

class SizeCap implements Policy {
  private read = 0;

  constructor(
    private readonly chain: PolicyChain,
    private readonly limit: number,
  ) {}

  onResponseStart(controller: Controller, status: number, headers: Headers): boolean {
    const length = headers['content-length'];
    if (status < 200 || typeof length !== 'string' || Number(length) <= this.limit) return true;
    this.chain.fail(this, controller, this.tooLarge());
    return false;
  }

  onResponseData(controller: Controller, chunk: Buffer): boolean {
    this.read += chunk.length;
    if (this.read <= this.limit) return true;
    this.chain.fail(this, controller, this.tooLarge());
    return false;
  }

  private tooLarge(): HttpError {
    return new HttpError('too-large', `response body larger than ${this.limit} bytes (maxResponseBytes)`);
  }
}

class Budget implements Policy {
  constructor(
    private readonly chain: PolicyChain,
    private readonly budget: ByteBudget,
  ) {}

  onResponseData(controller: Controller, chunk: Buffer): boolean {
    const overBudget = this.budget.take(chunk.length);
    if (overBudget === null) return true;
    this.chain.fail(this, controller, new HttpError('too-large', overBudget));
    return false;
  }
}
