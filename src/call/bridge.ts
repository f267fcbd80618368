// The host side of the network bridge (decision R12): an executeRequest handler's `fetch` (and
// ethers' requests) arrive here as plain data, and the core performs them with its own client,
// limits, redirect rule and private-address rule. Before anything is sent: the per-call bound on
// requests, the schema's reach, and the key binding (a key token goes only to an origin bound to
// that key; a request carrying one elsewhere is refused). The answer is redacted of every key form
// before the handler sees it. Each outbound request is recorded on the call.
//
// Bounds count from admission: a request counts against `maxRequestsPerCall` when it arrives, not
// when it finishes, and every byte read counts against `maxBytesPerCall` as it arrives, shared by
// the call's requests in flight (past the bound, reading stops); the requests it sends (URL,
// headers and body) count against the same bound on their own, before they are sent. When the call has answered, its
// requests still in flight are aborted and recorded as such; nothing more is sent for it.

import { setMaxListeners } from 'node:events';
import { HttpError, RefusedError, type ByteBudget, type HttpClient, type HttpRequest } from '../http/client.js';
import { egressRefusal, restateLength } from '../http/egress.js';
import type { Reach } from '../http/reach.js';
import type { Redactor } from '../http/redact.js';
import type { SecretStore, SecretTokens } from '../http/secrets.js';
import type { Upstreams } from '../http/upstreams.js';
import type { BridgeAnswer, BridgeRequest } from '../sandbox/protocol.js';
import type { OutboundRecord } from './outcome.js';
import type { Refusal, UpstreamGuard } from '../guard/upstream-guard.js';

/** One outbound request of a call, for the audit log. */
export interface BridgeContext {
  http: HttpClient;
  upstreams: Upstreams;
  secrets: SecretStore;
  redactor: Redactor;
  maxRequestsPerCall: number;
  maxBytesPerCall: number;
  /** The origins `network.allowPrivate` lists one by one (address-policy.ts). */
  privateOrigins: ReadonlySet<string>;
  guard: UpstreamGuard;
}

const METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'PUT', 'DELETE']);

/** A bridged request as the host reads it: the body back to its bytes. */
interface HostRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** A request of the call that has not finished; recorded at once if the call ends first. */
interface InFlight {
  origin: string;
  method: string;
  started: number;
  recorded: boolean;
}

/** One call's bridge: its reach, its tokens, its bounds and its record. */
export class CallBridge {
  readonly requests: OutboundRecord[] = [];
  /** The first request the upstream guard did not send, if any: the call's answer when the handler then fails. */
  rateLimit: Refusal | null = null;
  /** The Cache-Control values of the answers the handler got, for the response cache. */
  readonly cacheControl: string[] = [];
  /** Requests asked for so far, counted as they arrive (not as they finish): the bound holds for requests started at once. */
  private arrived = 0;
  /** Whether a request past maxRequestsPerCall is recorded: the first only, so a loop that asks on cannot grow the record without end. */
  private overBoundRecorded = false;
  /** Bytes read from the wire so far, by all the call's requests together, and after decoding. */
  private readonly wire: ByteBudget & { read: number };
  private bytes = 0;
  /** Bytes of the requests the call has had sent (URL, headers, body): the host holds each while it goes out. */
  private sent = 0;
  private readonly inFlight = new Set<InFlight>();

  constructor(
    private readonly context: BridgeContext,
    private readonly call: {
      namespace: string;
      reach: Reach;
      keys: readonly string[];
      tokens: SecretTokens;
      signal?: AbortSignal;
    },
  ) {
    // Each of the call's requests listens on its signal; they are bounded by maxRequestsPerCall,
    // so Node's warning at eleven listeners would only be noise.
    if (call.signal) setMaxListeners(context.maxRequestsPerCall + 10, call.signal);
    const max = context.maxBytesPerCall;
    this.wire = {
      read: 0,
      take(bytes) {
        this.read += bytes;
        return this.read > max ? tooManyBytes(max) : null;
      },
    };
  }

