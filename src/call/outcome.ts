// What a call gives back, for every caller (the MCP server, the CLI, a program using the API),
// and the one thing more the pipeline hands to the response cache. Kept apart from the pipeline
// so that the public API (src/index.ts) names these types without reaching the pipeline's parts.

import type { Decoded } from '../http/decode.js';
import type { Code } from '../report/codes.js';
import type { CallCaller } from './record.js';

/** The body of an answer as a call gives it: the protocol layer renders it without knowing HTTP. */
export type { Decoded };

export type ToolErrorKind =
  | 'unknown-tool'
  | 'arguments'
  | 'missing-keys'
  | 'handler'
  | 'origin'
  | 'rate-limited'
  | 'upstream-status'
  | 'upstream-failure'
  | 'decode'
  | 'internal';

export interface ToolError {
  kind: ToolErrorKind;
  message: string;
  /** The run-time finding code of a handler failure (SEC100–SEC107). */
  code?: Code;
  status?: number;
  /** From a 429 or 503 answer, passed on so the caller knows when to try again; of a 'rate-limited' refusal, whole seconds. */
  retryAfter?: string;
}

export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** One request a call sent: the core's own, or one an executeRequest handler made through the core (R12). */
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

export interface CallOptions {
  signal?: AbortSignal;
  /** Build and show the request (keys redacted) instead of sending it. */
  dryRun?: boolean;
  /** `false`: neither read nor fill the response cache (`flowguard test` asks the API itself every time). */
  cache?: boolean;
  /** Who made the call (src/access/), named in its record; never a token. */
  caller?: CallCaller;
}

/** A call that failed; `requests` lists every request it sent. */
export type CallFailure = { ok: false; error: ToolError; requests?: OutboundRecord[] };

/** A call's result; `requests` lists every request it sent. */
export type CallResult = { ok: true; status: number; content: Decoded; requests?: OutboundRecord[] } | CallFailure;

/** A dry run's result: the request as it would be sent, keys redacted; or why it would not be. */
export type DryRunResult = { ok: true; dryRun: SentRequest } | CallFailure;

/**
 * A result as the pipeline hands it to the response cache: an answer also carries the
 * upstream's Cache-Control values, which the cache reads and takes off (src/cache/), so no
 * caller of Catalog.call ever sees them.
 */
export type PipelineResult =
  | CallResult
  | DryRunResult
  | { ok: true; status: number; content: Decoded; requests?: OutboundRecord[]; cacheControl: string[] };
