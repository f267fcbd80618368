// The upstream guard (issue 16, point 5): wraps every outbound request of a call, the core's own
// and each one an executeRequest handler makes through the bridge. Before a request: is its
// origin paused, is there a token in its rate bucket, is there a free concurrency slot. A refusal
// sends nothing and says when to try again. After an answer: a 429 (or a 503 with Retry-After)
// pauses the origin until the time it names, capped, so that the calls meanwhile answer at once
// instead of hammering the API. Pauses and buckets live in the SharedState (Redis across
// replicas); concurrency slots are per process.

import type { UpstreamLimitsConfig } from '../config/project.js';
import type { SharedState } from '../state/shared-state.js';
import { LimitTable, retryAfterUntil } from './limits.js';
import { MAX_SLOT_WAIT_MS, SlotPools } from './slots.js';

/** A 429 without a readable Retry-After pauses its origin this long. */
const DEFAULT_429_PAUSE_MS = 1000;

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
}

export class UpstreamGuard {
  private readonly limits: LimitTable;
  private readonly slots = new SlotPools();
  private readonly now: () => number;

  constructor(
    config: UpstreamLimitsConfig,
    private readonly state: SharedState,
    options: GuardOptions = {},
  ) {
    this.limits = new LimitTable(config);
    this.now = options.now ?? Date.now;
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
    const admitted = await this.admit(origin, namespace, signal);
    if (!admitted.ok) return admitted;
    let response: T;
    try {
      response = await request();
    } finally {
      admitted.release();
    }
    await this.observe(origin, response.status, response.headers);
    return { ok: true, response };
  }

  /** Whether a request of `namespace` to `origin` may go now; when it may, `release` must be called once it is answered. */
  private async admit(origin: string, namespace: string, signal?: AbortSignal): Promise<Admission> {
    const pausedUntil = await this.state.pausedUntil(origin);
    if (pausedUntil !== null && pausedUntil > this.now()) {
      return refuse(`${origin} asked for a pause (429 or 503 with Retry-After) until ${new Date(pausedUntil).toISOString()}; nothing was sent`, pausedUntil - this.now());
    }
    const applied = this.limits.for(namespace, origin);
    if (applied.rate) {
      const { bucket, burst, requestsPerSecond } = applied.rate;
      const taken = await this.state.take(bucket, burst, requestsPerSecond);
      if (!taken.ok) return refuse(`the rate limit for ${origin} (${requestsPerSecond} requests per second, burst ${burst}; ${applied.rateSource}) is reached; nothing was sent`, taken.retryAfterMs);
    }
    if (!applied.concurrency) return { ok: true, release: () => undefined };
    const release = await this.slots.acquire(applied.concurrency.pool, applied.concurrency.concurrency, signal);
    if (!release) {
      return refuse(`${applied.concurrency.concurrency} requests to ${origin} were already running and none finished within ${MAX_SLOT_WAIT_MS / 1000} s; nothing was sent`, 1000);
    }
    return { ok: true, release };
  }

  /** Reads an upstream's answer: a 429, or a 503 with Retry-After, pauses `origin`. */
  private async observe(origin: string, status: number, headers: Readonly<Record<string, string>>): Promise<void> {
    if (status !== 429 && status !== 503) return;
    const now = this.now();
    const asked = retryAfterUntil(headers['retry-after'], now) ?? (status === 429 ? now + DEFAULT_429_PAUSE_MS : null);
    if (asked === null) return;
    const until = Math.min(asked, now + this.limits.maxPauseMs);
    if (until > now) await this.state.pause(origin, until);
  }
}

function refuse(message: string, waitMs: number): Admission {
  const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
  return { ok: false, refusal: { message: `${message}; retry after ${retryAfterSeconds} s`, retryAfterSeconds } };
}
