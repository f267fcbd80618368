// The messages between the host and a sandbox worker. Only plain data crosses: the host sends
// structured-cloneable values, the worker answers with JSON text it serialised itself, so no
// getter, toJSON, proxy or thenable of handler code ever runs in the host.

import type { LibraryModule } from '../libraries/resolve.js';

export type Hook = 'preRequest' | 'postRequest' | 'executeRequest';

/** One schema's isolation unit: its own Compartment, factory and handlers. */
export interface UnitSpec {
  id: string;
  /** The handlers factory expression, exactly as written in the schema file. */
  source: string;
  routes: string[];
  libraries: LibraryModule[];
  /** Filtered shared-list entries by list name; frozen again inside the worker. */
  sharedLists: Record<string, unknown>;
}

export type Command =
  /** Imports libraries ahead of a load, outside the schema's deadline. */
  | { kind: 'import'; libraries: LibraryModule[] }
  | { kind: 'load'; unit: UnitSpec }
  | { kind: 'call'; unit: string; route: string; hook: Hook; input: unknown };

/** `startBy` (epoch ms), on a call sent ahead: past it the worker answers it as dropped, without running it. */
export type Request = Command & { id: number; startBy?: number };

export type Outcome<T> = { ok: true; value: T } | { ok: false; failure: Failure };

/** Why a load or call failed, as a runtime finding code (SEC100–SEC107) and a short reason. */
export interface Failure {
  code: SandboxCode;
  message: string;
}

export type SandboxCode = 'SEC100' | 'SEC101' | 'SEC102' | 'SEC103' | 'SEC104' | 'SEC105' | 'SEC106' | 'SEC107';

/**
 * A worker's answer to a request, sent from the next turn of its event loop after the request
 * returned: it shows that the request left nothing running that blocks the process (an endless
 * promise chain never lets the loop turn, and the request misses its deadline; returned-note.ts
 * says whether it had returned). A network attempt made by promise chains that ran out in between
 * fails the request after all (SEC100).
 */
export type Reply = (
  | { id: number; ok: true; imported: true }
  | { id: number; ok: true; json: string }
  | { id: number; ok: true; hooks: Record<string, Hook[]>; unknownRoutes: string[] }
  | { id: number; ok: false; failure: Failure }
) & {
  /** The process ends after this reply, for the reason given (held-memory.ts): replace it at once. */
  ends?: string;
};

/** A request an executeRequest handler asks the core to perform (decision R12): plain data only. */
export interface BridgeRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  /** The body's bytes as base64: bytes stay bytes, whatever the handler passed (text, a view, chunks). */
  body?: string;
  /** The handler's `AbortSignal.timeout(ms)`: the core gives up on the request after this long. */
  timeoutMs?: number;
}

/** The core's answer: the upstream's (redacted, body as base64), or why nothing was sent or received. */
export type BridgeAnswer =
  | { ok: true; status: number; url: string; headers: Record<string, string>; body: string }
  | { ok: false; message: string };

/**
 * Performs one request of an executeRequest call through the core (src/call/bridge.ts).
 * `callEnded` aborts when the call has answered: what is still in flight is dropped then;
 * `cancelled` when the handler aborted this one request (its AbortController).
 */
export type Bridge = (request: BridgeRequest, callEnded: AbortSignal, cancelled?: AbortSignal) => Promise<BridgeAnswer>;

/**
 * Worker → host: perform this request for executeRequest call `id`, the call whose code made it;
 * or, with `cancel`, stop performing request `outbound` (the handler aborted it).
 */
export type Outbound =
  { id: number; outbound: number; request: BridgeRequest; at: number } | { id: number; outbound: number; cancel: true };

/**
 * Host → worker: executeRequest call `id` only waits for the core's requests; let it wait aside
 * and take the next request (worker-supervisor.ts says when and why).
 */
export interface Park {
  kind: 'park';
  id: number;
}

/**
 * Host → worker: call `id`, sent ahead and still in the worker's inbox, has waited past its start
 * bound and failed; answer it without running it. One the worker has started runs on, under its
 * deadline, its answer heard by no one.
 */
export interface Drop {
  kind: 'drop';
  id: number;
}

/** Worker → host: call `id` waits aside; the worker ran nothing of it since the Park arrived. */
export interface Parked {
  parked: number;
  /** When the worker said so (its Date.now()), as `at` on an Outbound request: a deadline is judged by when the worker acted, not by when the host read it. */
  at: number;
}

/** Worker → host, once per ended request: code it left behind tried to make a request or reach the network; refused. */
export interface Late {
  late: number;
  unit: string | null;
}

/** Host → worker: the answer to outbound request `outbound`. Not queued: the call waiting for it runs. */
export interface Inbound {
  kind: 'inbound';
  outbound: number;
  answer: BridgeAnswer;
}

/** Sent once by a worker when lockdown is done and it takes requests. */
export interface Ready {
  ready: true;
}

/** What a command runs, as a failure message names it. */
export function describeCommand(command: Command): string {
  return command.kind === 'load'
    ? 'the handlers factory'
    : command.kind === 'import'
      ? 'importing libraries'
      : 'the handler';
}

export function isFailure<T>(value: T | Failure): value is Failure {
  return typeof value === 'object' && value !== null && 'code' in value;
}