  /**
   * Performs one bridged request; every refusal or failure is an answer with a stable prefix,
   * never a throw. `callEnded` aborts when the handler's call has answered.
   */
  async perform(wire: BridgeRequest, callEnded?: AbortSignal, cancelled?: AbortSignal): Promise<BridgeAnswer> {
    const started = performance.now();
    const request: HostRequest = {
      url: String(wire.url),
      method: String(wire.method ?? 'GET').toUpperCase(),
      headers: wire.headers,
    };
    if (wire.body !== undefined) request.body = Buffer.from(String(wire.body), 'base64');
    const method = request.method;
    let url: URL | null = null;
    try {
      url = new URL(request.url);
    } catch {
      // new URL throws only on a malformed URL: null says the request has none, and is refused below.
      url = null;
    }
    const refused = callEnded?.aborted ? CALL_ENDED : this.refusal(method, url, request);
    const overBound = this.arrived >= this.context.maxRequestsPerCall;
    this.arrived += 1;
    if (refused && overBound && this.overBoundRecorded) return { ok: false, message: refused };
    this.overBoundRecorded ||= overBound;
    if (refused) return this.failed(url?.origin ?? String(request.url).slice(0, 100), method, started, 0, refused);
    this.sent += requestBytes(request);
    const target = url as URL;
    const filled = this.fill(request);
    const entry: InFlight = { origin: target.origin, method, started, recorded: false };
    const signal = this.signalFor(entry, callEnded, handlerSignal(cancelled, wire.timeoutMs));
    // Recorded the moment the handler aborts it: its call may answer right after, before the request has unwound.
    cancelled?.addEventListener(
      'abort',
      () => this.abandon(entry, 'ABORTED: the handler aborted this request (its AbortSignal)'),
      { once: true },
    );
    try {
      const response = await this.context.http.request(
        {
          method: method as HttpRequest['method'],
          url: this.context.upstreams.route(new URL(filled.url)),
          headers: filled.headers,
          ...(filled.body === undefined ? {} : { body: filled.body }),
        },
        {
          signal,
          origin: target.origin,
          budget: this.wire,
          guard: { by: this.context.guard, namespace: this.call.namespace },
        },
      );
      if (entry.recorded) return { ok: false, message: CALL_ENDED };
      this.bytes += response.body.length;
      if (this.bytes > this.context.maxBytesPerCall) {
        return this.failed(
          target.origin,
          method,
          started,
          response.status,
          tooManyBytes(this.context.maxBytesPerCall),
          response.body.length,
        );
      }
      this.record(target.origin, method, started, response.status, response.body.length);
      if (response.headers['cache-control'] !== undefined) this.cacheControl.push(response.headers['cache-control']);
      const { headers, body } = this.context.redactor.redactRawAnswer(response);
      return {
        ok: true,
        status: response.status,
        url: this.context.redactor.redact(target.href),
        headers,
        body: body.toString('base64'),
      };
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      if (entry.recorded) return { ok: false, message: CALL_ENDED };
      if (error instanceof RefusedError) {
        this.rateLimit ??= error.refusal;
        return this.failed(target.origin, method, started, 0, `RATE_LIMITED: ${error.refusal.message}`);
      }
      if (wire.timeoutMs !== undefined && error.kind === 'aborted')
        return this.failed(
          target.origin,
          method,
          started,
          0,
          `TIMEOUT: no answer within ${wire.timeoutMs} ms (the handler's AbortSignal.timeout)`,
        );
      if (error.kind === 'too-large' && this.wire.read > this.context.maxBytesPerCall)
        return this.failed(target.origin, method, started, 0, error.message);
      return this.failed(
        target.origin,
        method,
        started,
        0,
        `upstream request failed: ${this.context.redactor.redact(error.message)}`,
      );
    } finally {
      this.inFlight.delete(entry);
    }
  }

  /**
   * The signal of one request: the caller's, and the end of the handler's call. When the call
   * ends first, the request is recorded at once as aborted (the record is read as the call answers).
   */
  private signalFor(
    entry: InFlight,
    callEnded: AbortSignal | undefined,
    handler: AbortSignal | undefined,
  ): AbortSignal | undefined {
    const signals = [this.call.signal, handler].filter((signal): signal is AbortSignal => signal !== undefined);
    if (callEnded) {
      this.inFlight.add(entry);
      callEnded.addEventListener(
        'abort',
        () => this.abandon(entry, 'ABORTED: the call answered before this request finished'),
        { once: true },
      );
      signals.push(callEnded);
    }
    return signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  }

  /** Records a request in flight as aborted now, with why; its own unwinding later records nothing. */
  private abandon(entry: InFlight, why: string): void {
    if (!this.inFlight.has(entry) || entry.recorded) return;
    entry.recorded = true;
    this.record(entry.origin, entry.method, entry.started, 0, 0, why);
  }

  /** Keys filled in where the handler put their tokens; a body's bytes stay bytes around them. */
  private fill(request: HostRequest): { url: string; headers: Record<string, string>; body?: Buffer } {
    const valueOf = (key: string) =>
      this.call.keys.includes(key) ? this.context.secrets.valueFor(key, this.call.namespace) : undefined;
    const slots = this.slotsFor(request);
    const { url, headers } = this.call.tokens.fill({ url: request.url, headers: request.headers }, slots, valueOf);
    if (!request.body) return { url, headers };
    // One byte per character (latin1) keeps any bytes exact; a key value goes in as its UTF-8 bytes.
    const asBytes = (key: string) => {
      const value = valueOf(key);
      return value === undefined ? undefined : Buffer.from(value, 'utf8').toString('latin1');
    };
    const body =
      this.call.tokens.fill(
        { url: '', headers: {}, body: request.body.toString('latin1') },
        { ...slots, url: new Set() },
        asBytes,
      ).body ?? '';
    const bytes = Buffer.from(body, 'latin1');
    restateLength(headers, bytes);
    return { url, headers, body: bytes };
  }

