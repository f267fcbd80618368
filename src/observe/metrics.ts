// What a running server counts, in the Prometheus text format (prom-client), for `/metrics`:
// calls by tool and outcome, call latency, upstream answers by origin and status class, sandbox
// process restarts, calls in flight, response-cache hits and misses, answers served that departed
// from their tool's output schema (`output.validate: warn`), audit records dropped. Each server has a registry
// of its own (never prom-client's global one), so two servers in one process count apart.
//
// Calls are fed in as finished call records (Catalog.onCall); the metrics read only the fields
// they need, so this module depends on no catalog type. Label values that outside input could
// multiply are bounded: a call of a tool the catalog does not know is counted as `(unknown)`, and
// origins beyond the first MAX_ORIGINS share the label `(other)` (an executeRequest handler can
// ask for any URL, and each distinct label value is a series kept for the life of the process),
// as do origins and clients longer than MAX_LABEL_CHARS.

import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the metrics read of a finished call (a CallRecord of src/call/record.ts has these fields). */
export interface CountedCall {
  tool: string;
  /** 'ok', or the kind of the tool error. */
  outcome: string;
  durationMs: number;
  requests: ReadonlyArray<{ origin: string; status: number }>;
  cache: 'hit' | 'miss' | 'none';
  /** Who called (an HTTP caller admitted by a token, src/access/). */
  caller?: { identity?: string; client?: string };
}

/** What the metrics read of a sandbox event (src/sandbox/events.ts). */
export interface CountedSandboxEvent {
  kind: string;
}

/** Distinct origin label values kept before the rest are counted together. */
export const MAX_ORIGINS = 200;
/**
 * Distinct tool names kept as label values before the rest are counted together: a catalog's
 * names are bounded, but under `serve --watch` each reload may bring new ones (schema text), and
 * each name called stays a series for the life of the process. Far above an honest catalog.
 */
export const MAX_TOOLS = 10_000;
/** Distinct OAuth client ids kept as label values before the rest are counted together (an issuer may register clients without end). */
export const MAX_CLIENTS = 100;
/** The longest origin or client label kept: an origin's host is at most 253 characters (RFC 1035), with its scheme and port. */
export const MAX_LABEL_CHARS = 300;
const NONE = '(none)';
const OTHER = '(other)';
const UNKNOWN_TOOL = '(unknown)';

