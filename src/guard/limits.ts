// Which limits apply to a request: `upstreamLimits` in the config names them per origin, per
// namespace, and by default, field by field (origin over namespace over default). The bucket or
// slot pool a limit counts in follows the entry that set it: an origin's entry counts every
// request to that origin together; a namespace's counts that namespace's requests to each origin;
// the default counts per origin.

import type { UpstreamLimit, UpstreamLimitsConfig } from '../config/project.js';
import { CONFIG_DEFAULTS } from '../config/defaults.js';

/** Requests to one origin at once, per process, when the config says nothing. */
const DEFAULT_CONCURRENCY = 8;
/** Longest pause a Retry-After can ask for, when the config says nothing (seconds). */
const DEFAULT_MAX_PAUSE_SECONDS = CONFIG_DEFAULTS.upstreamLimits.maxPauseSeconds;

export interface RateLimit {
  /** The bucket's name in the shared state. */
  bucket: string;
  requestsPerSecond: number;
  burst: number;
}

export interface ConcurrencyLimit {
  /** The slot pool's name in this process. */
  pool: string;
  concurrency: number;
}

export interface AppliedLimits {
  /** null: no rate limit. */
  rate: RateLimit | null;
  /** null: no concurrency limit. */
  concurrency: ConcurrencyLimit | null;
  /** Which config entry set the rate, for messages (`upstreamLimits.origins["https://…"]`). */
  rateSource: string;
}

type Field = keyof UpstreamLimit;

/**
 * The config's limits, resolved per namespace and origin. Nothing is remembered here: the guard's
 * route table (route-table.ts) keeps what it resolves, bounded.
 */
export class LimitTable {
  constructor(private readonly config: UpstreamLimitsConfig) {}

  get maxPauseMs(): number {
    return (this.config.maxPauseSeconds ?? DEFAULT_MAX_PAUSE_SECONDS) * 1000;
  }

  resolve(namespace: string, origin: string): AppliedLimits {
    const entries = [
      {
        limit: this.config.origins?.[origin],
        scope: origin,
        source: `upstreamLimits.origins[${JSON.stringify(origin)}]`,
      },
      {
        limit: this.config.namespaces?.[namespace],
        scope: `${namespace} ${origin}`,
        source: `upstreamLimits.namespaces.${namespace}`,
      },
      { limit: this.config.default, scope: origin, source: 'upstreamLimits.default' },
    ];
    const pick = (field: Field) => entries.find((entry) => entry.limit?.[field] !== undefined);
    const rateEntry = pick('requestsPerSecond');
    const concurrencyEntry = pick('concurrency');
    const requestsPerSecond = rateEntry?.limit?.requestsPerSecond;
    // A burst from a more specific entry than the rate would mix two limits: it comes with the rate's entry.
    const burst = rateEntry?.limit?.burst ?? Math.max(1, Math.ceil(requestsPerSecond ?? 1));
    const concurrency = concurrencyEntry ? (concurrencyEntry.limit?.concurrency as number) : DEFAULT_CONCURRENCY;
    return {
      rate: requestsPerSecond === undefined ? null : { bucket: `rate ${rateEntry?.scope}`, requestsPerSecond, burst },
      concurrency: concurrency === 0 ? null : { pool: concurrencyEntry?.scope ?? origin, concurrency },
      rateSource: rateEntry?.source ?? '',
    };
  }
}
