// The sandbox worker: a child process started with an empty environment and a V8 heap limit
// (a process, not a worker thread: a heap overflow in a worker thread can abort the whole host).
// Network primitives are refused first (network-guard, imported before anything else), timers
// of a request that has ended never fire (timer-guard), then SES `lockdown()` freezes every
// shared intrinsic. Libraries are imported the first time a
// schema needs them, their shared settings locked and frozen with `harden`, so every schema in
// the process shares one read-only copy. Each schema gets its own Compartment whose globals are
// a short list of safe built-ins; its handlers factory and handlers run there and see only their
// arguments. Results leave as JSON text, checked after serialisation. The worker answers a
// request only once its event loop has turned after it: a handler that returned but left an
// endless promise chain running never lets that happen, and the host replaces the process
// rather than failing the next schema's call. Each request runs as a job of its own
// (job-context.ts): a network attempt or a bridged request is charged to the request whose code
// made it, and once a request has ended, what its code still tries is refused and fails no one.

import { onLateAttempt, routeGlobalFetch } from './network-guard.js';
import './timer-guard.js';
import 'ses';
import { endBridgedRequests, fetchFor, receiveInbound, reportLate, sandboxAbortSignal } from './bridge-fetch.js';
import { BusyPoll, workOverlaps } from './busy-poll.js';
import { newJob, outsideJobs, runAs, type Job } from './job-context.js';
import { HeldMemory } from './held-memory.js';
import { noteReturned, RETURNED_NOTE_FLAG } from './returned-note.js';
import { importLibrary } from './worker-libraries.js';
import { describe, failureOf, isObject, messageOf, shapeError } from './worker-errors.js';
import type { LibraryModule } from '../libraries/resolve.js';
import type { Drop, Hook, Inbound, Park, Parked, Ready, Reply, Request, UnitSpec } from './protocol.js';

interface Unit {
  handlers: Record<string, Partial<Record<Hook, (input: unknown) => unknown>>>;
}

const HOOKS: ReadonlySet<string> = new Set<Hook>(['preRequest', 'postRequest', 'executeRequest']);
const units = new Map<string, Unit>();

/** How long the worker polls for the next request after a reply: a postRequest follows its
 * preRequest after one upstream round trip, often within a millisecond on a fast upstream. */
const NEXT_REQUEST_POLL_MS = 1;
const nextRequestPoll = new BusyPoll();

const send = process.send?.bind(process);
if (!send) throw new Error('the sandbox worker must run as a child process with an IPC channel');
/** Notes that a request returned, where the host gave this process the note (returned-note.ts). */
const noteIfGiven: (id: number) => void = process.argv.includes(RETURNED_NOTE_FLAG) ? noteReturned : () => undefined;

// A rejection no one awaits (say, a library call a handler fired and forgot) must not end the
// worker: the call it belongs to has already been answered or failed. Nor an exception no one
// catches (an AbortSignal listener that throws, which Node reports on a later tick): ending the
// process would fail every schema's calls in it, at no cost to the caller. Should the worker's
// own code throw so, the request goes unanswered and the host's deadline replaces the process.
process.on('unhandledRejection', () => undefined);
process.on('uncaughtException', () => undefined);
// Small Buffers are slices of one pool, and `buffer.buffer` of any slice is all of it: the bytes
// of other schemas' answers, bodies and tokens. With no pool each Buffer has memory of its own
// (cleared: the process starts with --zero-fill-buffers, worker-process.ts); lockdown freezes it so.
Buffer.poolSize = 0;
lockdown({
  // 'safe' keeps stack traces, with their host paths, away from handler code.
  errorTaming: 'safe',
  consoleTaming: 'unsafe',
  overrideTaming: 'severe',
  stackFiltering: 'concise',
  errorTrapping: 'none',
  unhandledRejectionTrapping: 'none',
});
// Lockdown froze the language's intrinsics; harden freezes the host classes handed out, so no
// schema can change what another one sees. `Buffer` only computes (quickchart's handlers encode
// with it); frozen, no schema can swap its methods under another.
// AbortController and Headers too (a bridged fetch takes a signal, and answers with Headers); the
// compartments' AbortSignal is the bridge's (its timeout is a bound the core keeps, never a timer).
harden([AbortSignal, DOMException]);
const globals = harden({
  Date,
  Math,
  URL,
  URLSearchParams,
  TextEncoder,
  TextDecoder,
  Buffer,
  AbortController,
  AbortSignal: sandboxAbortSignal,
  Headers,
});
routeGlobalFetch(harden(fetchFor(null)));
/** What requests leave held, judged against the limits the host started the process with and what it holds once locked down. */
const held = HeldMemory.fromArgs(process.argv);
onLateAttempt(reportLate);
// One request at a time, in the order sent: the host may send several loads or calls at once, and
// each deadline measures one request. The one exception is an executeRequest call the host parks
// (worker-supervisor.ts): it only waits for the core's requests, so it waits aside and the
// next request runs meanwhile.
const inbox: Request[] = [];
let working = false;
/** The request the inbox waits for, and how to stop waiting for it (when the host parks it). */
let inLine: { id: number; park: () => void } | null = null;
let ending = false;
/** Requests in the inbox the host has given up on (protocol.ts, Drop): answered without running. */
const dropped = new Set<number>();
/** Requests started and not ended: more than one while a call is parked. */
let unfinished = 0;
process.on('message', (message: Request | Inbound | Park | Drop) => {
  // An answer of the core's bridge is for the call that asked, not a request to queue.
  if ('kind' in message && message.kind === 'inbound') {
    receiveInbound(message);
    return;
  }
  if ('kind' in message && message.kind === 'park') {
    if (inLine?.id === message.id) inLine.park();
    // Said from the next turn of the event loop: what the call had to run on answers handed
    // over just before (promise reactions) has run by then, and it only waits.
    setImmediate(() => send?.({ parked: message.id, at: Date.now() } satisfies Parked));
    return;
  }
  if ('kind' in message && message.kind === 'drop') {
    if (inbox.some((request) => request.id === message.id)) dropped.add(message.id);
    return;
  }
  inbox.push(message);
  // A request sent ahead while another runs: calls overlap, and polling would only take a core.
  if (working) workOverlaps();
  else void work();
});
send({ ready: true } satisfies Ready);

