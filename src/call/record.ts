// One record per finished tool call, for whoever listens (the audit log, the log line, metrics):
// what was called, on which version of its schema, how it ended, how long it took, with which
// arguments, and every request that left for it. Records are made only while someone listens,
// so a catalog without listeners pays nothing for them. No key value is ever in a record: the
// whole record goes through the catalog's redactor before a listener sees it (R4).

import type { Redactor } from '../http/redact.js';
import { brokenBound, isRecord } from '../shared/raw.js';
import type { CallResult, DryRunResult, OutboundRecord, ToolErrorKind } from './outcome.js';

export interface CallRecord {
  /** ISO start time. */
  time: string;
  /** The MCP name (as the caller asked, for an unknown tool). */
  tool: string;
  /** `namespace/file.mjs::route`; empty for an unknown tool. */
  reference: string;
  /** SHA-256 of the schema file's bytes as loaded (hex); empty for an unknown tool. */
  schemaHash: string;
  outcome: 'ok' | ToolErrorKind;
  durationMs: number;
  /** Argument names and their redacted values; a value too long to keep is replaced by its size. */
  arguments: Record<string, unknown>;
  /** Every outbound request: the core's own and those an executeRequest handler asked for. */
  requests: OutboundRecord[];
  /** Whether the response cache answered: filled by the cache, `none` where no cache took part. */
  cache: 'hit' | 'miss' | 'none';
  /** Who called, where the server knows (an HTTP caller admitted by a token): never the token. */
  caller?: CallCaller;
}

/** A caller as a record names it: its identity of the config, the subject and client of its token. */
export interface CallCaller {
  identity?: string;
  subject?: string;
  client?: string;
}

export type CallListener = (record: CallRecord) => void;

/** When and what a call started with; taken before the call, only while someone listens. */
export interface CallStart {
  epochMs: number;
  /** performance.now() at the start, for the duration. */
  at: number;
}

/** What a call was made on: its tool (undefined for an unknown name) and the schema's hash. */
export interface CalledTool {
  name: string;
  reference: string;
  schemaHash: string;
}

/** The JSON text of one argument value longer than this is not kept, only its size (an audit line stays small). */
const MAX_ARGUMENT_CHARS = 1024;
/** An argument value nested deeper than this is not kept (it is walked without recursion to find out). */
const MAX_ARGUMENT_DEPTH = 32;
/** Argument names kept per record; the rest are counted. */
const MAX_RECORDED_ARGUMENTS = 50;
/** An argument name, or the name of an unknown tool, is cut to this many characters. */
const MAX_RECORDED_NAME_CHARS = 100;

/**
 * How long finished calls' records wait to be handed to the listeners, in one batch. Writing an
 * audit line, a log line and metrics is then off every call's own path, and a busy server pays for
 * one timer per batch rather than one per call.
 */
export const DELIVERY_DELAY_MS = 5;

/** The listeners of one catalog's calls, and the records waiting to reach them. */
export class CallListeners {
  /** Replaced, never changed: a waiting record keeps the listeners there were when its call ended. */
  private listeners: readonly CallListener[] = [];
  private waiting: Array<{ makeRecord: () => CallRecord; listeners: readonly CallListener[] }> = [];
  private timer: NodeJS.Timeout | undefined;

  /** Whether a call should make a record at all. */
  get active(): boolean {
    return this.listeners.length > 0;
  }

  add(listener: CallListener): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((each) => each !== listener);
    };
  }

  /**
   * Queues a finished call's record for the listeners there are now; it is made and handed over
   * in the next batch (at most DELIVERY_DELAY_MS later, or at deliverNow()). The caller already
   * has its answer by then.
   */
  publish(makeRecord: () => CallRecord): void {
    this.waiting.push({ makeRecord, listeners: this.listeners });
    // Unref'd: waiting records never keep a process alive; Catalog.close() delivers them.
    this.timer ??= setTimeout(() => this.deliverNow(), DELIVERY_DELAY_MS).unref();
  }

  /**
   * Hands every waiting record over now. Neither making a record nor a listener that throws (or
   * rejects) fails the call, the others, or the timer this runs on: a throw out of a timer would
   * end the process.
   */
  deliverNow(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting;
    this.waiting = [];
    for (const { makeRecord, listeners } of batch) {
      let record: CallRecord;
      try {
        // One record for every listener: its arguments are bounded and redacted once.
        record = makeRecord();
      } catch {
        // A record that cannot be made (arguments that throw as they are read) is no one's to hear; the call goes on.
        continue;
      }
      for (const listener of listeners) {
        try {
          const returned: unknown = listener(record);
          if (returned instanceof Promise) returned.catch(() => undefined);
        } catch {
          // A listener's failure is the listener's: the call it observes has already succeeded or failed on its own.
        }
      }
    }
  }
}

