// One total deadline over the whole exchange (decision R5): every redirect hop, the headers and
// the body. Inside `upstreamGate`, so that its clock starts when the request is let go, not while
// it waits for a slot (the guard bounds that wait itself), and outside every other policy, so
// that it fails whichever hop is on the wire when it passes, or the next one the moment it starts.

import { timeoutError } from '../errors.js';
import { ABANDONED, NOT_STARTED, PolicyHandler, type Controller, type Handler, type Headers, type Interceptor } from './policy-handler.js';

export function deadline(totalTimeoutMs: number): Interceptor {
  return (dispatch) => (options, handler) => dispatch(options, new DeadlineHandler(handler, totalTimeoutMs));
}

class DeadlineHandler extends PolicyHandler {
  private readonly timer: NodeJS.Timeout;
  /** The hop on the wire, to tear down when the deadline passes. */
  private controller: Controller | null = null;

  constructor(
    next: Handler,
    private readonly totalTimeoutMs: number,
  ) {
    super(next);
    this.timer = setTimeout(onDeadline, totalTimeoutMs, this);
  }

  override onRequestStart(controller: Controller, context: unknown): void {
    if (this.failed) return controller.abort(ABANDONED);
    this.controller = controller;
    super.onRequestStart(controller, context);
  }

  override onResponseEnd(controller: Controller, trailers: Headers): void {
    clearTimeout(this.timer);
    super.onResponseEnd(controller, trailers);
  }

  override onResponseError(controller: Controller, error: Error): void {
    clearTimeout(this.timer);
    super.onResponseError(controller, error);
  }

  expire(): void {
    if (this.failed) return;
    this.failed = true;
    this.next.onResponseError?.(this.controller ?? NOT_STARTED, timeoutError(this.totalTimeoutMs));
    this.controller?.abort(ABANDONED);
  }
}

function onDeadline(handler: DeadlineHandler): void {
  handler.expire();
}
