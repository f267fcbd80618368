// The one HTTP client of the core (decision R5): every upstream request goes through here.
//
// - One undici Agent per client (a Pool per origin inside it) with keep-alive reuse.
// - Every connection of an origin the operator has not allowed goes to a public address only,
//   checked on the address actually connected to (src/net/public-connector.ts). An upstream
//   override's base is trusted only for the requests that override routes there: a request
//   aimed at that address directly is judged like any other.
// - Every request has a connect timeout, one total deadline over the whole exchange (all redirect
//   hops and the body), a response-size cap enforced while reading and again on the decoded
//   bytes, a bound on the nesting of a JSON answer, and the caller's abort signal.
// - Each policy is a module of its own (src/http/interceptors/), run by one dispatch handler per
//   request (policy-chain.ts), composed on each agent once, outermost first: upstreamGate (the
//   upstream guard's admission, for requests that name one; its answer policy outermost in the
//   chain) → deadline → jsonDepth → contentDecoding → sizeCap → redirect → byteBudget → the agent
//   (its connector judges each connection's address). Redirects are followed there, never by
//   undici, and only within the origin of the requested URL, at most `maxRedirects` times.
// - Errors are `HttpError`s with a closed set of kinds (src/http/errors.ts). Callers still
//   redact them (R4), since a key could sit in a host name.
import type { LookupFunction } from 'node:net';
import type { Agent, Dispatcher, Pool } from 'undici';
import { publicOnlyConnector } from '../net/public-connector.js';
import { undici } from '../shared/deps.js';
import { ADDRESS_REFUSALS, NetworkPolicy, type NetworkOptions } from './address-policy.js';
import { ACCEPT_ENCODING } from './content-encoding.js';
import { abortedError, exchangeError, HttpError } from './errors.js';
import { Exchange } from './exchange.js';
import { contentDecoding } from './interceptors/content-decoding.js';
import { deadline } from './interceptors/deadline.js';
import { jsonDepth } from './interceptors/json-depth.js';
import { policyDispatch, type Headers } from './interceptors/policy-chain.js';
import { redirect } from './interceptors/redirect.js';
import { byteBudget, sizeCap, type ByteBudget } from './interceptors/size-cap.js';
import {
  gateAnswer,
  GateFailure,
  upstreamGate,
  type GateOptions,
  type UpstreamGate,
} from './interceptors/upstream-gate.js';
import type { Upstreams } from './upstreams.js';
import { targetOf, type RequestTarget } from './stable-target.js';
import { CONFIG_DEFAULTS } from '../config/defaults.js';

export { HttpError, RefusedError, type HttpErrorKind, type Refusal } from './errors.js';
export type { Admission, UpstreamGate } from './interceptors/upstream-gate.js';
export type { ByteBudget } from './interceptors/size-cap.js';

