// The worker side of the network bridge (RULINGS R12). An executeRequest handler gets a `fetch`
// (the WHATWG subset the corpus uses) and ethers gets a getUrl function; both only ask: each
// request goes to the host as plain data, and the core performs it (src/catalog/bridge.ts). Only
// while an executeRequest call of the same unit runs; anywhere else the attempt is refused and
// counted like any other network attempt (SEC100).

import { countNetworkAttempt, NetworkBlockedError } from './network-guard.js';
import type { BridgeAnswer, BridgeRequest, Inbound, Outbound } from './protocol.js';

/** The executeRequest call running now: the request id the host knows it by, and its unit. */
let running: { id: number; unit: string } | null = null;
let nextOutbound = 1;
const waiting = new Map<number, (answer: BridgeAnswer) => void>();

/** Runs `work` as executeRequest call `id` of `unit`: its requests go to the host while it runs. */
export async function asBridgedCall<T>(id: number, unit: string, work: () => Promise<T>): Promise<T> {
  running = { id, unit };
  try {
    return await work();
  } finally {
    running = null;
  }
}

/** An answer from the host; one for a call that has ended is dropped. */
export function receiveInbound(message: Inbound): void {
  const settle = waiting.get(message.outbound);
  waiting.delete(message.outbound);
  settle?.(message.answer);
}

/** Sends one request for the running call of `unit` (any unit when null: ethers is shared). */
function ask(unit: string | null, request: BridgeRequest, what: string): Promise<BridgeAnswer> {
  const call = running;
  if (!call || (unit !== null && call.unit !== unit)) {
    countNetworkAttempt();
    return Promise.reject(new NetworkBlockedError(`${what} outside an executeRequest handler`));
  }
  const outbound = nextOutbound++;
  return new Promise((settle) => {
    waiting.set(outbound, settle);
    process.send?.({ id: call.id, outbound, request } satisfies Outbound);
  });
}

/** A unit's `fetch`: `fetch(url | { url }, { method, headers, body })`; with `null`, the libraries' global one, for whichever executeRequest call runs. */
export function fetchFor(unit: string | null): (input: unknown, init?: unknown) => Promise<unknown> {
  return async (input, init) => {
    const request = readRequest(input, init);
    const answer = await ask(unit, request, 'fetch');
    if (!answer.ok) throw new TypeError(answer.message);
    return harden(responseOf(answer));
  };
}

/** ethers v6 `FetchRequest.registerGetUrl`: JSON-RPC providers and contracts ask through the bridge. */
export async function ethersGetUrl(req: { url: string; method: string; headers: Record<string, string>; body: Uint8Array | null }): Promise<{ statusCode: number; statusMessage: string; headers: Record<string, string>; body: Uint8Array | null }> {
  const request: BridgeRequest = { url: String(req.url), method: String(req.method || 'GET'), headers: { ...req.headers } };
  if (req.body) request.body = Buffer.from(req.body).toString('utf8');
  const answer = await ask(null, request, 'an ethers request');
  if (!answer.ok) throw new Error(answer.message);
  return { statusCode: answer.status, statusMessage: '', headers: answer.headers, body: new Uint8Array(Buffer.from(answer.body, 'base64')) };
}

function readRequest(input: unknown, init: unknown): BridgeRequest {
  const source = typeof input === 'object' && input !== null && !(input instanceof URL) ? (input as Record<string, unknown>) : {};
  const options = typeof init === 'object' && init !== null ? (init as Record<string, unknown>) : {};
  const url = String(input instanceof URL || typeof input === 'string' ? input : source.url);
  const request: BridgeRequest = { url, method: String(options.method ?? source.method ?? 'GET').toUpperCase(), headers: readHeaders(options.headers ?? source.headers) };
  const body = options.body ?? source.body;
  if (body !== undefined && body !== null) request.body = body instanceof Uint8Array ? Buffer.from(body).toString('utf8') : String(body);
  return request;
}

/** Headers as an object, an array of pairs, or anything with `forEach(value, name)` (a Headers). */
function readHeaders(headers: unknown): Record<string, string> {
  const read: Record<string, string> = {};
  if (typeof headers !== 'object' || headers === null) return read;
  if (Array.isArray(headers)) {
    for (const pair of headers) if (Array.isArray(pair)) read[String(pair[0])] = String(pair[1]);
  } else if (typeof (headers as { forEach?: unknown }).forEach === 'function') {
    (headers as { forEach(each: (value: unknown, name: unknown) => void): void }).forEach((value, name) => (read[String(name)] = String(value)));
  } else {
    for (const [name, value] of Object.entries(headers)) read[name] = String(value);
  }
  return read;
}

/** The Response subset the corpus reads. */
function responseOf(answer: Extract<BridgeAnswer, { ok: true }>): Record<string, unknown> {
  const bytes = Buffer.from(answer.body, 'base64');
  const text = () => bytes.toString('utf8');
  const headers = new Map(Object.entries(answer.headers).map(([name, value]) => [name.toLowerCase(), value]));
  return {
    ok: answer.status >= 200 && answer.status <= 299,
    status: answer.status,
    statusText: '',
    url: answer.url,
    redirected: false,
    headers: {
      get: (name: unknown) => headers.get(String(name).toLowerCase()) ?? null,
      has: (name: unknown) => headers.has(String(name).toLowerCase()),
      forEach: (each: (value: string, name: string) => void) => headers.forEach((value, name) => each(value, name)),
      entries: () => [...headers.entries()][Symbol.iterator](),
    },
    text: async () => text(),
    json: async () => JSON.parse(text()) as unknown,
    arrayBuffer: async () => new Uint8Array(bytes).buffer,
  };
}
