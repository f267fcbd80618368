// Redirects, followed by flowguard and never by undici (decision R5): at most `maxRedirects` hops,
// each judged before it is sent (by default: it stays within the origin of the first request,
// scheme + host + port, and carries no credentials), and each sent through the rest of the
// dispatch chain again, so its connection is judged by the address policy as the first one was.
//
// - A redirect's own body is drained (so the connection can be reused) up to 64 KiB; past that
//   the connection is dropped instead and the redirect is still followed.
// - Fetch semantics: 303 turns anything into GET; 301 and 302 turn POST into GET. Either way the
//   body goes, and with it the headers that describe it. 307 and 308 keep both.
// - A redirect without Location is an answer like any other.
// - The policies after it and the caller hear `onRequestStart` once per hop (so the caller can
//   always abort the hop on the wire); from the second on, its context's `redirects` lists the
//   URLs followed so far.

import { HttpError } from '../errors.js';
import type { Controller, Headers, Policy, PolicyChain, PolicyMaker } from './policy-chain.js';
import type { Dispatcher } from 'undici';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const DRAIN_LIMIT = 64 * 1024;
/** Headers that describe a request body; dropped when a redirect turns the request into a GET. */
const BODY_HEADERS = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-location',
]);
/** The reason a redirect's connection is dropped while its body is drained. */
const DRAIN_TOO_LONG = new Error('redirect body longer than the drain limit');

/** What `onRequestStart` tells the next handler from the second hop on. */
export interface RedirectContext {
  redirects?: readonly URL[];
}

/** Why a hop to `next` may not be sent (a message), or null when it may; `first` is the URL first requested. */
export type RedirectJudge = (next: URL, first: URL) => string | null;

export function redirect(maxRedirects: number, judge: RedirectJudge = sameOrigin): PolicyMaker {
  // Most requests are never redirected: one policy shared by every request looks at each
  // answer's start (and at nothing else), and the first redirect of a request puts a Redirect of
  // its own in its place, which follows it and every later hop of that request.
  const watch: Policy = {
    onResponseStart(controller, status, headers, chain) {
      if (!REDIRECT_STATUSES.has(status) || headers.location === undefined) return true;
      const followed = new Redirect(chain, chain.options, maxRedirects, judge);
      chain.replace(watch, followed);
      return followed.onResponseStart(controller, status, headers);
    },
  };
  return () => watch;
}

/** The default judge: the origin of the first request, no credentials, http(s) only. */
function sameOrigin(next: URL, first: URL): string | null {
  if (next.origin !== first.origin) {
    if (next.protocol !== 'https:' && next.protocol !== 'http:')
      return `redirect refused: ${next.protocol.slice(0, 20)} URLs are not followed`;
    return `redirect to another origin refused: ${next.origin}`;
  }
  if (next.username !== '' || next.password !== '') return 'redirect refused: Location carries credentials';
  return null;
}

class Redirect implements Policy {
  /** The hop to follow once this one's body is drained, and the status that sent there; null while the answer is handed on. */
  private pending: URL | null = null;
  private pendingStatus = 0;
  private drained = 0;
  /** The URL first requested, parsed at the first redirect (a request that is not redirected never parses one). */
  private first: URL | null = null;
  private followed: URL[] | null = null;
  /** The hop whose connection was dropped mid-drain: whatever it still reports is stale. */
  private dropped: Controller | null = null;

  constructor(
    private readonly chain: PolicyChain,
    private options: Dispatcher.DispatchOptions,
    private readonly maxRedirects: number,
    private readonly judge: RedirectJudge,
  ) {}

  onRequestStart(_controller: Controller, context: unknown): unknown {
    const followed = this.followed;
    return followed === null ? context : { ...(context as object), redirects: followed };
  }

  /** A redirect is held here (its body drained, then followed); any other answer goes on. */
  onResponseStart(controller: Controller, status: number, headers: Headers): boolean {
    if (!REDIRECT_STATUSES.has(status) || headers.location === undefined) return true;
    const next = this.resolve(headers.location);
    if (typeof next === 'string') return this.fail(controller, new HttpError('redirect-refused', next));
    if ((this.followed?.length ?? 0) >= this.maxRedirects) {
      return this.fail(
        controller,
        new HttpError('too-many-redirects', `more than ${this.maxRedirects} redirects (maxRedirects)`),
      );
    }
    this.pending = next;
    this.pendingStatus = status;
    this.drained = 0;
    const length = headers['content-length'];
    if (typeof length === 'string' && Number(length) > DRAIN_LIMIT) this.drop(controller);
    return false;
  }

  onResponseData(controller: Controller, chunk: Buffer): boolean {
    if (controller === this.dropped) return false;
    if (this.pending === null) return true;
    this.drained += chunk.length;
    if (this.drained > DRAIN_LIMIT) this.drop(controller);
    return false;
  }

  onResponseEnd(controller: Controller): boolean {
    if (controller === this.dropped) return false;
    if (this.pending === null) return true;
    this.follow(controller);
    return false;
  }

  onResponseError(controller: Controller): boolean {
    return controller !== this.dropped;
  }

  private fail(controller: Controller, error: HttpError): false {
    this.chain.fail(this, controller, error);
    return false;
  }

  /** The Location as a URL the judge lets through, or why not. */
  private resolve(location: string | string[]): URL | string {
    if (typeof location !== 'string') return 'redirect refused: more than one Location header';
    // The path after the origin's text, not resolved against it: a path of `//host/...` names no host.
    const current = new URL(`${new URL(String(this.options.origin)).origin}${this.options.path}`);
    this.first ??= current;
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      return 'redirect refused: Location is not a valid URL';
    }
    return this.judge(next, this.first) ?? next;
  }

  /** The redirect's body is too long to drain: the connection goes, the redirect is still followed. */
  private drop(controller: Controller): void {
    this.dropped = controller;
    controller.abort(DRAIN_TOO_LONG);
    this.follow(controller);
  }

  /** Sends the next hop through the rest of the chain, as its first hop went. */
  private follow(controller: Controller): void {
    const next = this.pending as URL;
    const status = this.pendingStatus;
    this.pending = null;
    (this.followed ??= []).push(next);
    const { method } = this.options;
    const path = next.pathname + next.search;
    if (method !== 'GET' && (status === 303 || (method === 'POST' && (status === 301 || status === 302)))) {
      this.options = {
        ...this.options,
        path,
        method: 'GET',
        body: null,
        headers: withoutBodyHeaders(this.options.headers as Record<string, string>),
      };
    } else {
      this.options = { ...this.options, path };
    }
    try {
      this.chain.redispatch(this.options);
    } catch (error) {
      // A dispatcher closed meanwhile refuses at once.
      this.chain.fail(this, controller, error as Error);
    }
  }
}

function withoutBodyHeaders(headers: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const name of Object.keys(headers)) {
    if (!BODY_HEADERS.has(name.toLowerCase())) result[name] = headers[name] as string;
  }
  return result;
}
