// The one HTTP client of the core (RULINGS R5): every upstream request goes through here.
//
// - One undici Agent per client (a Pool per origin inside it) with keep-alive reuse.
// - Every request has a connect timeout, one total deadline over the whole exchange (all redirect
//   hops and the body), a response-size cap enforced while reading, and the caller's abort signal.
// - Redirects are followed by this module, never by undici, and only within the origin of the
//   requested URL (scheme + host + port), at most `maxRedirects` times.
// - Errors are `HttpError`s with a closed set of kinds. Messages are short and name the limit or
//   the cause; they never carry header values, request bodies, paths or query strings (an origin
//   may appear). Callers still redact them (R4), since a key could sit in a host name.
import type { Agent, Dispatcher } from 'undici';
import { undici } from '../deps.js';

export interface HttpLimits {
  /** Time allowed to open the TCP (and TLS) connection. */
  connectTimeoutMs: number;
  /** The whole exchange: every redirect hop, the headers and the body. */
  totalTimeoutMs: number;
  /** Largest body read; the read stops as soon as the count passes it. */
  maxResponseBytes: number;
  /** Same-origin redirects followed before giving up. */
  maxRedirects: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = Object.freeze({
  connectTimeoutMs: 5_000,
  totalTimeoutMs: 15_000,
  maxResponseBytes: 1_048_576,
  maxRedirects: 5,
});

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface HttpResponse {
  status: number;
  /** Lower-case names; a header sent more than once is joined with `, `. */
  headers: Record<string, string>;
  body: Buffer;
  /** The final URL after redirects (serialised by WHATWG `URL`). */
  url: string;
  /** Redirect hops followed. */
  redirects: number;
}

export type HttpErrorKind =
  | 'timeout'
  | 'connect'
  | 'reset'
  | 'too-large'
  | 'redirect-refused'
  | 'too-many-redirects'
  | 'aborted'
  | 'invalid-url';

export class HttpError extends Error {
  readonly kind: HttpErrorKind;

  constructor(kind: HttpErrorKind, message: string) {
    super(message);
    this.name = 'HttpError';
    this.kind = kind;
  }
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers that describe a request body; dropped when a redirect turns the request into a GET. */
const BODY_HEADERS = new Set(['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']);
/**
 * A redirect's own body is read and dropped (so the connection can be reused) up to this many
 * bytes; past that the connection is dropped instead and the redirect is still followed.
 */
const REDIRECT_DRAIN_LIMIT = 64 * 1024;

type IncomingHeaders = Record<string, string | string[] | undefined>;

/**
 * One request/response on the wire, as an undici dispatch handler: the body is collected here
 * with a running byte count (no stream, no second copy), and the exchange can be failed from
 * outside at any moment (deadline, caller abort), before or after undici has started it.
 */
class Hop implements Dispatcher.DispatchHandler {
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

