// The end of the client's dispatch chain: one request across all its hops, as the caller awaits
// it. It collects the answer the policies hand on (no stream, no second copy) and holds the
// caller's abort, which fails the exchange at any moment, before or after undici has started the
// hop on the wire, and while the request still waits for the upstream guard.

import { abortedError } from './errors.js';
import { ABANDONED, type Controller, type Handler, type Headers } from './interceptors/policy-chain.js';
import type { RedirectContext } from './interceptors/redirect.js';

const EMPTY_BODY = Buffer.alloc(0);
const NO_HEADERS: Headers = Object.freeze({});

export class Exchange implements Handler {
  status = 0;
  headers: Headers = NO_HEADERS;
  /** The URLs redirects led to, in order; null when none was followed. */
  redirects: readonly URL[] | null = null;
  /** Set once the outcome is decided (answered, failed, timed out or aborted): the rest is ignored. */
  private settled = false;
  private readonly chunks: Buffer[] = [];
  private total = 0;
  private controller: Controller | null = null;
  private resolve!: (exchange: Exchange) => void;
  private reject!: (error: unknown) => void;
  readonly done = new Promise<Exchange>((resolve, reject) => {
    this.resolve = resolve;
    this.reject = reject;
  });

  constructor(private readonly callerSignal: AbortSignal | undefined) {
    if (callerSignal !== undefined) callerSignal.addEventListener('abort', this, { once: true });
  }

  onRequestStart(controller: Controller, context: RedirectContext | undefined): void {
    if (this.settled) return controller.abort(ABANDONED);
    this.controller = controller;
    if (context?.redirects !== undefined) this.redirects = context.redirects;
  }

  onResponseStart(_controller: Controller, status: number, headers: Headers): void {
    if (this.settled || status < 200) return; // 1xx informational answers are skipped
    this.status = status;
    this.headers = headers;
  }

  onResponseData(_controller: Controller, chunk: Buffer): void {
    if (this.settled) return;
    this.total += chunk.length;
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.settled) return;
    this.settled = true;
    this.resolve(this);
  }

  onResponseError(_controller: Controller, error: Error): void {
    this.failWith(error);
  }

  /** EventTarget listener object: the caller aborted; the hop on the wire, if any, is torn down. */
  handleEvent(): void {
    if (this.settled) return;
    const error = abortedError();
    this.failWith(error);
    this.controller?.abort(error);
  }

  body(): Buffer {
    const { chunks } = this;
    if (chunks.length === 1) return chunks[0] as Buffer;
    return chunks.length === 0 ? EMPTY_BODY : Buffer.concat(chunks, this.total);
  }

  dispose(): void {
    if (this.callerSignal !== undefined) this.callerSignal.removeEventListener('abort', this);
  }

  private failWith(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.reject(error);
  }
}