export interface HttpLimits {
  /** Time allowed to open the TCP (and TLS) connection. */
  connectTimeoutMs: number;
  /** The whole exchange: every redirect hop, the headers and the body. */
  totalTimeoutMs: number;
  /** Largest body read, and largest once its Content-Encoding is undone. */
  maxResponseBytes: number;
  /** Same-origin redirects followed before giving up. */
  maxRedirects: number;
  /** Deepest nesting of arrays and objects in a JSON answer. */
  maxJsonDepth: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = Object.freeze({ ...CONFIG_DEFAULTS.http });

/** Largest response head undici parses (Node's default); larger is a `too-large` error. */
const MAX_HEADER_BYTES = 16 * 1024;

type Dispatch = Dispatcher['dispatch'];

export interface HttpNetworkOptions extends NetworkOptions {
  /** Name resolution for connections (node:dns `lookup` by default; tests name loopback servers). */
  lookup?: LookupFunction;
  /**
   * The operator's upstream overrides: a request that one of them routes (from the origin it
   * was aimed at, `RequestOptions.origin`, to the origin of its URL) may connect to any address.
   */
  upstreams?: Upstreams;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** A URL the caller has already parsed is not parsed again, nor one it knows the parts of (stable-target.ts). */
  url: string | URL | RequestTarget;
  headers: Record<string, string>;
  /** Text goes as UTF-8; bytes as they are. */
  body?: string | Uint8Array;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /**
   * The origin the request was aimed at, before an upstream override moved it (default: the
   * URL's): error messages name it, and the override's exemption from the private-address rule
   * holds only when an override of this origin is where the URL goes.
   */
  origin?: string;
  /** A bound shared with other requests (an executeRequest call's bytes): every byte read is taken from it. */
  budget?: ByteBudget;
  /**
   * The upstream guard this request goes through, as a request of `namespace` to the origin it
   * was aimed at: refused (a RefusedError, nothing sent) or let go, its answer read for a pause.
   */
  guard?: { by: UpstreamGate; namespace: string };
}

export interface HttpResponse {
  status: number;
  /** Lower-case names; a header sent more than once is joined with `, `. */
  headers: Record<string, string>;
  /** With its Content-Encoding undone (and that header and Content-Length gone). */
  body: Buffer;
  /** The final URL after redirects (serialised by WHATWG `URL`). */
  url: string;
  /** Redirect hops followed. */
  redirects: number;
  /**
   * The whole seconds the upstream guard now holds requests to this origin back for, after this
   * answer (a 429, or a 503 with Retry-After); absent when it holds none. What a client is told
   * to wait, in place of the upstream's Retry-After text.
   */
  pausedSeconds?: number;
}

export class HttpClient {
  /** Frozen: read by the response cache too, which serves no answer deeper than these allow. */
  readonly limits: Readonly<HttpLimits>;
  private readonly backstopMs: number;
  /** Made on the first request: a catalog that is only listed never loads undici. */
  private directAgent: Agent | undefined;
  /** For requests an upstream override routes: its base may be any address (the operator wrote it). */
  private routedAgent: Agent | undefined;
  /** Each agent's dispatch with the client's policies composed on it, once. */
  private direct: Dispatch | undefined;
  private routed: Dispatch | undefined;
  private closed = false;
  private readonly network: NetworkPolicy;
  private readonly lookup: LookupFunction | undefined;
  private readonly upstreams: Upstreams | undefined;

  /** `network` says which origins may reach non-public addresses; by default none may. */
  constructor(limits?: Partial<HttpLimits>, network: HttpNetworkOptions = {}) {
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
    this.network = new NetworkPolicy(network);
    this.lookup = network.lookup;
    this.upstreams = network.upstreams;
  }

  /**
   * Pools are per origin and decide their connector once, so a routed request and a direct one
   * to the same address never share a pool: each has its own agent.
   */
  private dispatcher(routed: boolean): Dispatch {
    const made = routed ? this.routed : this.direct;
    // As undici's own Agent does after close(): every later request fails, none opens a socket.
    if (this.closed && !made) throw new (undici().errors.ClientClosedError)();
    if (made) return made;
    const agent = this.makeAgent(routed ? () => true : (origin) => this.network.allowsPrivate(origin));
    const { maxRedirects, maxResponseBytes, maxJsonDepth, totalTimeoutMs } = this.limits;
    // Innermost first: each hop's bytes are taken from the budget, each hop is judged by
    // `redirect`, the answer's bytes are capped, then decoded, then their nesting is bounded;
    // one deadline covers it all from the moment the upstream guard lets the request go, and the
    // guard reads the answer before the caller hears it.
    const policies = [
      byteBudget(),
      redirect(maxRedirects),
      sizeCap(maxResponseBytes),
      contentDecoding(maxResponseBytes),
      jsonDepth(maxJsonDepth),
      deadline(totalTimeoutMs),
      gateAnswer(),
    ];
    const composed = upstreamGate()(policyDispatch(policies, agent.dispatch.bind(agent)));
    if (routed) [this.routedAgent, this.routed] = [agent, composed];
    else [this.directAgent, this.direct] = [agent, composed];
    return composed;
  }

  private makeAgent(mayConnectPrivately: (origin: string) => boolean): Agent {
    const timeout = this.limits.connectTimeoutMs;
    const lookup = this.lookup;
    const anyAddress = lookup === undefined ? { timeout } : { timeout, lookup };
    return new (undici().Agent)({
      headersTimeout: this.backstopMs,
      bodyTimeout: this.backstopMs,
      maxHeaderSize: MAX_HEADER_BYTES,
      // One pool per origin; whether the origin may reach non-public addresses is decided once.
      factory: (origin, options) => {
        const name = String(origin);
        const connect = mayConnectPrivately(name)
          ? anyAddress
          : publicOnlyConnector(name, timeout, ADDRESS_REFUSALS, lookup);
        return new (undici().Pool)(origin, { ...(options as Pool.Options), connect });
      },
    });
  }