  constructor(limit: number, resolve: (hop: Hop) => void, reject: (error: unknown) => void) {
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
    if (this.total > this.limit) this.overflow(controller);
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
  private overflow(controller: Dispatcher.DispatchController): void {
    this.settled = true;
    controller.abort(ABANDONED);
    if (this.redirect) this.resolve(this);
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

const NOT_ABORTED = 0;
const BY_TIMEOUT = 1;
const BY_CALLER = 2;

/** Per-call state: the total deadline, the caller's signal, the hop in flight. */
class Call {
  cause = NOT_ABORTED;
  hop: Hop | null = null;
  private readonly timer: NodeJS.Timeout;
  private readonly callerSignal: AbortSignal | undefined;
  private readonly totalTimeoutMs: number;

  constructor(totalTimeoutMs: number, callerSignal: AbortSignal | undefined) {
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

export class HttpClient {
  private readonly limits: HttpLimits;
  private readonly backstopMs: number;
  /** Made on the first request: a catalog that is only listed never loads undici. */
  private agentMade: Agent | undefined;
  private closed = false;

  constructor(limits?: Partial<HttpLimits>) {
    const merged: HttpLimits = { ...DEFAULT_HTTP_LIMITS, ...limits };
    for (const key of Object.keys(DEFAULT_HTTP_LIMITS) as (keyof HttpLimits)[]) {
      const value = merged[key];
      const min = key === 'maxRedirects' ? 0 : 1;
      if (!Number.isSafeInteger(value) || value < min) {
        throw new RangeError(`HttpClient: ${key} must be an integer >= ${min}`);
      }
    }
    this.limits = Object.freeze(merged);
    // undici's own header and body timers are a backstop only: the total deadline fires first.
    this.backstopMs = merged.totalTimeoutMs + 1_000;
  }

  private get agent(): Agent {
    // As undici's own Agent does after close(): every later request fails, none opens a socket.
    if (this.closed && !this.agentMade) throw new (undici().errors.ClientClosedError)();
    this.agentMade ??= new (undici().Agent)({
      connect: { timeout: this.limits.connectTimeoutMs },
      headersTimeout: this.backstopMs,
      bodyTimeout: this.backstopMs,
    });
    return this.agentMade;
  }

  async request(request: HttpRequest, options?: { signal?: AbortSignal }): Promise<HttpResponse> {
    const url = parseRequestUrl(request.url);
    const callerSignal = options?.signal;
    if (callerSignal?.aborted) throw abortedError();
    const call = new Call(this.limits.totalTimeoutMs, callerSignal);
    try {
      return await this.exchange(url, request, call);
    } catch (error) {
      throw this.toHttpError(error, call, url);
    } finally {
      call.dispose();
    }
  }

  /** Closes idle connections; waits for requests in flight (each bounded by its deadline). */
  async close(): Promise<void> {
    this.closed = true;
    await this.agentMade?.close();
  }

  private send(
    call: Call,
    origin: string,
    path: string,
    method: HttpRequest['method'],
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<Hop> {
    if (call.cause !== NOT_ABORTED) return Promise.reject(call.error());
    const limit = this.limits.maxResponseBytes;
    return new Promise<Hop>((resolve, reject) => {
      const hop = new Hop(limit, resolve, reject);
      call.hop = hop;
      this.agent.dispatch({ origin, path, method, headers, body }, hop);
    });
  }

  private async exchange(url: URL, request: HttpRequest, call: Call): Promise<HttpResponse> {
    const { maxRedirects } = this.limits;
    const origin = url.origin;
    let current = url;
    let method: HttpRequest['method'] = request.method;
    let headers = request.headers;
    let body = request.body;
    let redirects = 0;
    for (;;) {
      const hop = await this.send(call, origin, current.pathname + current.search, method, headers, body);
      if (!hop.redirect) {
        return {
          status: hop.status,
          headers: flattenHeaders(hop.headers),
          body: hop.body(),
          url: current.href,
          redirects,
        };
      }
      const status = hop.status;
      const next = resolveRedirect(hop.headers.location as string | string[], current, origin);
      if (redirects >= maxRedirects) {
        throw new HttpError('too-many-redirects', `more than ${maxRedirects} redirects (maxRedirects)`);
      }
      redirects++;
      // Fetch semantics: 303 turns anything into GET; 301 and 302 turn POST into GET. Either way
      // the body goes, and with it the headers that describe it. 307 and 308 keep both.
      if (method !== 'GET' && (status === 303 || (method === 'POST' && (status === 301 || status === 302)))) {
        method = 'GET';
        body = undefined;
        headers = withoutBodyHeaders(headers);
      }
      current = next;
    }
  }

  private toHttpError(error: unknown, call: Call, url: URL): HttpError {
    if (call.cause !== NOT_ABORTED) return call.error();
    if (error instanceof HttpError) return error;
    const code = errorCode(error);
    switch (code) {
      case 'UND_ERR_CONNECT_TIMEOUT':
        return new HttpError(
          'timeout',
          `connecting to ${url.origin} timed out after ${this.limits.connectTimeoutMs} ms (connectTimeoutMs)`,
        );
      case 'UND_ERR_HEADERS_TIMEOUT':
      case 'UND_ERR_BODY_TIMEOUT':
        return timeoutError(this.limits.totalTimeoutMs);
      case 'UND_ERR_SOCKET':
      case 'ECONNRESET':
      case 'EPIPE':
      case 'ECONNABORTED':
        return new HttpError('reset', `connection to ${url.origin} was reset during the exchange`);
      case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
        return new HttpError('reset', `response from ${url.origin} did not match its Content-Length`);
      case 'UND_ERR_DESTROYED':
      case 'UND_ERR_CLOSED':
        return new HttpError('aborted', 'the HTTP client is closed');
      case 'UND_ERR_INVALID_ARG':
      case 'UND_ERR_NOT_SUPPORTED':
        // A header name or value undici refuses to send (e.g. a line break set by a handler).
        // undici's message names the header, never its value.
        return new HttpError('invalid-url', `request cannot be sent: ${String((error as Error).message).slice(0, 120)}`);
      default:
        break;
    }
    if (code !== undefined) {
      if (code.startsWith('HPE_')) return new HttpError('reset', `malformed HTTP response from ${url.origin}`);
      // DNS, refused, unreachable, TLS: the connection could not be established.
      return new HttpError('connect', `cannot connect to ${url.origin} (${code})`);
    }
    return new HttpError('connect', `request to ${url.origin} failed`);
  }
}

function timeoutError(totalTimeoutMs: number): HttpError {
  return new HttpError('timeout', `request timed out after ${totalTimeoutMs} ms (totalTimeoutMs)`);
}

function abortedError(): HttpError {
  return new HttpError('aborted', 'request aborted by the caller');
}

function parseRequestUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new HttpError('invalid-url', 'request URL is not a valid absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new HttpError('invalid-url', `request URL scheme must be http or https, not ${url.protocol.slice(0, 20)}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new HttpError('invalid-url', 'request URL must not carry credentials (user:password@)');
  }
  return url;
}

function resolveRedirect(location: string | string[], current: URL, origin: string): URL {
  if (typeof location !== 'string') {
    throw new HttpError('redirect-refused', 'redirect refused: more than one Location header');
  }
  let next: URL;
  try {
    next = new URL(location, current);
  } catch {
    throw new HttpError('redirect-refused', 'redirect refused: Location is not a valid URL');
  }
  if (next.origin !== origin) {
    if (next.protocol !== 'https:' && next.protocol !== 'http:') {
      throw new HttpError('redirect-refused', `redirect refused: ${next.protocol.slice(0, 20)} URLs are not followed`);
    }
    throw new HttpError('redirect-refused', `redirect to another origin refused: ${next.origin}`);
  }
  if (next.username !== '' || next.password !== '') {
    throw new HttpError('redirect-refused', 'redirect refused: Location carries credentials');
  }
  return next;
}

function withoutBodyHeaders(headers: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const name of Object.keys(headers)) {
    if (!BODY_HEADERS.has(name.toLowerCase())) result[name] = headers[name] as string;
  }
  return result;
}

/** Joins repeated headers in place (undici builds a fresh object per response). */
function flattenHeaders(headers: IncomingHeaders): Record<string, string> {
  for (const name in headers) {
    const value = headers[name];
    if (typeof value !== 'string') {
      if (Array.isArray(value)) headers[name] = value.join(', ');
      else delete headers[name];
    }
  }
  return headers as Record<string, string>;
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const cause = (error as { cause?: unknown }).cause;
  if (cause !== undefined && cause !== error) return errorCode(cause);
  return undefined;
}
