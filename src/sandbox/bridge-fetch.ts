// The worker side of the network bridge (decision R12). An executeRequest handler gets a `fetch`
// (the WHATWG subset the corpus uses) and ethers gets a getUrl function; both only ask: each
// request goes to the host as plain data, and the core performs it (src/call/bridge.ts). A
// request belongs to the executeRequest call whose code made it (job-context.ts), however late
// and through whatever library: it is sent as that call's, and only while that call runs; code
// an answered call left behind is refused here (and by the host), and never hears back. Anywhere
// but in an executeRequest call the attempt is refused and counted like any other network
// attempt (SEC100).

import { TextDecoder } from 'node:util';
import { readMediaType } from '../shared/media-type.js';
import { currentJob, type Job } from './job-context.js';
import { countNetworkAttempt, NetworkBlockedError } from './network-guard.js';
import type { BridgeAnswer, BridgeRequest, Inbound, Late, Outbound } from './protocol.js';
import { readBody } from './request-body.js';

let nextOutbound = 1;
const waiting = new Map<number, (answer: BridgeAnswer) => void>();

/** An answer from the host; one for a request already settled (its call ended) is dropped. */
export function receiveInbound(message: Inbound): void {
  const settle = waiting.get(message.outbound);
  waiting.delete(message.outbound);
  settle?.(message.answer);
}

/**
 * The job has ended: its requests still waiting are never answered, whatever the host answers
 * later. Settling them would run the code the call left behind after the call's last turn, under
 * no deadline: a chain that asks again on each refusal would hold the process for ever, and the
 * next schema's call would fail for it.
 */
export function endBridgedRequests(job: Job): void {
  for (const outbound of job.waiting) waiting.delete(outbound);
  job.waiting.clear();
}

/** Tells the host, once per ended job, that code it left behind still tries to reach out. */
export function reportLate(job: Job): void {
  if (job.toldLate) return;
  job.toldLate = true;
  process.send?.({ late: job.id, unit: job.unit } satisfies Late);
}

/**
 * Sends one request for the executeRequest call the running code belongs to, if it is one of
 * `unit` (any unit when null: ethers is shared). When the handler's `signal` aborts, the core is
 * told to stop the request (cancelled upstream) and the answer is not waited for.
 */
function ask(unit: string | null, request: BridgeRequest, what: string, signal?: AbortSignal): Promise<BridgeAnswer> {
  const job = currentJob();
  if (!job || job.hook !== 'executeRequest' || (unit !== null && job.unit !== unit)) {
    countNetworkAttempt();
    return Promise.reject(new NetworkBlockedError(`${what} outside an executeRequest handler`));
  }
  if (job.ended) {
    // Refused unanswered, as endBridgedRequests leaves them: no answer runs the ended call's code again.
    reportLate(job);
    return new Promise(() => undefined);
  }
  const outbound = nextOutbound++;
  job.waiting.add(outbound);
  return new Promise((settle) => {
    const abort = () => {
      process.send?.({ id: job.id, outbound, cancel: true } satisfies Outbound);
      receiveInbound({
        kind: 'inbound',
        outbound,
        answer: { ok: false, message: 'ABORTED: the handler aborted this request' },
      });
    };
    waiting.set(outbound, (answer) => {
      job.waiting.delete(outbound);
      signal?.removeEventListener('abort', abort);
      settle(answer);
    });
    signal?.addEventListener('abort', abort, { once: true });
    process.send?.({ id: job.id, outbound, request, at: Date.now() } satisfies Outbound);
  });
}

/** The deadline each signal of the sandbox's `AbortSignal.timeout(ms)` stands for; the core keeps it. */
const timeouts = new WeakMap<AbortSignal, number>();

/**
 * The compartments' `AbortSignal`: `timeout(ms)` gives a signal whose bound the core keeps on the
 * request it is passed to (a signal that fired by itself would run handler code on a timer after
 * the call, which the sandbox never allows); `abort()` an aborted one. `new AbortController()`
 * gives signals the handler aborts itself.
 */
export const sandboxAbortSignal = {
  timeout(ms: unknown): AbortSignal {
    const bound = Number(ms);
    if (!Number.isFinite(bound) || bound < 0)
      throw new TypeError(`AbortSignal.timeout: ${String(ms).slice(0, 40)} is not a number of milliseconds`);
    const signal = new AbortController().signal;
    timeouts.set(signal, bound);
    return signal;
  },
  abort(reason?: unknown): AbortSignal {
    return AbortSignal.abort(reason);
  },
};

/** The error a fetch rejects with when its signal ended it, as WHATWG fetch names it. */
function abortError(signal: AbortSignal | undefined, message: string): Error {
  if (signal?.aborted && signal.reason !== undefined) return signal.reason as Error;
  return new DOMException(message, message.startsWith('TIMEOUT') ? 'TimeoutError' : 'AbortError');
}

/** A unit's `fetch`: `fetch(url | { url }, { method, headers, body })`; with `null`, the libraries' global one, for whichever executeRequest call runs. */
export function fetchFor(unit: string | null): (input: unknown, init?: unknown) => Promise<unknown> {
  return async (input, init) => {
    const { request, signal } = await readRequest(input, init);
    if (signal?.aborted) throw abortError(signal, 'ABORTED: the handler aborted this request before it was sent');
    const answer = await ask(unit, request, 'fetch', signal);
    if (!answer.ok)
      throw answer.message.startsWith('ABORTED') || answer.message.startsWith('TIMEOUT')
        ? abortError(signal, answer.message)
        : new TypeError(answer.message);
    return harden(responseOf(answer));
  };
}

