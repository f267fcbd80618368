// Testing one of the client's policies alone: run by a policy chain on a plain undici Agent (no
// client, no catalog), a request dispatched through it to a real loopback server, and every event the end
// of the chain hears recorded, so a test can say what was handed on, and that a failure was
// heard exactly once and nothing after it.

import { Agent, type Dispatcher } from 'undici';
import {
  policyDispatch,
  type Dispatch,
  type Interceptor,
  type PolicyMaker,
} from '../../src/http/interceptors/policy-chain.js';

export interface Outcome {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** How many body chunks arrived (one when a policy held the body and handed it on whole). */
  chunks: number;
  /** The context of each onRequestStart: one per hop. */
  starts: unknown[];
  error: Error | null;
  /** Events heard after the outcome was decided: a policy must hand on nothing more. */
  late: string[];
}

/**
 * An Agent with `policies` run on it by one handler per request, innermost first (as the client
 * composes them), the dispatch wrapped by `around` when given (the upstream gate's admission).
 */
export function composed(
  policies: PolicyMaker[],
  agentOptions: Agent.Options = {},
  around?: Interceptor,
): { dispatcher: { dispatch: Dispatch }; close: () => Promise<void> } {
  const agent = new Agent(agentOptions);
  const dispatch = policyDispatch(policies, agent.dispatch.bind(agent));
  return { dispatcher: { dispatch: around === undefined ? dispatch : around(dispatch) }, close: () => agent.close() };
}

/** Dispatches one request through `dispatcher` and resolves with what the end of the chain heard. */
export function dispatchThrough(
  dispatcher: { dispatch: Dispatch },
  options: Partial<Dispatcher.DispatchOptions> & { origin: string } & Record<string, unknown>,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = {
      status: 0,
      headers: {},
      body: Buffer.alloc(0),
      chunks: 0,
      starts: [],
      error: null,
      late: [],
    };
    const parts: Buffer[] = [];
    let done = false;
    const finish = (): void => {
      done = true;
      outcome.body = Buffer.concat(parts);
      resolve(outcome);
    };
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart: (_controller, context) => outcome.starts.push(context),
      onResponseStart: (_controller, status, headers) => {
        if (done) outcome.late.push('start');
        outcome.status = status;
        outcome.headers = headers;
      },
      onResponseData: (_controller, chunk) => {
        if (done) return void outcome.late.push('data');
        outcome.chunks++;
        parts.push(chunk);
      },
      onResponseEnd: () => {
        if (done) return void outcome.late.push('end');
        finish();
      },
      onResponseError: (_controller, error) => {
        if (done) return void outcome.late.push(`error ${error.message}`);
        outcome.error = error;
        finish();
      },
    };
    dispatcher.dispatch({ method: 'GET', path: '/', headers: {}, ...options } as Dispatcher.DispatchOptions, handler);
  });
}

/** Lets whatever a dropped exchange still has to say arrive, so `late` can be checked. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 20));
}
