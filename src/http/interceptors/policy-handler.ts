// The base of the client's interceptors (undici 7 dispatch handlers, as undici's own redirect and
// retry handlers are): every event is handed on to the next handler unchanged, and a policy that
// refuses an exchange fails it exactly once.
//
// A refusal is told to the next handler first and only then is the wire torn down: undici's
// abort does nothing once a response is complete (a body decoded at its end is judged then), so
// the error could otherwise be lost. What the abort sends back is swallowed.

import type { Dispatcher } from 'undici';

export type Handler = Dispatcher.DispatchHandler;
export type Controller = Dispatcher.DispatchController;
export type Headers = Record<string, string | string[] | undefined>;
export type Interceptor = Dispatcher.DispatcherComposeInterceptor;

/** The reason handed to undici when a policy drops an exchange it no longer wants. */
export const ABANDONED = new Error('exchange abandoned by the client');

/** The controller handed with an error that comes before any hop started: there is nothing to abort. */
export const NOT_STARTED: Controller = Object.freeze({
  aborted: true,
  paused: false,
  reason: null,
  abort() {},
  pause() {},
  resume() {},
});

export class PolicyHandler implements Handler {
  // Assigned, not declared as class fields: a field of a base class is defined on receivers of
  // six shapes (its subclasses), which V8 does through its runtime, measured at about 1 µs per
  // handler, more than all the rest of a request's policies together.
  /** Set once this policy refused the exchange: nothing more is handed on. */
  declare protected failed: boolean;
  declare protected readonly next: Handler;

  constructor(next: Handler) {
    this.next = next;
    this.failed = false;
  }

  onRequestStart(controller: Controller, context: unknown): void {
    this.next.onRequestStart?.(controller, context);
  }

  onResponseStart(controller: Controller, status: number, headers: Headers, statusMessage?: string): void {
    if (!this.failed) this.next.onResponseStart?.(controller, status, headers, statusMessage);
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    if (!this.failed) this.next.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Controller, trailers: Headers): void {
    if (!this.failed) this.next.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Controller, error: Error): void {
    if (!this.failed) this.next.onResponseError?.(controller, error);
  }

  /** Refuses the exchange with `error`: the next handler hears it once, and the connection is dropped. */
  protected fail(controller: Controller, error: Error): void {
    if (this.failed) return;
    this.failed = true;
    this.next.onResponseError?.(controller, error);
    controller.abort(ABANDONED);
  }
}

/** A header's one value: a header sent more than once is joined with `, `, as HTTP reads it. */
export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