/** ethers v6 `FetchRequest.registerGetUrl`: JSON-RPC providers and contracts ask through the bridge. */
export async function ethersGetUrl(req: {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Uint8Array | null;
}): Promise<{ statusCode: number; statusMessage: string; headers: Record<string, string>; body: Uint8Array | null }> {
  const request: BridgeRequest = {
    url: String(req.url),
    method: String(req.method || 'GET'),
    headers: { ...req.headers },
  };
  if (req.body)
    request.body = Buffer.from(req.body.buffer, req.body.byteOffset, req.body.byteLength).toString('base64');
  const answer = await ask(null, request, 'an ethers request');
  if (!answer.ok) throw new Error(answer.message);
  return {
    statusCode: answer.status,
    statusMessage: '',
    headers: answer.headers,
    body: new Uint8Array(Buffer.from(answer.body, 'base64')),
  };
}

async function readRequest(
  input: unknown,
  init: unknown,
): Promise<{ request: BridgeRequest; signal: AbortSignal | undefined }> {
  const source =
    typeof input === 'object' && input !== null && !(input instanceof URL) ? (input as Record<string, unknown>) : {};
  const options = typeof init === 'object' && init !== null ? (init as Record<string, unknown>) : {};
  const url = String(input instanceof URL || typeof input === 'string' ? input : source.url);
  const request: BridgeRequest = {
    url,
    method: String(options.method ?? source.method ?? 'GET').toUpperCase(),
    headers: readHeaders(options.headers ?? source.headers),
  };
  const body = options.body ?? source.body;
  if (body !== undefined && body !== null) request.body = (await readBody(body)).toString('base64');
  const given = options.signal ?? source.signal;
  const signal = given instanceof AbortSignal ? given : undefined;
  const timeoutMs = signal && timeouts.get(signal);
  if (timeoutMs !== undefined) request.timeoutMs = timeoutMs;
  return { request, signal };
}

/** Headers as an object, an array of pairs, or anything with `forEach(value, name)` (a Headers). */
function readHeaders(headers: unknown): Record<string, string> {
  const read: Record<string, string> = {};
  if (typeof headers !== 'object' || headers === null) return read;
  if (Array.isArray(headers)) {
    for (const pair of headers) if (Array.isArray(pair)) read[String(pair[0])] = String(pair[1]);
  } else if (typeof (headers as { forEach?: unknown }).forEach === 'function') {
    (headers as { forEach(each: (value: unknown, name: unknown) => void): void }).forEach(
      (value, name) => (read[String(name)] = String(value)),
    );
  } else {
    for (const [name, value] of Object.entries(headers)) read[name] = String(value);
  }
  return read;
}

/** The Response subset the corpus reads. Text is what its charset says, or an error: never a silent U+FFFD. */
function responseOf(answer: Extract<BridgeAnswer, { ok: true }>): Record<string, unknown> {
  const bytes = Buffer.from(answer.body, 'base64');
  const headers = answerHeaders(answer.headers);
  const text = () => decodeAnswer(bytes, headers.get('content-type') ?? undefined, answer.url);
  return {
    ok: answer.status >= 200 && answer.status <= 299,
    status: answer.status,
    statusText: '',
    url: answer.url,
    redirected: false,
    headers,
    text: async () => text(),
    json: async () => JSON.parse(text()) as unknown,
    arrayBuffer: async () => new Uint8Array(bytes).buffer,
  };
}

/**
 * The answer's headers as WHATWG `Headers` (frozen), so `getSetCookie()` gives each cookie: the
 * core joins repeated Set-Cookie lines with a line break, which no header value can hold. A name
 * redaction rewrote (`[redacted KEY]`) is not a valid header name: its other characters become
 * `-` (`-redacted-key-`), so the handler still sees that a header was there.
 */
function answerHeaders(record: Record<string, string>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(record)) {
    const token = name.replace(/[^!#$%&'*+\-.^_`|~0-9A-Za-z]/g, '-');
    for (const line of token.toLowerCase() === 'set-cookie' ? value.split('\n') : [value]) {
      try {
        headers.append(token, line);
      } catch {
        // a value no Response could carry (a control character): left out
      }
    }
  }
  return headers;
}

/**
 * The answer as text, by the rule of the core's own path (src/http/decode.ts): the charset of its
 * Content-Type as the redactor read it (src/shared/media-type.ts), UTF-8 when none; bytes that are not valid in it are an error naming the origin.
 */
function decodeAnswer(bytes: Buffer, contentType: string | undefined, url: string): string {
  const charset = readMediaType(contentType ?? '')?.charset ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset, { fatal: true });
  } catch {
    throw new TypeError(
      `the answer from ${originOf(url)} declares an unsupported charset "${charset.slice(0, 40)}"; arrayBuffer() gives its bytes`,
    );
  }
  try {
    return decoder.decode(bytes);
  } catch {
    throw new TypeError(
      `the answer from ${originOf(url)} is not valid ${decoder.encoding} text; arrayBuffer() gives its bytes`,
    );
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    // new URL throws only on a malformed URL: the message names no origin then.
    return 'the upstream';
  }
}
