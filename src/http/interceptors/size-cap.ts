// The response-size bounds, counted while the body is read (decision R5): a declared
// Content-Length over the cap fails before a byte of the body is read, a body that grows past it
// fails at the chunk that crosses it, and the connection is dropped at once (no reading on to
// the end). Two interceptors:
//
// - `sizeCap`: the final answer's body (outside `redirect`, so it counts the answer, not the
//   redirect hops, which `redirect` bounds itself).
// - `byteBudget`: a bound several requests share (an executeRequest call's bytes), innermost, so
//   that every byte read off the wire is taken from it, a redirect's drained body included. A
//   request without `budget` in its dispatch options passes through at no cost.

import { HttpError } from '../errors.js';
import { PolicyHandler, type Controller, type Handler, type Headers, type Interceptor } from './policy-handler.js';

/** Bytes several requests may read together; `take` says why not when a chunk passes it. */
export interface ByteBudget {
  take(bytes: number): string | null;
}

/** The dispatch option that names a request's shared budget. */
export interface BudgetOptions {
  budget?: ByteBudget;
}

export function sizeCap(maxResponseBytes: number): Interceptor {
  return (dispatch) => (options, handler) => dispatch(options, new SizeCapHandler(handler, maxResponseBytes));
}

export function byteBudget(): Interceptor {
  return (dispatch) => (options, handler) => {
    const { budget } = options as BudgetOptions;
    return dispatch(options, budget === undefined ? handler : new BudgetHandler(handler, budget));
  };
}

class SizeCapHandler extends PolicyHandler {
  private read = 0;

  constructor(
    next: Handler,
    private readonly limit: number,
  ) {
    super(next);
  }

  override onResponseStart(controller: Controller, status: number, headers: Headers, statusMessage?: string): void {
    const length = headers['content-length'];
    if (status >= 200 && typeof length === 'string' && Number(length) > this.limit)
      this.fail(controller, this.tooLarge());
    else super.onResponseStart(controller, status, headers, statusMessage);
  }

  override onResponseData(controller: Controller, chunk: Buffer): void {
    this.read += chunk.length;
    if (this.read > this.limit) this.fail(controller, this.tooLarge());
    else super.onResponseData(controller, chunk);
  }

  private tooLarge(): HttpError {
    return new HttpError('too-large', `response body larger than ${this.limit} bytes (maxResponseBytes)`);
  }
}

class BudgetHandler extends PolicyHandler {
  constructor(
    next: Handler,
    private readonly budget: ByteBudget,
  ) {
    super(next);
  }

  override onResponseData(controller: Controller, chunk: Buffer): void {
    const overBudget = this.failed ? null : this.budget.take(chunk.length);
    if (overBudget !== null) this.fail(controller, new HttpError('too-large', overBudget));
    else super.onResponseData(controller, chunk);
  }
}
