// The upstream guard (issue 16, point 5): wraps every outbound request of a call, the core's own
// and each one an executeRequest handler makes through the bridge. Before a request: is its
// origin paused, is there a token in its rate bucket, is there a free concurrency slot. A refusal
// sends nothing and says when to try again. After an answer: a 429 (or a 503 with Retry-After)
// pauses the origin until the time it names, capped, so that the calls meanwhile answer at once
// instead of hammering the API. Pauses and buckets live in the SharedState (Redis across
// replicas); concurrency slots are per process.
//
// A pause's scope is the origin and the credential of the namespace whose request received it
// (credential.ts): one namespace cannot pause another. Once a scope is paused, nothing more
// goes to it but what is already on the wire: requests waiting for a slot are refused at once,
// and a request that waited looks at the pause again (another replica may have set it).

import type { UpstreamLimitsConfig } from '../config/project.js';
import type { SharedState } from '../state/shared-state.js';
import { LimitTable } from './limits.js';
import { retryAfterUntil } from './retry-after.js';
import { MAX_SLOT_WAIT_MS, SlotPools, type Slot } from './slots.js';

/** A 429 without a readable Retry-After (absent, or not one of RFC 9110's forms), or a 503 with an unreadable one, pauses this long. */
const DEFAULT_PAUSE_MS = 1000;

/** Why a request was not sent, and when trying again can help. */
export interface Refusal {
  message: string;
  /** Whole seconds until a retry can succeed (at least 1). */
  retryAfterSeconds: number;
}

export type Admission = { ok: true; release: () => void } | { ok: false; refusal: Refusal };

export interface GuardOptions {
  /** The clock, epoch ms (tests step it). */
  now?: () => number;
  /** The credential of a namespace (credential.ts); by default each namespace is a credential of its own. */
  credentialOf?: (namespace: string) => string;
}

export class UpstreamGuard {
  private readonly limits: LimitTable;
  private readonly slots = new SlotPools();
  private readonly now: () => number;
  private readonly credentialOf: (namespace: string) => string;
  private readonly credentials = new Map<string, string>();
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
  }

  /**
   * Sends `request` if the limits let it go now, holding a concurrency slot until it settles, and
   * reads its answer for a pause; otherwise sends nothing and says why. An error of `request`
   * passes through.
   */
  async send<T extends { status: number; headers: Readonly<Record<string, string>> }>(
    origin: string,
    namespace: string,
    signal: AbortSignal | undefined,
    request: () => Promise<T>,
  ): Promise<{ ok: true; response: T } | { ok: false; refusal: Refusal }> {
    const scope = this.pauseScope(origin, namespace);
    const admitted = await this.admit(origin, namespace, scope, signal);
    if (!admitted.ok) return admitted;
    let response: T;
    try {
      response = await request();
    } finally {
      admitted.release();
    }
    await this.observe(scope, response.status, response.headers);
    return { ok: true, response };
  }

  /** Whether a request of `namespace` to `origin` may go now; when it may, `release` must be called once it is answered. */
  private async admit(origin: string, namespace: string, scope: string, signal?: AbortSignal): Promise<Admission> {
    const paused = await this.pauseRefusal(origin, scope);
    if (paused) return paused;
    const applied = this.limits.for(namespace, origin);
    if (applied.rate) {
      const { bucket, burst, requestsPerSecond } = applied.rate;
      const taken = await this.state.take(bucket, burst, requestsPerSecond);
      if (!taken.ok) return refuse(`the rate limit for ${origin} (${requestsPerSecond} requests per second, burst ${burst}; ${applied.rateSource}) is reached; nothing was sent`, taken.retryAfterMs);
    }
    if (!applied.concurrency) return { ok: true, release: () => undefined };
    const pause = new AbortController();
    const waiters = this.waiting.get(scope) ?? new Set();
    this.waiting.set(scope, waiters.add(pause));
    let slot: Slot | null;
    try {
      slot = await this.slots.acquire(applied.concurrency.pool, applied.concurrency.concurrency, signal ? AbortSignal.any([signal, pause.signal]) : pause.signal);
    } finally {
      waiters.delete(pause);
      if (waiters.size === 0 && this.waiting.get(scope) === waiters) this.waiting.delete(scope);
    }
    if (!slot) {
      return refuse(`${applied.concurrency.concurrency} requests to ${origin} were already running and none finished within ${MAX_SLOT_WAIT_MS / 1000} s; nothing was sent`, 1000);
    }
    // A request that waited its turn looks at the pause again: one may have begun meanwhile, here
    // or in another replica. A waiter the pause stopped holds no slot: refused even if it has ended.
    const stopped = pause.signal.aborted ? refuse(`${origin} asked for a pause (429 or 503 with Retry-After); nothing was sent`, DEFAULT_PAUSE_MS) : null;
    const pausedMeanwhile = slot.waited && !signal?.aborted ? ((await this.pauseRefusal(origin, scope)) ?? stopped) : null;
    if (pausedMeanwhile) slot.release();
    return pausedMeanwhile ?? { ok: true, release: slot.release };
  }

  /** A refusal while `scope` is paused; null when it is not. */
  private async pauseRefusal(origin: string, scope: string): Promise<Admission | null> {
    const pausedUntil = await this.state.pausedUntil(scope);
    if (pausedUntil === null || pausedUntil <= this.now()) return null;
    return refuse(`${origin} asked for a pause (429 or 503 with Retry-After) until ${new Date(pausedUntil).toISOString()}; nothing was sent`, pausedUntil - this.now());
  }

  /** Reads an upstream's answer: a 429, or a 503 with Retry-After, pauses `scope` and stops its waiting requests. */
  private async observe(scope: string, status: number, headers: Readonly<Record<string, string>>): Promise<void> {
    if (status !== 429 && status !== 503) return;
    const header = headers['retry-after'];
    if (status === 503 && header === undefined) return;
    const now = this.now();
    const asked = retryAfterUntil(header, now) ?? now + DEFAULT_PAUSE_MS;
    const until = Math.min(asked, now + this.limits.maxPauseMs);
    if (until <= now) return;
    await this.state.pause(scope, until);
    for (const waiter of this.waiting.get(scope) ?? []) waiter.abort();
  }

  /** `origin credential`: what a pause belongs to (the SharedState's key; an origin holds no space). */
  private pauseScope(origin: string, namespace: string): string {
    let credential = this.credentials.get(namespace);
    if (credential === undefined) {
      credential = this.credentialOf(namespace);
      this.credentials.set(namespace, credential);
    }
    return `${origin} ${credential}`;
  }
}

function refuse(message: string, waitMs: number): Admission {
  const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
  return { ok: false, refusal: { message: `${message}; retry after ${retryAfterSeconds} s`, retryAfterSeconds } };
}