export function startCall(): CallStart {
  return { epochMs: Date.now(), at: performance.now() };
}

/** Milliseconds since `start`, to the microsecond; taken when the call ends, before its record is made. */
export function elapsedMs(start: CallStart): number {
  return Math.round((performance.now() - start.at) * 1000) / 1000;
}

/**
 * The record of a finished call. Its time text and its arguments are made when first read (an
 * audit line is written after the call, not during it), and then kept; arguments are redacted
 * before a long value is cut (a cut could split a key).
 */
export function makeCallRecord(
  start: CallStart,
  durationMs: number,
  tool: CalledTool,
  args: unknown,
  result: CallResult | DryRunResult,
  redactor: Redactor,
  cache: CallRecord['cache'] = 'none',
  caller?: CallCaller,
): CallRecord {
  let time: string | undefined;
  let recorded: Record<string, unknown> | undefined;
  return {
    get time() {
      return (time ??= new Date(start.epochMs).toISOString());
    },
    // An unknown name is the caller's text and could hold anything: redacted, then cut and cleaned.
    tool: tool.reference === '' ? recordedName(redactor.redact(tool.name)) : tool.name,
    reference: tool.reference,
    schemaHash: tool.schemaHash,
    outcome: result.ok ? 'ok' : result.error.kind,
    durationMs,
    get arguments() {
      return (recorded ??= recordedArguments(args, redactor));
    },
    // The call pipeline redacted its result whole, these included.
    requests: 'requests' in result && result.requests ? result.requests : [],
    cache,
    // Only the three names: a caller's scopes and groups could make a line long, and say nothing of who.
    ...(caller ? { caller: { identity: caller.identity, subject: caller.subject, client: caller.client } } : {}),
  };
}

/**
 * Names and values of the arguments, bounded whatever the client sent (they may be the very
 * arguments the call refused): at most MAX_RECORDED_ARGUMENTS names, each cut to
 * MAX_RECORDED_NAME_CHARS; a value nested deeper than MAX_ARGUMENT_DEPTH or whose JSON text is
 * longer than MAX_ARGUMENT_CHARS is replaced by a note of why, found by a walk without recursion.
 * A value is redacted once it is known to be small; a name before it is cut (a cut could split a key).
 */
function recordedArguments(args: unknown, redactor: Redactor): Record<string, unknown> {
  if (!isRecord(args)) return {};
  const names = Object.keys(args);
  const recorded: Record<string, unknown> = {};
  for (const name of names.slice(0, MAX_RECORDED_ARGUMENTS))
    recorded[recordedName(redactor.redact(name))] = recordedValue(args[name], redactor);
  if (names.length > MAX_RECORDED_ARGUMENTS)
    recorded['…'] = `[${names.length - MAX_RECORDED_ARGUMENTS} more arguments, not recorded]`;
  return recorded;
}

function recordedValue(value: unknown, redactor: Redactor): unknown {
  if (typeof value === 'string' && value.length > MAX_ARGUMENT_CHARS)
    return `[${value.length} characters, not recorded]`;
  // A number can be a key's digits too: every kept value goes through the redactor.
  if (typeof value !== 'object' || value === null) return redactor.redactValue(value);
  const broken = brokenBound(value, { maxDepth: MAX_ARGUMENT_DEPTH, maxBytes: MAX_ARGUMENT_CHARS });
  if (broken === 'depth') return `[nested deeper than ${MAX_ARGUMENT_DEPTH} levels, not recorded]`;
  if (broken === 'size') return `[more than ${MAX_ARGUMENT_CHARS} characters, not recorded]`;
  const length = JSON.stringify(value)?.length ?? 0;
  return length > MAX_ARGUMENT_CHARS ? `[${length} characters, not recorded]` : redactor.redactValue(value);
}

/** A name as a record keeps it: control and bidi characters shown as \\uXXXX escapes, cut to MAX_RECORDED_NAME_CHARS. */
function recordedName(name: string): string {
  const shown = name
    .slice(0, MAX_RECORDED_NAME_CHARS * 6)
    .replace(
      /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  return shown.length > MAX_RECORDED_NAME_CHARS ? `${shown.slice(0, MAX_RECORDED_NAME_CHARS)}…` : shown;
}
