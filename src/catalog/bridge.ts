// The host side of the network bridge (RULINGS R12): an executeRequest handler's `fetch` (and
// ethers' requests) arrive here as plain data, and the core performs them with its own client,
// limits, redirect rule and private-address rule. Before anything is sent: the per-call bound on
// requests, the schema's reach, and the key binding (a key token goes only to an origin bound to
// that key; a request carrying one elsewhere is refused). The answer is redacted of every key form
// before the handler sees it. Each outbound request is recorded on the call.

import { HttpError, type HttpClient, type HttpRequest } from '../http/client.js';
import { egressRefusal } from '../http/egress.js';
import type { Reach } from '../http/reach.js';
import type { Redactor } from '../http/redact.js';
import type { SecretStore, SecretTokens } from '../http/secrets.js';
import type { Upstreams } from '../http/upstreams.js';
import type { BridgeAnswer, BridgeRequest } from '../sandbox/protocol.js';
import type { Refusal, UpstreamGuard } from '../guard/upstream-guard.js';

/** One outbound request of a call, for the audit log. */
export interface OutboundRecord {
  origin: string;
  method: string;
  /** 0 when no answer came (refused, or failed on the way). */
  status: number;
  bytes: number;
  ms: number;
  /** Why it was refused or failed, when it was. */
  error?: string;
}

export interface BridgeContext {
  http: HttpClient;
  upstreams: Upstreams;
  secrets: SecretStore;
  redactor: Redactor;
  maxRequestsPerCall: number;
  maxBytesPerCall: number;
  guard: UpstreamGuard;
}

const METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'PUT', 'DELETE']);

/** One call's bridge: its reach, its tokens, its bounds and its record. */
export class CallBridge {
  readonly requests: OutboundRecord[] = [];
  /** The first request the upstream guard did not send, if any: the call's answer when the handler then fails. */
  rateLimit: Refusal | null = null;
  /** The Cache-Control values of the answers the handler got, for the response cache. */
  readonly cacheControl: string[] = [];
  private bytes = 0;

  constructor(
    private readonly context: BridgeContext,
    private readonly call: { namespace: string; reach: Reach; keys: readonly string[]; tokens: SecretTokens; signal?: AbortSignal },
  ) {}

  /** Performs one bridged request; every refusal or failure is an answer with a stable prefix, never a throw. */
  async perform(request: BridgeRequest): Promise<BridgeAnswer> {
    const started = performance.now();
    const method = String(request.method ?? 'GET').toUpperCase();
    let url: URL | null = null;
    try {
      url = new URL(request.url);
    } catch {
      url = null;
    }
    const refused = this.refusal(method, url, request);
    if (refused) return this.failed(url?.origin ?? String(request.url).slice(0, 100), method, started, 0, refused);
    const target = url as URL;
    const filled = this.call.tokens.fill({ url: request.url, headers: request.headers, body: request.body }, this.slotsFor(request), (key) =>
      this.call.keys.includes(key) ? this.context.secrets.valueFor(key, this.call.namespace) : undefined,
    );
    try {
      const guarded = await this.context.guard.send(target.origin, this.call.namespace, this.call.signal, () =>
        this.context.http.request(
          { method: method as HttpRequest['method'], url: this.context.upstreams.target(new URL(filled.url)), headers: filled.headers, body: filled.body },
          { signal: this.call.signal, origin: target.origin },
        ),
      );
      if (!guarded.ok) {
        this.rateLimit ??= guarded.refusal;
        return this.failed(target.origin, method, started, 0, `RATE_LIMITED: ${guarded.refusal.message}`);
      }
      const response = guarded.response;
      this.bytes += response.body.length;
      if (this.bytes > this.context.maxBytesPerCall) {
        return this.failed(target.origin, method, started, response.status, `TOO_MANY_BYTES: the call received more than ${this.context.maxBytesPerCall} bytes (network.maxBytesPerCall)`, response.body.length);
      }
      this.record(target.origin, method, started, response.status, response.body.length);
      if (response.headers['cache-control'] !== undefined) this.cacheControl.push(response.headers['cache-control']);
      const { headers, body } = this.context.redactor.redactRawAnswer(response);
      return { ok: true, status: response.status, url: this.context.redactor.redact(target.href), headers, body: body.toString('base64') };
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return this.failed(target.origin, method, started, 0, `upstream request failed: ${this.context.redactor.redact(error.message)}`);
    }
  }

  /** Why the request may not leave, checked before anything is sent; null when it may. */
  private refusal(method: string, url: URL | null, request: BridgeRequest): string | null {
    if (this.requests.length >= this.context.maxRequestsPerCall) {
      return `TOO_MANY_REQUESTS: the call made more than ${this.context.maxRequestsPerCall} requests (network.maxRequestsPerCall)`;
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return `INVALID_URL: ${JSON.stringify(String(request.url).slice(0, 100))} is not an http(s) URL`;
    if (url.username || url.password) return 'INVALID_URL: credentials in a URL are not sent';
    if (!METHODS.has(method)) return `METHOD_NOT_ALLOWED: ${method} (the core sends GET, POST, PUT and DELETE)`;
    if (!this.call.reach.allows(url)) return `HOST_NOT_ALLOWED: ${url.origin} is not in the reach of ${this.call.namespace}`;
    const text = [request.url, ...Object.values(request.headers), request.body ?? ''].join('\n');
    for (const key of this.call.keys) {
      if (!text.includes(this.call.tokens.token(key)) || this.call.reach.binds(key, url)) continue;
      const bound = this.call.reach.boundOrigins(key);
      return `KEY_NOT_ALLOWED: the request to ${url.origin} carries the key ${key}, which is bound to ${bound.join(', ') || 'no origin'}; nothing was sent`;
    }
    return egressRefusal(request, url, this.context.redactor, (key) => this.call.reach.binds(key, url));
  }

  /** Every declared key may be filled anywhere in the request: the reach check above bound it to this origin. */
  private slotsFor(request: BridgeRequest): Parameters<SecretTokens['fill']>[1] {
    const keys = new Set(this.call.keys);
    return { url: keys, body: keys, headers: new Map(Object.keys(request.headers).map((name) => [name.toLowerCase(), keys] as const)) };
  }

  private failed(origin: string, method: string, started: number, status: number, message: string, bytes = 0): BridgeAnswer {
    this.record(origin, method, started, status, bytes, message);
    return { ok: false, message };
  }

  private record(origin: string, method: string, started: number, status: number, bytes: number, error?: string): void {
    this.requests.push(outboundRecord(origin, method, started, status, bytes, error));
  }
}

/** The record of one outbound request that started at `started` (performance.now()) and ends now. */
export function outboundRecord(origin: string, method: string, started: number, status: number, bytes: number, error?: string): OutboundRecord {
  const entry: OutboundRecord = { origin, method, status, bytes, ms: Math.round((performance.now() - started) * 100) / 100 };
  if (error) entry.error = error;
  return entry;
}