  async request(request: HttpRequest, options: RequestOptions = {}): Promise<HttpResponse> {
    const url = checkedTarget(request.url);
    const callerSignal = options.signal;
    if (callerSignal?.aborted) throw abortedError();
    const origin = url.origin;
    const routed = this.upstreams?.routes(options.origin ?? origin, origin) === true;
    const exchange = new Exchange(callerSignal);
    try {
      // Every option a policy reads is written here, if only as undefined: options of one shape,
      // where properties added later (the gate's admission) each changed it on every request.
      const dispatch: Dispatcher.DispatchOptions & { budget?: ByteBudget } & GateOptions = {
        origin,
        path: url.path,
        method: request.method,
        headers: withAcceptEncoding(request.headers),
        body: request.body,
        budget: options.budget,
        // Messages and pauses name the origin the request was aimed at, not an override's.
        gate:
          options.guard === undefined
            ? undefined
            : {
                by: options.guard.by,
                origin: options.origin ?? origin,
                namespace: options.guard.namespace,
                signal: callerSignal,
              },
        admitted: undefined,
        pausedSeconds: undefined,
      };
      this.dispatcher(routed)(dispatch, exchange);
      await exchange.done;
      const redirects = exchange.redirects;
      return {
        status: exchange.status,
        headers: flattenHeaders(exchange.headers),
        body: exchange.body(),
        url: redirects === null ? url.href : (redirects[redirects.length - 1] as URL).href,
        redirects: redirects?.length ?? 0,
        ...(dispatch.pausedSeconds === undefined ? {} : { pausedSeconds: dispatch.pausedSeconds }),
      };
    } catch (error) {
      if (error instanceof GateFailure) throw error.failure;
      throw exchangeError(error, options.origin ?? origin, { ...this.limits, maxHeaderBytes: MAX_HEADER_BYTES });
    } finally {
      exchange.dispose();
    }
  }

  /** Closes idle connections; waits for requests in flight (each bounded by its deadline). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.directAgent?.close(), this.routedAgent?.close()]);
  }
}

/** The request's URL, parsed unless the caller did or knows its parts; only http(s), never with credentials. */
function checkedTarget(raw: HttpRequest['url']): RequestTarget {
  if (typeof raw === 'string' || raw instanceof URL) return targetOf(checkedRequestUrl(raw));
  // Its parts are a URL's (stable-target.ts): origin and path, with no place for credentials.
  if (!raw.origin.startsWith('https://') && !raw.origin.startsWith('http://'))
    throw new HttpError('invalid-url', 'request URL scheme must be http or https');
  return raw;
}

function checkedRequestUrl(raw: string | URL): URL {
  const url = typeof raw === 'string' ? parseRequestUrl(raw) : raw;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new HttpError('invalid-url', `request URL scheme must be http or https, not ${url.protocol.slice(0, 20)}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new HttpError('invalid-url', 'request URL must not carry credentials (user:password@)');
  }
  return url;
}

function parseRequestUrl(raw: string): URL {
  try {
    return new URL(raw);
  } catch {
    throw new HttpError('invalid-url', 'request URL is not a valid absolute URL');
  }
}

/**
 * The request's headers, with Accept-Encoding added unless it names its own. Copied in a loop:
 * `{ ...headers, name: value }` measured about 4 µs per call on Node 20, this about 0.1 µs.
 */
function withAcceptEncoding(headers: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const name in headers) {
    if (name.toLowerCase() === 'accept-encoding') return headers;
    result[name] = headers[name] as string;
  }
  result['accept-encoding'] = ACCEPT_ENCODING;
  return result;
}

/**
 * Joins repeated headers in place (undici builds a fresh object per response): with `, ` as HTTP
 * does, but Set-Cookie lines with a line break, since a cookie's own text holds commas
 * (`Expires=Wed, 21 Oct ...`) and no header value holds a line break.
 */
function flattenHeaders(headers: Headers): Record<string, string> {
  for (const name in headers) {
    const value = headers[name];
    if (typeof value !== 'string') {
      if (Array.isArray(value)) headers[name] = value.join(name === 'set-cookie' ? '\n' : ', ');
      else delete headers[name];
    }
  }
  return headers as Record<string, string>;
}
