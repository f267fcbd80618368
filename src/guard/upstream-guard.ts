// The upstream guard: the gate every outbound request of a call passes, the
// core's own and each one an executeRequest handler makes through the bridge (the HTTP client's
// outermost interceptor asks it, src/http/interceptors/upstream-gate.ts). Before a request: is its
// origin paused, is there a token in its rate bucket, is there a free concurrency slot. A refusal
// sends nothing and says when to try again. After an answer: a 429 (or a 503 with Retry-After)
// pauses the origin until the time it names, capped, so that the calls meanwhile answer at once
// instead of hammering the API. Pauses and buckets live in the SharedState (Redis across
// replicas); concurrency slots are per process. What it works out per namespace and origin (the
// pause scope, the limits) is kept in one bounded table (route-table.ts) that holds nothing live.
//
// A pause's scope is the origin and the credential of the namespace whose request received it
// (credential.ts): one namespace cannot pause another. Once a scope is paused, nothing more
// goes to it but what is already on the wire: requests waiting for a slot are refused at once,
// and a request that waited looks at the pause again (another replica may have set it).

import type { UpstreamLimitsConfig } from '../config/project.js';
import type { Admission, Refusal, UpstreamGate } from '../http/client.js';
import type { SharedState } from '../state/shared-state.js';
import { LimitTable, type AppliedLimits, type ConcurrencyLimit, type RateLimit } from './limits.js';
import { retryAfterUntil } from './retry-after.js';
import { RouteTable } from './route-table.js';
import { MAX_SLOT_WAIT_MS, SlotPools, type Slot } from './slots.js';

/** A 429 without a readable Retry-After (absent, or not one of RFC 9110's forms), or a 503 with an unreadable one, pauses this long. */
const DEFAULT_PAUSE_MS = 1000;

export type { Refusal } from '../http/client.js';

/**
 * Most routes (namespace and origin pairs) the guard keeps; past it a route not asked since the
 * clock's hand last passed goes, and is worked out again on its next request (route-table.ts). A
 * catalog's own origins are far fewer.
 */
const MAX_ROUTES = 4096;

/** The answer to a request that must wait its turn, or be refused: made only when it waits. */
type Waiting = { ok: true; release: () => void } | { ok: false; refusal: Refusal };

export interface GuardOptions {
  /** The clock, epoch ms (tests step it). */
  now?: () => number;
  /** The credential a namespace's requests to an origin carry (credential.ts); by default each namespace is a credential of its own. */
  credentialOf?: (namespace: string, origin: string) => string;
  /** Most routes kept (MAX_ROUTES by default; tests make it small). */
  maxRoutes?: number;
}

export class UpstreamGuard implements UpstreamGate {
  private readonly limits: LimitTable;
  private readonly slots = new SlotPools();
  private readonly now: () => number;
  private readonly credentialOf: (namespace: string, origin: string) => string;
  /** Per namespace and origin, its pause scope and limits: bounded, rebuilt the same when dropped. */
  private readonly routes: RouteTable;
  /** Per pause scope, the requests of this process waiting for a slot: a pause stops them at once. */
  private readonly waiting = new Map<string, Set<AbortController>>();

  constructor(
    config: UpstreamLimitsConfig,
    private readonly state: SharedState,
    options: GuardOptions = {},
  ) {
    this.limits = new LimitTable(config);
    this.now = options.now ?? Date.now;
    this.credentialOf = options.credentialOf ?? ((namespace) => `namespace:${namespace}`);
    this.routes = new RouteTable(options.maxRoutes ?? MAX_ROUTES, (origin, namespace) => ({
      scope: this.pauseScope(origin, namespace),
      applied: this.limits.resolve(namespace, origin),
    }));
  }

  /** How many namespace and origin pairs the guard holds limits for now: at most `maxRoutes`. */
  get routesHeld(): number {
    return this.routes.size;
  }

  /**
   * Whether a request of `namespace` to `origin` may go now. When it may, `release` must be
   * called once it is answered, and the answer reported to `observe` with `scope`; when it may
   * not, nothing is to be sent and the refusal says why. Answered at once (no promise) when the
   * state is in this process's memory and neither a rate limit nor a full pool of slots applies.
   */
  admit(origin: string, namespace: string, signal: AbortSignal | undefined): Admission | Promise<Admission> {
    const { scope, applied } = this.routes.get(origin, namespace);
    const { state } = this;
    if (state.pausedUntilNow === undefined)
      return state
        .pausedUntil(scope)
        .then((until) => this.pausedRefusal(origin, until) ?? this.admitUnpaused(origin, scope, applied, signal));
    return (
      this.pausedRefusal(origin, state.pausedUntilNow(scope)) ?? this.admitUnpaused(origin, scope, applied, signal)
    );
  }

  /** A request whose scope is not paused: a token of its rate bucket, then a concurrency slot. */
  private admitUnpaused(
    origin: string,
    scope: string,
    applied: AppliedLimits,
    signal: AbortSignal | undefined,
  ): Admission | Promise<Admission> {
    return applied.rate
      ? this.takeThenSlot(origin, scope, applied, signal)
      : this.slotFor(origin, scope, applied.concurrency, signal);
  }

  private async takeThenSlot(
    origin: string,
    scope: string,
    applied: AppliedLimits,
    signal: AbortSignal | undefined,
  ): Promise<Admission> {
    const { bucket, burst, requestsPerSecond } = applied.rate as RateLimit;
    const taken = await this.state.take(bucket, burst, requestsPerSecond);
    if (!taken.ok)
      return refuse(
        `the rate limit for ${origin} (${requestsPerSecond} requests per second, burst ${burst}; ${applied.rateSource}) is reached; nothing was sent`,
        taken.retryAfterMs,
      );
    return this.slotFor(origin, scope, applied.concurrency, signal);
  }

