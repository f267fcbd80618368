// The upstream guard's place in the client (the guard itself is src/guard/): outermost, around
// every hop of a request, in two parts.
//
// - `upstreamGate`, around the dispatch of the policy chain: before anything is dispatched the
//   gate admits the request (no pause of its scope, a token in its rate bucket, a free
//   concurrency slot) or refuses it, and then nothing is sent and the caller hears a RefusedError
//   saying when to try again. A request without a gate in its options passes through.
// - `gateAnswer`, the chain's outermost policy for an admitted request: once the answer is over
//   the slot is freed, and the answer is reported to the gate (a 429, or a 503 with Retry-After,
//   pauses the scope) before the caller hears it, so the caller's next request already meets the
//   pause.

import { abortedError, RefusedError, type Refusal } from '../errors.js';
import {
  headerValue,
  NOT_STARTED,
  type Controller,
  type Handler,
  type Headers,
  type Interceptor,
  type Policy,
  type PolicyChain,
  type PolicyMaker,
} from './policy-chain.js';
import type { Dispatcher } from 'undici';

/** Let go (free the slot with `release` once answered, report the answer to `scope`), or refused. */
export type Admission = { ok: true; release: () => void; scope: string } | { ok: false; refusal: Refusal };

/** What the chain asks of the upstream guard (src/guard/upstream-guard.ts is one). */
export interface UpstreamGate {
  /** An admission at once where nothing is to wait for (the request then goes in the same turn), or its promise. */
  admit(origin: string, namespace: string, signal: AbortSignal | undefined): Admission | Promise<Admission>;
  /**
   * Reads an answer for a pause: null when there is nothing to wait for, else the whole seconds
   * the scope is paused for once the pause is set (null when none is in force).
   */
  observe(scope: string, status: number, retryAfter: string | undefined): Promise<number | null> | null;
}

/** The dispatch option that puts a request behind a gate: whose request it is, to which origin. */
export interface GateOptions {
  gate?: { by: UpstreamGate; origin: string; namespace: string; signal: AbortSignal | undefined };
  /** Written by `upstreamGate` into the request's options once the gate let it go: what `gateAnswer` frees and reports to. */
  admitted?: Extract<Admission, { ok: true }>;
  /** Written by `gateAnswer` once the gate read the answer: the whole seconds its scope is paused for, if it is. */
  pausedSeconds?: number | undefined;
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
  // The options are this request's own (the client makes them per request).
  (options as GateOptions).admitted = admission;
  try {
    dispatch(options, handler);
  } catch (error) {
    // A policy chain hears a failed dispatch itself (and frees the slot then); a plain dispatch throws.
    admission.release();
    handler.onResponseError?.(NOT_STARTED, error as Error);
  }
}

/** The chain's outermost policy: frees an admitted request's slot and reports its answer to the gate. */
export function gateAnswer(): PolicyMaker {
  return (chain, options) => {
    const { gate, admitted } = options as GateOptions;
    return gate === undefined || admitted === undefined
      ? null
      : new GateAnswer(chain, gate.by, admitted, options as GateOptions);
  };
}

class GateAnswer implements Policy {
  private status = 0;
  private retryAfter: string | undefined = undefined;
  private released = false;

  constructor(
    private readonly chain: PolicyChain,
    private readonly gate: UpstreamGate,
    private readonly admission: Extract<Admission, { ok: true }>,
    private readonly options: GateOptions,
  ) {}

  onResponseStart(_controller: Controller, status: number, headers: Headers): boolean {
    this.status = status;
    this.retryAfter = headerValue(headers['retry-after']);
    return true;
  }

  /** The caller hears the end once the gate has read the answer. */
  onResponseEnd(controller: Controller, trailers: Headers): boolean {
    this.release();
    const observed = this.gate.observe(this.admission.scope, this.status, this.retryAfter);
    if (observed === null) return true;
    observed.then(
      (seconds) => {
        // The caller is told the pause the gate holds, not what the upstream wrote.
        if (seconds !== null) this.options.pausedSeconds = seconds;
        this.chain.endAfter(this, controller, trailers);
      },
      (error: unknown) => this.chain.errorAfter(this, controller, new GateFailure(error)),
    );
    return false;
  }

  onResponseError(): boolean {
    this.release();
    return true;
  }

  private release(): void {
    if (this.released) return;
    this.released = true;
    this.admission.release();
  }
}
