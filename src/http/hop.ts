// One exchange on the wire (`Hop`) and the state of one request across its hops (`Call`): the
// running byte count, the deadline and the caller's abort, as the HTTP client uses them.

import type { Dispatcher } from 'undici';
import { abortedError, HttpError, timeoutError } from './errors.js';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/**
 * A redirect's own body is read and dropped (so the connection can be reused) up to this many
 * bytes; past that the connection is dropped instead and the redirect is still followed.
 */
const REDIRECT_DRAIN_LIMIT = 64 * 1024;

export type IncomingHeaders = Record<string, string | string[] | undefined>;

/** Bytes several requests may read together; `take` says why not when a chunk passes it. */
export interface ByteBudget {
  take(bytes: number): string | null;
}

/**
 * One request/response on the wire, as an undici dispatch handler: the body is collected here
 * with a running byte count (no stream, no second copy), and the exchange can be failed from
 * outside at any moment (deadline, caller abort), before or after undici has started it.
 */
export class Hop implements Dispatcher.DispatchHandler {
  status = 0;
  headers: IncomingHeaders = NO_HEADERS;
  chunks: Buffer[] = [];
  total = 0;
  /** A redirect to follow: its body is drained, not kept. */
  redirect = false;
  private controller: Dispatcher.DispatchController | null = null;
  private settled = false;
  private limit: number;
  private readonly resolve: (hop: Hop) => void;
  private readonly reject: (error: unknown) => void;

  constructor(
    limit: number,
    resolve: (hop: Hop) => void,
    reject: (error: unknown) => void,
    private readonly budget?: ByteBudget,
  ) {
    this.limit = limit;
    this.resolve = resolve;
    this.reject = reject;
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.settled) controller.abort(ABANDONED);
    else this.controller = controller;
  }

  onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: IncomingHeaders): void {
    if (this.settled || status < 200) return; // 1xx informational answers are skipped
    this.status = status;
    this.headers = headers;
    if (REDIRECT_STATUSES.has(status) && headers.location !== undefined) {
      this.redirect = true;
      this.limit = REDIRECT_DRAIN_LIMIT;
    }
    const length = headers['content-length'];
    if (typeof length === 'string' && Number(length) > this.limit) this.overflow(controller);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    this.total += chunk.length;
    const overBudget = this.budget?.take(chunk.length) ?? null;
    if (overBudget !== null) this.overflow(controller, overBudget);
    else if (this.total > this.limit) this.overflow(controller);
    else if (!this.redirect) this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.settled) return;
    this.settled = true;
    this.resolve(this);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.reject(error);
  }

  /** Fails the hop from outside (deadline, caller abort) and tears the exchange down. */
  fail(error: HttpError): void {
    if (this.settled) return;
    this.settled = true;
    this.controller?.abort(error);
    this.reject(error);
  }

  /** The body passed its cap: stop reading and drop the connection at once. */
  private overflow(controller: Dispatcher.DispatchController, overBudget?: string): void {
    this.settled = true;
    controller.abort(ABANDONED);
    if (overBudget !== undefined) this.reject(new HttpError('too-large', overBudget));
    else if (this.redirect) this.resolve(this);
    else this.reject(new HttpError('too-large', `response body larger than ${this.limit} bytes (maxResponseBytes)`));
  }

  body(): Buffer {
    const { chunks } = this;
    if (chunks.length === 1) return chunks[0] as Buffer;
    return chunks.length === 0 ? EMPTY_BODY : Buffer.concat(chunks, this.total);
  }
}

/** The reason handed to undici when this module drops an exchange it no longer wants. */
const ABANDONED = new Error('exchange abandoned by the client');
const EMPTY_BODY = Buffer.alloc(0);
const NO_HEADERS: IncomingHeaders = Object.freeze({});

export const NOT_ABORTED = 0;
const BY_TIMEOUT = 1;
const BY_CALLER = 2;

/** Per-call state: the total deadline, the caller's signal, the hop in flight. */
export class Call {
  cause = NOT_ABORTED;
  hop: Hop | null = null;
  private readonly timer: NodeJS.Timeout;
  private readonly callerSignal: AbortSignal | undefined;
  private readonly totalTimeoutMs: number;

  constructor(
    totalTimeoutMs: number,
    callerSignal: AbortSignal | undefined,
    readonly budget?: ByteBudget,
  ) {
    this.totalTimeoutMs = totalTimeoutMs;
    this.timer = setTimeout(onDeadline, totalTimeoutMs, this);
    this.callerSignal = callerSignal;
    if (callerSignal !== undefined) callerSignal.addEventListener('abort', this, { once: true });
  }

  /** EventTarget listener object: the caller aborted. */
  handleEvent(): void {
    this.abort(BY_CALLER);
  }

  abort(cause: number): void {
    if (this.cause !== NOT_ABORTED) return;
    this.cause = cause;
    this.hop?.fail(this.error());
  }

  /** The error for the abort cause (only meaningful once aborted). */
  error(): HttpError {
    return this.cause === BY_CALLER ? abortedError() : timeoutError(this.totalTimeoutMs);
  }

  dispose(): void {
    clearTimeout(this.timer);
    if (this.callerSignal !== undefined) this.callerSignal.removeEventListener('abort', this);
  }
}

function onDeadline(call: Call): void {
  call.abort(BY_TIMEOUT);
}