async function work(): Promise<void> {
  working = true;
  for (let request = inbox.shift(); request && !ending; request = inbox.shift()) {
    const job = newJob(
      request.id,
      request.kind === 'call' ? request.unit : null,
      request.kind === 'call' ? request.hook : null,
    );
    const parked = new Promise<void>((park) => (inLine = { id: request.id, park }));
    await Promise.race([runAs(job, () => run(job, request)), parked]);
    inLine = null;
  }
  working = false;
}

/** One request as its job: its reply, sent once the event loop has turned after it, then the end of its job. */
async function run(job: Job, request: Request): Promise<void> {
  unfinished += 1;
  // A process that ends takes no further requests; the host sends them to its replacement.
  // Dropped by the host, or past the start bound it was sent with: this process decides, so a call
  // the host gave up on never runs, however late the host's word arrives.
  const late = request.startBy !== undefined && Date.now() > request.startBy;
  const reply: Reply =
    dropped.delete(request.id) || late
      ? { id: request.id, ok: false, failure: { code: 'SEC105', message: 'dropped: it could not start in time' } }
      : request.kind === 'import'
        ? await held.importing(() => handle(request))
        : await handle(request);
  // Beside a parked call, what the process holds is partly that call's work in progress.
  const over = held.over(unfinished > 1);
  // Its last reply: the process ends after it, and the host replaces it (replies.ts, endsWorker).
  ending = over !== null;
  if (over && 'failure' in over) {
    send?.({ id: request.id, ok: false, failure: over.failure } satisfies Reply, () => process.exit(1));
    return;
  }
  // One turn of the event loop before the reply and the next request: code the request left
  // running (an endless promise chain) holds the turn back, and the host replaces the process
  // instead of failing the next schema's call. Promise chains that end run out here, and a
  // network attempt they made, even one caught and ignored, fails this request rather than the
  // next. The note lets the host say, should the turn never come, that the request had returned.
  noteIfGiven(request.id);
  await new Promise((resolve) => setImmediate(resolve));
  const attempted = job.attempts > 0;
  job.ended = true;
  endBridgedRequests(job);
  unfinished -= 1;
  const answer: Reply = attempted
    ? { id: request.id, ok: false, failure: { code: 'SEC100', message: 'handler code tried to reach the network' } }
    : reply;
  if (over) {
    send?.({ ...answer, ends: over.ends }, () => process.exit(1));
    return;
  }
  send?.(answer);
  // With a request waiting in the inbox (sent ahead) the worker goes on to it; polling beside it
  // would only add turns of the event loop.
  // The worker's own polling, not the ended job's: its timers would never fire (timer-guard.ts).
  if (inbox.length === 0) outsideJobs(() => nextRequestPoll.extend(NEXT_REQUEST_POLL_MS));
}

async function handle(request: Request): Promise<Reply> {
  try {
    return await perform(request);
  } catch (error) {
    return { id: request.id, ok: false, failure: failureOf(error, request.kind === 'load' ? 'SEC104' : 'SEC107') };
  }
}

function perform(request: Request): Promise<Reply> {
  switch (request.kind) {
    case 'import':
      return importAll(request.id, request.libraries);
    case 'load':
      return load(request.id, request.unit);
    case 'call':
      return call(request.id, request.unit, request.route, request.hook, request.input);
  }
}

/** A library that fails to import is reported to each schema that needs it, at its load (SEC103). */
async function importAll(id: number, wanted: readonly LibraryModule[]): Promise<Reply> {
  for (const library of wanted) await importLibrary(library);
  return { id, ok: true, imported: true };
}