  private slotFor(
    origin: string,
    scope: string,
    limit: ConcurrencyLimit | null,
    signal: AbortSignal | undefined,
  ): Admission | Promise<Admission> {
    if (!limit) return { ok: true, release: NOTHING_HELD, scope };
    // A free slot is taken at once: only a request that must wait is listed for a pause to stop.
    const free = this.slots.tryAcquire(limit.pool, limit.concurrency);
    if (free) return { ok: true, release: free, scope };
    return this.waitForSlot(origin, scope, limit, signal).then((waited) =>
      waited.ok ? { ok: true, release: waited.release, scope } : waited,
    );
  }

  /** A slot once one frees, listed under `scope` so that a pause beginning meanwhile stops the wait. */
  private async waitForSlot(
    origin: string,
    scope: string,
    { pool, concurrency }: { pool: string; concurrency: number },
    signal: AbortSignal | undefined,
  ): Promise<Waiting> {
    const pause = new AbortController();
    const waiters = this.waiting.get(scope) ?? new Set();
    this.waiting.set(scope, waiters.add(pause));
    let slot: Slot | null;
    try {
      slot = await this.slots.acquire(
        pool,
        concurrency,
        signal ? AbortSignal.any([signal, pause.signal]) : pause.signal,
      );
    } finally {
      waiters.delete(pause);
      if (waiters.size === 0 && this.waiting.get(scope) === waiters) this.waiting.delete(scope);
    }
    if (!slot) {
      return refuse(
        `${concurrency} requests to ${origin} were already running and none finished within ${MAX_SLOT_WAIT_MS / 1000} s; nothing was sent`,
        1000,
      );
    }
    // A request that waited its turn looks at the pause again: one may have begun meanwhile, here
    // or in another replica. A waiter the pause stopped holds no slot: refused even if it has ended.
    const stopped = pause.signal.aborted
      ? refuse(`${origin} asked for a pause (429 or 503 with Retry-After); nothing was sent`, DEFAULT_PAUSE_MS)
      : null;
    const pausedMeanwhile =
      slot.waited && !signal?.aborted ? ((await this.pauseRefusal(origin, scope)) ?? stopped) : null;
    if (pausedMeanwhile) slot.release();
    return pausedMeanwhile ?? { ok: true, release: slot.release };
  }

  /** A refusal while `scope` is paused; null when it is not. */
  private async pauseRefusal(origin: string, scope: string): Promise<{ ok: false; refusal: Refusal } | null> {
    return this.pausedRefusal(origin, await this.state.pausedUntil(scope));
  }

  /** A refusal while a scope is paused until `pausedUntil` (the state's answer); null when it is not. */
  private pausedRefusal(origin: string, pausedUntil: number | null): { ok: false; refusal: Refusal } | null {
    const left = this.pauseLeft(pausedUntil);
    if (left === null) return null;
    return refuse(
      `${origin} asked for a pause (429 or 503 with Retry-After) until ${new Date(pausedUntil as number).toISOString()}; nothing was sent`,
      left,
    );
  }

  /** The ms a pause until `pausedUntil` holds requests back from now; null when it holds none. */
  private pauseLeft(pausedUntil: number | null): number | null {
    if (pausedUntil === null || pausedUntil <= this.now()) return null;
    // A pause no guard sets (observe bounds each to maxPauseMs; twice that leaves room for replicas'
    // clocks to differ) was not written by one: a shared state's key damaged or set by hand. It
    // is no pause, so the upstream's next 429 can write a true one over it.
    if (pausedUntil > this.now() + 2 * this.limits.maxPauseMs) return null;
    return pausedUntil - this.now();
  }

  /**
   * Reads an upstream's answer: a 429, or a 503 with Retry-After, pauses `scope` and stops its
   * waiting requests. Answers the whole seconds the scope is now paused for (the later of this
   * pause and one already set, rounded as a refusal rounds them): what the caller of this request
   * is told, never the header's own text. Null (nothing to wait for) for any other answer.
   */
  observe(scope: string, status: number, retryAfter: string | undefined): Promise<number | null> | null {
    if (status !== 429 && (status !== 503 || retryAfter === undefined)) return null;
    const now = this.now();
    const asked = retryAfterUntil(retryAfter, now) ?? now + DEFAULT_PAUSE_MS;
    const until = Math.min(asked, now + this.limits.maxPauseMs);
    if (until <= now) return null;
    return this.state.pause(scope, until).then((inForce) => {
      for (const waiter of this.waiting.get(scope) ?? []) waiter.abort();
      const left = this.pauseLeft(inForce);
      return left === null ? null : wholeSeconds(left);
    });
  }

  /** `origin credential`: what a pause belongs to (the SharedState's key; an origin holds no space). */
  private pauseScope(origin: string, namespace: string): string {
    return `${origin} ${this.credentialOf(namespace, origin)}`;
  }
}

/** The release of a request that holds no slot (no concurrency limit applies). */
const NOTHING_HELD = (): void => undefined;

/** A wait as the whole seconds a client is told: rounded up, at least 1. */
function wholeSeconds(waitMs: number): number {
  return Math.max(1, Math.ceil(waitMs / 1000));
}

function refuse(message: string, waitMs: number): { ok: false; refusal: Refusal } {
  const retryAfterSeconds = wholeSeconds(waitMs);
  return { ok: false, refusal: { message: `${message}; retry after ${retryAfterSeconds} s`, retryAfterSeconds } };
}
