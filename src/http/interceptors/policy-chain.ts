// The client's per-request policies (redirect, sizeCap, contentDecoding, jsonDepth, deadline, the
// byte budget and the upstream gate's answer) run by ONE undici 7 dispatch handler per request.
// Each policy is a small object of optional hooks; the chain calls, for each event from the wire,
// the hooks of the policies that have one, innermost first, then hands the event to the caller's
// handler. A policy that does not look at an event costs nothing for it, and no policy forwards
// anything (seven nested handlers each forwarded every event; docs/internals/performance.md).
//
// A hook says whether the event goes on (true) or stops with it (false: held, swallowed, or the
// exchange refused through `fail`). A policy that hands on something of its own later (a decoded
// body, an answer its gate has read) does so from its place in the chain (`dataAfter`, ...).
//
// A refusal is told to the policies after the refusing one and to the caller's handler first, and
// only then is the wire torn down: undici's abort does nothing once a response is complete (a body
// decoded at its end is judged then), so the error could otherwise be lost. Once refused, the
// chain hears nothing more from the wire, and a hop that starts after it is aborted.

import type { Dispatcher } from 'undici';

export type Handler = Dispatcher.DispatchHandler;
export type Controller = Dispatcher.DispatchController;
export type Headers = Record<string, string | string[] | undefined>;
export type Dispatch = Dispatcher['dispatch'];
/** A step around a dispatch function (the upstream gate's admission). */
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

/**
 * One policy of one request: the events it looks at, each saying whether the event goes on. A
 * policy shared by every request (one with nothing to keep until an answer asks for it) is told
 * the chain at the answer's start, and may put a policy of this request's own in its place there.
 */
export interface Policy {
  /** Once per hop; returns the context to hand on. */
  onRequestStart?(controller: Controller, context: unknown): unknown;
  onResponseStart?(controller: Controller, status: number, headers: Headers, chain: PolicyChain): boolean;
  onResponseData?(controller: Controller, chunk: Buffer): boolean;
  onResponseEnd?(controller: Controller, trailers: Headers): boolean;
  onResponseError?(controller: Controller, error: Error): boolean;
}

/** Made once per client: a request's policy, or null when it has nothing to do for that request. */
export type PolicyMaker = (chain: PolicyChain, options: Dispatcher.DispatchOptions) => Policy | null;

/**
 * A dispatch function running `makers`' policies (innermost first, as the events meet them) by
 * one handler per request, each hop sent with `dispatch`. It never throws: a dispatch that does
 * (a closed agent) is the exchange's error, which every policy hears.
 */
export function policyDispatch(makers: readonly PolicyMaker[], dispatch: Dispatch): Dispatch {
  return (options, handler) => {
    const chain = new PolicyChain(handler, dispatch, options);
    for (const make of makers) {
      const policy = make(chain, options);
      if (policy !== null) chain.policies.push(policy);
    }
    try {
      return dispatch(options, chain);
    } catch (error) {
      chain.onResponseError(NOT_STARTED, error as Error);
      return true;
    }
  };
}

export class PolicyChain implements Handler {
  /** Innermost first. */
  readonly policies: Policy[] = [];
  /** Set once a policy refused the exchange: the wire is heard no more. */
  private failed = false;

  constructor(
    private readonly end: Handler,
    private readonly dispatch: Dispatch,
    /** The request's dispatch options, as its first hop was sent. */
    readonly options: Dispatcher.DispatchOptions,
  ) {}

  onRequestStart(controller: Controller, context: unknown): void {
    if (this.failed) return controller.abort(ABANDONED);
    for (const policy of this.policies)
      if (policy.onRequestStart !== undefined) context = policy.onRequestStart(controller, context);
    this.end.onRequestStart?.(controller, context);
  }

  onResponseStart(controller: Controller, status: number, headers: Headers, statusMessage?: string): void {
    if (this.failed) return;
    for (const policy of this.policies)
      if (policy.onResponseStart !== undefined && !policy.onResponseStart(controller, status, headers, this)) return;
    this.end.onResponseStart?.(controller, status, headers, statusMessage);
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    if (!this.failed) this.dataFrom(0, controller, chunk);
  }

  onResponseEnd(controller: Controller, trailers: Headers): void {
    if (!this.failed) this.endFrom(0, controller, trailers);
  }

  onResponseError(controller: Controller, error: Error): void {
    if (!this.failed) this.errorFrom(0, controller, error);
  }

  /** Hands `chunk` on from `policy`'s place: to the policies after it, then the caller. */
  dataAfter(policy: Policy, controller: Controller, chunk: Buffer): void {
    if (!this.failed) this.dataFrom(this.policies.indexOf(policy) + 1, controller, chunk);
  }

  endAfter(policy: Policy, controller: Controller, trailers: Headers): void {
    if (!this.failed) this.endFrom(this.policies.indexOf(policy) + 1, controller, trailers);
  }

  errorAfter(policy: Policy, controller: Controller, error: Error): void {
    if (!this.failed) this.errorFrom(this.policies.indexOf(policy) + 1, controller, error);
  }

  /** `policy` refuses the exchange with `error`: the rest of the chain hears it once, and the connection is dropped. */
  fail(policy: Policy, controller: Controller, error: Error): void {
    if (this.failed) return;
    this.failed = true;
    this.errorFrom(this.policies.indexOf(policy) + 1, controller, error);
    controller.abort(ABANDONED);
  }

  /** Puts `fresh` in the place of the shared `policy`, for the rest of this request: from the event being heard on. */
  replace(policy: Policy, fresh: Policy): void {
    this.policies[this.policies.indexOf(policy)] = fresh;
  }

  /** Sends another hop of this exchange (a redirect): its events come back here. May throw, as dispatch does. */
  redispatch(options: Dispatcher.DispatchOptions): void {
    this.dispatch(options, this);
  }

  private dataFrom(index: number, controller: Controller, chunk: Buffer): void {
    const { policies } = this;
    for (let i = index; i < policies.length; i++) {
      const policy = policies[i] as Policy;
      if (policy.onResponseData !== undefined && !policy.onResponseData(controller, chunk)) return;
    }
    this.end.onResponseData?.(controller, chunk);
  }

  private endFrom(index: number, controller: Controller, trailers: Headers): void {
    const { policies } = this;
    for (let i = index; i < policies.length; i++) {
      const policy = policies[i] as Policy;
      if (policy.onResponseEnd !== undefined && !policy.onResponseEnd(controller, trailers)) return;
    }
    this.end.onResponseEnd?.(controller, trailers);
  }

  private errorFrom(index: number, controller: Controller, error: Error): void {
    const { policies } = this;
    for (let i = index; i < policies.length; i++) {
      const policy = policies[i] as Policy;
      if (policy.onResponseError !== undefined && !policy.onResponseError(controller, error)) return;
    }
    this.end.onResponseError?.(controller, error);
  }
}

/** A header's one value: a header sent more than once is joined with `, `, as HTTP reads it. */
export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
