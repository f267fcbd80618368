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

export type Request = Command & { id: number };

export type Outcome<T> = { ok: true; value: T } | { ok: false; failure: Failure };

/** Why a load or call failed, as a runtime finding code (SEC100–SEC107) and a short reason. */
export interface Failure {
  code: SandboxCode;
  message: string;
}

export type SandboxCode = 'SEC100' | 'SEC101' | 'SEC102' | 'SEC103' | 'SEC104' | 'SEC105' | 'SEC106' | 'SEC107';

export type Reply =
  | { id: number; ok: true; imported: true }
  | { id: number; ok: true; json: string }
  | { id: number; ok: true; hooks: Record<string, Hook[]>; unknownRoutes: string[] }
  | { id: number; ok: false; failure: Failure };

/**
 * Sent by a worker after each reply, from the next turn of its event loop: it shows that the
 * request left nothing running that blocks the process (an endless promise chain never lets it
 * go). A network attempt made by promise chains that ran out in between fails the request after
 * all (`failure`).
 */
export interface Turned {
  id: number;
  turned: true;
  failure?: Failure;
}

/** A request an executeRequest handler asks the core to perform (RULINGS R12): plain data only. */
export interface BridgeRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** The core's answer: the upstream's (redacted, body as base64), or why nothing was sent or received. */
export type BridgeAnswer =
  | { ok: true; status: number; url: string; headers: Record<string, string>; body: string }
  | { ok: false; message: string };

/** Performs one request of an executeRequest call through the core (src/catalog/bridge.ts). */
export type Bridge = (request: BridgeRequest) => Promise<BridgeAnswer>;

/** Worker → host, while request `id` (an executeRequest call) runs: perform this request. */
export interface Outbound {
  id: number;
  outbound: number;
  request: BridgeRequest;
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