async function load(id: number, spec: UnitSpec): Promise<Reply> {
  const allowed: Record<string, unknown> = {};
  for (const library of spec.libraries) {
    const imported = await importLibrary(library);
    if ('error' in imported)
      return {
        id,
        ok: false,
        failure: { code: 'SEC103', message: `library '${library.name}' failed to load: ${imported.error}` },
      };
    allowed[library.name] = imported.value;
  }
  // The Compartment's globals are pure computation, nothing of the host; its `fetch` only asks
  // the core, and only while one of its executeRequest handlers runs (bridge-fetch.ts).
  const compartment = new Compartment({ globals: { ...globals, fetch: harden(fetchFor(spec.id)) }, __options__: true });
  const factory: unknown = compartment.evaluate(`'use strict';(${spec.source}\n)`);
  if (typeof factory !== 'function') throw shapeError('the handlers export is not a function');
  const made: unknown = factory(harden({ sharedLists: spec.sharedLists, libraries: allowed }));
  const handlers = readHandlers(made);
  units.set(spec.id, { handlers });
  const hooks: Record<string, Hook[]> = {};
  for (const [route, entry] of Object.entries(handlers)) hooks[route] = Object.keys(entry) as Hook[];
  return { id, ok: true, hooks, unknownRoutes: Object.keys(handlers).filter((route) => !spec.routes.includes(route)) };
}

/** The factory's result: `{ route: { preRequest?, executeRequest?, postRequest? } }` and nothing else (R7, R12). */
function readHandlers(made: unknown): Unit['handlers'] {
  if (!isObject(made) || typeof (made as { then?: unknown }).then === 'function') {
    throw shapeError('the handlers factory must return an object of routes (not a promise)');
  }
  const handlers: Unit['handlers'] = {};
  for (const [route, entry] of Object.entries(made)) {
    if (!isObject(entry)) throw shapeError(`handlers.${route} must be an object of hooks`);
    const hooks: Partial<Record<Hook, (input: unknown) => unknown>> = {};
    for (const [hook, fn] of Object.entries(entry)) {
      if (!HOOKS.has(hook))
        throw shapeError(`handlers.${route}.${hook}: hooks are preRequest, executeRequest and postRequest`);
      if (typeof fn !== 'function') throw shapeError(`handlers.${route}.${hook} must be a function`);
      hooks[hook as Hook] = fn as (input: unknown) => unknown;
    }
    handlers[route] = hooks;
  }
  return handlers;
}

async function call(id: number, unitId: string, route: string, hook: Hook, input: unknown): Promise<Reply> {
  const handler = units.get(unitId)?.handlers[route]?.[hook];
  if (!handler) throw shapeError(`no ${hook} handler for route '${route}'`);
  const result = await handler(input);
  // `{ response: undefined }` hands the answer on unchanged (as the reference does). JSON drops
  // the key, so it travels as `{}`, which the host reads as that; a bare `{}` is refused below.
  if (
    hook === 'postRequest' &&
    isObject(result) &&
    Object.keys(result).length === 1 &&
    Object.hasOwn(result, 'response') &&
    result.response === undefined
  ) {
    return { id, ok: true, json: '{}' };
  }
  // Serialised here, under the host's deadline: getters, toJSON and proxies run in the worker.
  // The shape is checked on what the host will receive, not on the live object.
  const json = serialise(hook, result);
  if (json === undefined) throw shapeError(`${hook} must return an object, got ${describe(result)}`);
  checkResult(hook, JSON.parse(json));
  return { id, ok: true, json };
}

function serialise(hook: Hook, result: unknown): string | undefined {
  try {
    return JSON.stringify(result);
  } catch (error) {
    throw shapeError(`${hook} returned something that is not JSON data (${messageOf(error)})`);
  }
}

/** What each hook returns (R7, R12): the keys it may return, and those of which it must return one. */
const RESULT_KEYS: Record<Hook, { allowed: string[]; oneOf: string[] }> = {
  preRequest: { allowed: ['struct', 'payload'], oneOf: ['struct'] },
  postRequest: { allowed: ['response'], oneOf: ['response'] },
  executeRequest: { allowed: ['struct', 'response'], oneOf: ['struct', 'response'] },
};

/** preRequest returns `{ struct }` or `{ struct, payload }`; executeRequest `{ struct }` or `{ response }`; postRequest `{ response }`. */
function checkResult(hook: Hook, result: unknown): void {
  const { allowed, oneOf } = RESULT_KEYS[hook];
  if (!isObject(result)) throw shapeError(`${hook} must return an object, got ${describe(result)}`);
  const keys = Object.keys(result);
  const extra = keys.filter((key) => !allowed.includes(key));
  if (extra.length > 0)
    throw shapeError(`${hook} returned unexpected key(s) ${extra.join(', ')}; expected ${allowed.join(' and ')}`);
  if (!oneOf.some((key) => key in result))
    throw shapeError(`${hook} must return ${oneOf.map((key) => `{ ${key} }`).join(' or ')}`);
  if (hook === 'executeRequest' && 'struct' in result && !isObject(result.struct))
    throw shapeError('executeRequest must return { struct } with struct an object');
  if (hook === 'preRequest' && !isObject((result as { struct: unknown }).struct))
    throw shapeError('preRequest must return { struct } with struct an object');
}