/** Upper bounds of the call latency buckets, in seconds: from a cache hit to a slow API. */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export class ServerMetrics {
  readonly registry = new Registry();
  // A call pays only for plain counts (prom-client's inc() sorts and joins the label names on
  // every call, about a microsecond each); the counters are filled from them when scraped.
  private readonly calls = new Tally();
  private readonly upstream = new Tally();
  private readonly restarts = new Tally(['stopped', 'replaced']);
  private readonly cache = new Tally(['hit', 'miss']);
  private readonly outputMismatches = new Tally();
  private readonly callers = new Tally();
  private readonly clients = new Set<string>();
  private inFlight = 0;
  private readonly origins = new Set<string>();
  private readonly tools = new Set<string>();
  private readonly latency = new Histogram({
    name: 'flowguard_tool_call_duration_seconds',
    help: 'Time from a tool call to its result, in seconds',
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  constructor() {
    const registry = this.registry;
    talliedCounter(registry, this.calls, {
      name: 'flowguard_tool_calls_total',
      help: 'Tool calls finished, by tool and outcome (ok or the kind of tool error)',
      labelNames: ['tool', 'outcome'],
    });
    talliedCounter(registry, this.upstream, {
      name: 'flowguard_upstream_responses_total',
      help: 'Outbound requests by origin and status class (2xx, 3xx, 4xx, 5xx, or failed when no answer came)',
      labelNames: ['origin', 'class'],
    });
    talliedCounter(registry, this.restarts, {
      name: 'flowguard_sandbox_restarts_total',
      help: 'Sandbox worker processes started again, by why (stopped: it ended on its own; replaced: the host killed it)',
      labelNames: ['reason'],
    });
    talliedCounter(registry, this.cache, {
      name: 'flowguard_cache_requests_total',
      help: 'Response cache lookups of read-only tool calls, by result (hit or miss)',
      labelNames: ['result'],
    });
    talliedCounter(registry, this.callers, {
      name: 'flowguard_caller_calls_total',
      help: 'Tool calls of callers admitted by a token, by identity (of the config), OAuth client (the first 100; then (other)) and outcome',
      labelNames: ['identity', 'client', 'outcome'],
    });
    talliedCounter(registry, this.outputMismatches, {
      name: 'flowguard_output_mismatches_total',
      help: "Answers served that did not match their tool's output schema (output.validate: warn), by tool",
      labelNames: ['tool'],
    });
    // collect() runs with `this` bound to the gauge; it reads the calls in flight of these metrics.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const metrics = this;
    new Gauge({
      name: 'flowguard_tool_calls_in_flight',
      help: 'Tool calls started and not yet answered',
      registers: [registry],
      collect() {
        this.set(metrics.inFlight);
      },
    });
  }

  /** Counts one finished call. */
  record(call: CountedCall): void {
    // A name the catalog does not know is the caller's text: counted under one label, so that made-up names cannot grow the series.
    this.calls.add(`${call.outcome === 'unknown-tool' ? UNKNOWN_TOOL : this.toolLabel(call.tool)}\n${call.outcome}`);
    this.latency.observe(call.durationMs / 1000);
    for (const request of call.requests)
      this.upstream.add(`${this.originLabel(request.origin)}\n${statusClassOf(request.status)}`);
    if (call.cache !== 'none') this.cache.add(call.cache);
    if (call.caller)
      this.callers.add(
        `${call.caller.identity ?? NONE}\n${this.bounded(this.clients, MAX_CLIENTS, call.caller.client ?? NONE)}\n${call.outcome}`,
      );
  }

  /** Counts an answer served that did not match the output schema of `tool` (a tool the server serves). */
  outputMismatch(tool: string): void {
    this.outputMismatches.add(this.toolLabel(tool));
  }

  /** Counts a sandbox worker process that stopped or was replaced (another one starts). */
  sandboxEvent(event: CountedSandboxEvent): void {
    if (event.kind === 'worker-replaced' || event.kind === 'worker-stopped')
      this.restarts.add(event.kind === 'worker-replaced' ? 'replaced' : 'stopped');
  }

  /** Shows `dropped()`, the audit records dropped so far (audit-log.ts), as a counter. */
  countAuditDrops(dropped: () => number): void {
    new Counter({
      name: 'flowguard_audit_records_dropped_total',
      help: 'Audit records not written: the queue was full, the record could not be made into a line, or the disk refused it',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(dropped());
      },
    });
  }

  /** A call has started; call the function returned once, when it is answered. */
  callStarted(): () => void {
    this.inFlight += 1;
    return () => {
      this.inFlight -= 1;
    };
  }

  /** The exposition text and its content type, for a scrape. */
  async scrape(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }

  private originLabel(origin: string): string {
    return this.bounded(this.origins, MAX_ORIGINS, origin);
  }

  private toolLabel(tool: string): string {
    return this.bounded(this.tools, MAX_TOOLS, tool);
  }

  /**
   * `value` as a label: itself while fewer than `max` values are known, else `(other)`; also
   * `(other)` when it is longer than any honest value (a handler can ask for an origin whose
   * host is a megabyte, and a series keeps its label for the life of the process) or holds a
   * line break (a Tally key's separator: it would shift the labels after it).
   */
  private bounded(known: Set<string>, max: number, value: string): string {
    if (known.has(value)) return value;
    if (known.size >= max || value.length > MAX_LABEL_CHARS || value.includes('\n')) return OTHER;
    known.add(value);
    return value;
  }
}

/** Counts by label values, joined with a newline (no label value here holds one), as plain numbers. */
class Tally {
  readonly counts = new Map<string, number>();

  /** `shown`: series exposed at zero from the start, so that a rate over them exists before the first event. */
  constructor(shown: readonly string[] = []) {
    for (const key of shown) this.counts.set(key, 0);
  }

  add(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
}

/** A counter of `registry` filled from `tally` whenever the registry is scraped. */
function talliedCounter(
  registry: Registry,
  tally: Tally,
  config: { name: string; help: string; labelNames: readonly string[] },
): void {
  new Counter({
    ...config,
    registers: [registry],
    collect() {
      this.reset();
      for (const [key, count] of tally.counts) {
        const values = key.split('\n');
        this.inc(Object.fromEntries(config.labelNames.map((name, index) => [name, values[index] as string])), count);
      }
    },
  });
}

/** `2xx` … `5xx`; `failed` for no answer (status 0) or anything outside 200–599. */
function statusClassOf(status: number): string {
  return status >= 200 && status < 600 ? `${Math.floor(status / 100)}xx` : 'failed';
}
