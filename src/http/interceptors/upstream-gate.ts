// The upstream guard's place in the chain (the guard itself is src/guard/):
// outermost, around every hop of a request. Before anything is dispatched the gate admits the
// request (no pause of its scope, a token in its rate bucket, a free concurrency slot) or refuses
// it, and then nothing is sent and the caller hears a RefusedError saying when to try again.
// Once the answer is over the slot is freed, and the answer is reported to the gate (a 429, or a
// 503 with Retry-After, pauses the scope) before the caller hears it, so the caller's next
// request already meets the pause. A request without a gate in its options passes through.

import { abortedError, RefusedError, type Refusal } from '../errors.js';
import {
  headerValue,
  NOT_STARTED,
  PolicyHandler,
  type Controller,
  type Handler,
  type Headers,
  type Interceptor,
} from './policy-handler.js';
import type { Dispatcher } from 'undici';

/** Let go (free the slot with `release` once answered, report the answer to `scope`), or refused. */
export type Admission = { ok: true; release: () => void; scope: string } | { ok: false; refusal: Refusal };

/** What the chain asks of the upstream guard (src/guard/upstream-guard.ts is one). */
export interface UpstreamGate {
  /** An admission at once where nothing is to wait for (the request then goes in the same turn), or its promise. */
  admit(origin: string, namespace: string, signal: AbortSignal | undefined): Admission | Promise<Admission>;
  /** Reads an answer for a pause; null when there is nothing to wait for. */
  observe(scope: string, status: number, retryAfter: string | undefined): Promise<void> | null;
}

/** The dispatch option that puts a request behind a gate: whose request it is, to which origin. */
export interface GateOptions {
  gate?: { by: UpstreamGate; origin: string; namespace: string; signal: AbortSignal | undefined };
}

/** A failure of the gate itself (its shared state): the client hands the cause on as it came. */
export class GateFailure extends Error {
  constructor(readonly failure: unknown) {
    super('the upstream guard failed');
  }
}

export function upstreamGate(): Interceptor {
  return (dispatch) => (options, handler) => {
    const { gate } = options as GateOptions;
    if (gate === undefined) return dispatch(options, handler);
    let admitted: Admission | Promise<Admission>;
    try {
      admitted = gate.by.admit(gate.origin, gate.namespace, gate.signal);
    } catch (error) {
      handler.onResponseError?.(NOT_STARTED, new GateFailure(error));
      return true;
    }
    if (!(admitted instanceof Promise)) {
      dispatchAdmitted(dispatch, options, handler, gate, admitted);
      return true;
    }
    admitted.then(
      (admission) => dispatchAdmitted(dispatch, options, handler, gate, admission),
      (error: unknown) => handler.onResponseError?.(NOT_STARTED, new GateFailure(error)),
    );
    return true;
  };
}

/** Dispatches a request the gate let go, or fails it with the gate's refusal. */
function dispatchAdmitted(
  dispatch: Dispatcher['dispatch'],
  options: Dispatcher.DispatchOptions,
  handler: Handler,
  gate: NonNullable<GateOptions['gate']>,
  admission: Admission,
): void {
  if (!admission.ok) return handler.onResponseError?.(NOT_STARTED, new RefusedError(admission.refusal));
  // The caller gave up while the request waited its turn: nothing is dispatched.
  if (gate.signal?.aborted) {
    admission.release();
    return handler.onResponseError?.(NOT_STARTED, abortedError());
  }
  const gated = new GateHandler(handler, gate.by, admission);
  try {
    dispatch(options, gated);
  } catch (error) {
    gated.onResponseError(NOT_STARTED, error as Error);
  }
}

class GateHandler extends PolicyHandler {
  private status = 0;
  private retryAfter: string | undefined;
  private released = false;

  constructor(
    next: Handler,
    private readonly gate: UpstreamGate,
    private readonly admission: Extract<Admission, { ok: true }>,
  ) {
    super(next);
  }

  override onResponseStart(controller: Controller, status: number, headers: Headers, statusMessage?: string): void {
    this.status = status;
    this.retryAfter = headerValue(headers['retry-after']);
    super.onResponseStart(controller, status, headers, statusMessage);
  }

  override onResponseEnd(controller: Controller, trailers: Headers): void {
    this.release();
    const observed = this.gate.observe(this.admission.scope, this.status, this.retryAfter);
    if (observed === null) return super.onResponseEnd(controller, trailers);
    observed.then(
      () => super.onResponseEnd(controller, trailers),
      (error: unknown) => super.onResponseError(controller, new GateFailure(error)),
    );
  }

  override onResponseError(controller: Controller, error: Error): void {
    this.release();
    super.onResponseError(controller, error);
  }

  private release(): void {
    if (this.released) return;
    this.released = true;
    this.admission.release();
  }
}