  /** Why the request may not leave, checked before anything is sent; null when it may. */
  private refusal(method: string, url: URL | null, request: HostRequest): string | null {
    if (this.arrived >= this.context.maxRequestsPerCall) {
      return `TOO_MANY_REQUESTS: the call made more than ${this.context.maxRequestsPerCall} requests (network.maxRequestsPerCall)`;
    }
    if (this.wire.read > this.context.maxBytesPerCall || this.bytes > this.context.maxBytesPerCall)
      return tooManyBytes(this.context.maxBytesPerCall);
    if (this.sent + requestBytes(request) > this.context.maxBytesPerCall)
      return `TOO_MANY_BYTES: the call sent more than ${this.context.maxBytesPerCall} bytes of requests (network.maxBytesPerCall)`;
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
      return `INVALID_URL: ${JSON.stringify(String(request.url).slice(0, 100))} is not an http(s) URL`;
    if (url.username || url.password) return 'INVALID_URL: credentials in a URL are not sent';
    if (!METHODS.has(method)) return `METHOD_NOT_ALLOWED: ${method} (the core sends GET, POST, PUT and DELETE)`;
    if (!this.call.reach.allows(url))
      return `HOST_NOT_ALLOWED: ${url.origin} is not in the reach of ${this.call.namespace}`;
    // An operator's exception for a private service is for the schemas it serves (their root, or
    // their network.allow), not for any schema whose text merely writes its origin.
    if (this.context.privateOrigins.has(url.origin) && !this.call.reach.allowsBeyondText(url))
      return `HOST_NOT_ALLOWED: ${url.origin} is a private address network.allowPrivate opens only to a schema whose root it is or whose network.allow names it, not to ${this.call.namespace}, whose text merely writes it`;
    const text = [request.url, ...Object.values(request.headers), request.body?.toString('latin1') ?? ''].join('\n');
    for (const key of this.call.keys) {
      if (!text.includes(this.call.tokens.token(key)) || this.call.reach.binds(key, url)) continue;
      const bound = this.call.reach.boundOrigins(key);
      return `KEY_NOT_ALLOWED: the request to ${url.origin} carries the key ${key}, which is bound to ${bound.join(', ') || 'no origin'}; nothing was sent`;
    }
    return egressRefusal(request, url, this.context.redactor, (key) => this.call.reach.binds(key, url));
  }

  /** Every declared key may be filled anywhere in the request: the reach check above bound it to this origin. */
  private slotsFor(request: HostRequest): Parameters<SecretTokens['fill']>[1] {
    const keys = new Set(this.call.keys);
    return {
      url: keys,
      body: keys,
      headers: new Map(Object.keys(request.headers).map((name) => [name.toLowerCase(), keys] as const)),
    };
  }

  private failed(
    origin: string,
    method: string,
    started: number,
    status: number,
    message: string,
    bytes = 0,
  ): BridgeAnswer {
    this.record(origin, method, started, status, bytes, message);
    return { ok: false, message };
  }

  private record(origin: string, method: string, started: number, status: number, bytes: number, error?: string): void {
    this.requests.push(outboundRecord(origin, method, started, status, bytes, error));
  }
}

const CALL_ENDED = 'CALL_ENDED: the call that made this request has answered; nothing was sent';

/** What the host holds of a request while it goes out: its URL, its headers' names and values, and its body. */
function requestBytes(request: HostRequest): number {
  let bytes = Buffer.byteLength(request.url) + (request.body?.length ?? 0);
  for (const name of Object.keys(request.headers))
    bytes += Buffer.byteLength(name) + Buffer.byteLength(String(request.headers[name]));
  return bytes;
}

function tooManyBytes(max: number): string {
  return `TOO_MANY_BYTES: the call received more than ${max} bytes (network.maxBytesPerCall)`;
}

/** The record of one outbound request that started at `started` (performance.now()) and ends now. */
export function outboundRecord(
  origin: string,
  method: string,
  started: number,
  status: number,
  bytes: number,
  error?: string,
): OutboundRecord {
  const entry: OutboundRecord = {
    origin,
    method,
    status,
    bytes,
    ms: Math.round((performance.now() - started) * 100) / 100,
  };
  if (error) entry.error = error;
  return entry;
}

/** What the handler asked of this one request: its AbortController's signal, and its AbortSignal.timeout as a bound the core keeps. */
function handlerSignal(cancelled: AbortSignal | undefined, timeoutMs: number | undefined): AbortSignal | undefined {
  const timeout =
    timeoutMs !== undefined && Number.isFinite(timeoutMs) && timeoutMs >= 0
      ? AbortSignal.timeout(Math.min(timeoutMs, 2 ** 31 - 1))
      : undefined;
  if (cancelled && timeout) return AbortSignal.any([cancelled, timeout]);
  return cancelled ?? timeout;
}
