// One tool call, as a fixed sequence of small steps (the way Fastify runs its hooks):
// arguments → request → preRequest → origin check → secrets → upstream override → HTTP →
// decode → postRequest → redaction. A route with executeRequest replaces origin check to decode
// with its handler, whose requests the core performs through the bridge (bridge.ts, R12). Each step either hands on or ends the call with a
// ToolError that says what went wrong in words a model can act on. Nothing here throws for bad
// input; exceptions are bugs.

import { brokenBound } from '../shared/raw.js';
import { HttpError, RefusedError, type HttpClient, type HttpResponse } from '../http/client.js';
import { decodeBody, type Decoded } from '../http/decode.js';
import { egressRefusal, restateLength } from '../http/egress.js';
import type { OriginRule } from '../http/origin.js';
import type { Reach } from '../http/reach.js';
import {
  buildRequest,
  illFormedInsert,
  insertedBytes,
  outgoingRequest,
  type RequestPlan,
  type RequestStruct,
} from '../http/request.js';
import type { Redactor } from '../http/redact.js';
import { SecretTokens, type SecretStore } from '../http/secrets.js';
import type { Upstreams } from '../http/upstreams.js';
import { stableTarget, targetOf, type RequestTarget } from '../http/stable-target.js';
import type { InputSchema } from '../schema/tool-input.js';
import type { Outcome } from '../sandbox/host.js';
import type { Bridge, Hook } from '../sandbox/protocol.js';
import { CallBridge, outboundRecord } from './bridge.js';
import {
  decodeMessage,
  fail,
  handlerFailure,
  internalFailure,
  rateLimited,
  redactedBody,
  statusFailure,
} from './failures.js';
import type { ExecuteRequestResult, PostRequestResult } from './hooks.js';
import type { UpstreamGuard } from '../guard/upstream-guard.js';
import type { CallOptions, CallResult, OutboundRecord, PipelineResult, SentRequest } from './outcome.js';

export interface CallableTool {
  name: string;
  reference: string;
  /** The route's name and the sandbox unit of its schema, for the handlers. */
  routeName: string;
  unit: string;
  input: InputSchema;
  plan: RequestPlan;
  origin: OriginRule;
  /** The route's handler hooks; null until its schema's handlers factory has run, when only running it can tell. */
  hooks: readonly Hook[] | null;
  /** The schema's namespace: keys may be granted to some namespaces only. */
  namespace: string;
  /** Keys this tool needs that are not granted to it: the tool is hidden and cannot be called. */
  missingKeys: readonly string[];
  /** Where executeRequest's requests may go, and where each key is bound (R12). */
  reach: Reach;
  /** Every key the schema declares: executeRequest gets each one's token in `serverParams`. */
  declaredKeys: readonly string[];
}

export interface HandlerRunner {
  /** Runs the tool's handlers factory, once for its schema: the route's hooks, or why its handlers could not load. */
  hooksOf(tool: CallableTool): Promise<Outcome<readonly Hook[]>>;
  preRequest(
    tool: CallableTool,
    struct: RequestStruct,
    payload: Record<string, unknown>,
  ): Promise<Outcome<{ struct: RequestStruct; payload: Record<string, unknown> }>>;
  postRequest(
    tool: CallableTool,
    input: { response: unknown; struct: RequestStruct; payload: Record<string, unknown> },
  ): Promise<Outcome<PostRequestResult>>;
  executeRequest(
    tool: CallableTool,
    input: { struct: Record<string, unknown>; payload: Record<string, unknown> },
    bridge: Bridge,
  ): Promise<Outcome<ExecuteRequestResult>>;
}

/** Bounds on a call's arguments, checked before anything walks them (decision R13). */
export interface ArgumentLimits {
  maxArgumentDepth: number;
  maxArgumentBytes: number;
}

export const DEFAULT_ARGUMENT_LIMITS: ArgumentLimits = Object.freeze({
  maxArgumentDepth: 64,
  maxArgumentBytes: 1_048_576,
});

export interface CallContext {
  limits: ArgumentLimits;
  http: HttpClient;
  secrets: SecretStore;
  redactor: Redactor;
  upstreams: Upstreams;
  handlers: HandlerRunner;
  /** Per-call bounds of executeRequest's requests (`network.maxRequestsPerCall`, `network.maxBytesPerCall`), and the private origins the operator listed. */
  bridge: { maxRequestsPerCall: number; maxBytesPerCall: number; privateOrigins: ReadonlySet<string> };
  /** Rate and concurrency limits and pauses per origin, around every outbound request (src/guard/). */
  guard: UpstreamGuard;
}

/**
 * Arguments that passed every check of a call (checkArguments), defaults applied: what the
 * response cache keys on. callTool takes them as they are instead of checking them again.
 */
export class CheckedArguments {
  constructor(readonly values: Record<string, unknown>) {}
}

/** The first steps of a call: keys present, arguments within bounds, valid, inserts that stay in place. */
export function checkArguments(
  context: CallContext,
  tool: CallableTool,
  args: unknown,
  options: CallOptions = {},
): CheckedArguments | CallResult {
  try {
    // A dry run shows the request and never a key, so it needs none (it marks where each goes).
    if (tool.missingKeys.length > 0 && !options.dryRun) {
      return fail(
        'missing-keys',
        `${tool.name} needs ${tool.missingKeys.join(', ')}, which the server has no value for`,
      );
    }
    const broken = brokenBound(args, {
      maxDepth: context.limits.maxArgumentDepth,
      maxBytes: context.limits.maxArgumentBytes,
    });
    if (broken === 'depth')
      return fail(
        'arguments',
        `invalid arguments: nested deeper than ${context.limits.maxArgumentDepth} levels (limits.maxArgumentDepth)`,
      );
    if (broken === 'size')
      return fail(
        'arguments',
        `invalid arguments: larger than ${context.limits.maxArgumentBytes} bytes (limits.maxArgumentBytes)`,
      );
    const checked = tool.input.check(args);
    if (!checked.ok) return fail('arguments', `invalid arguments: ${checked.error.map((p) => p.message).join('; ')}`);
    // URLs resolve `.` and `..` segments, even percent-encoded: such an insert would leave its place.
    const dotted = dottedInsert(tool.plan.inserts, checked.value);
    if (dotted !== undefined)
      return fail('arguments', `invalid arguments: '${dotted}' cannot be '.' or '..', which would change the path`);
    // A path segment is UTF-8: half of a surrogate pair has none, and encodeURIComponent throws on it.
    const illFormed = illFormedInsert(tool.plan.inserts, checked.value);
    if (illFormed !== undefined)
      return fail(
        'arguments',
        `invalid arguments: '${illFormed}' holds half of a surrogate pair, which is no Unicode text and cannot be sent in a URL`,
      );
    // Each use of a path argument writes it again (100 uses of 1 MB: a 300 MB URL); all count.
    const max = context.limits.maxArgumentBytes;
    if (insertedBytes(tool.plan.inserts, checked.value, max) > max)
      return fail('arguments', `invalid arguments: the path writes over ${max} bytes (limits.maxArgumentBytes)`);
    return new CheckedArguments(checked.value);
  } catch (error) {
    return internalFailure(tool, error);
  }
}

/** The first argument of a path segment of its own that is `.` or `..`; a loop, as it runs on every call. */
function dottedInsert(inserts: readonly string[], values: Record<string, unknown>): string | undefined {
  for (const key of inserts) if (values[key] === '.' || values[key] === '..') return key;
  return undefined;
}

/** A call of `tool`; `args` as the client sent them, or as checkArguments returned them. */
export async function callTool(
  context: CallContext,
  tool: CallableTool,
  args: unknown,
  options: CallOptions = {},
): Promise<PipelineResult> {
  let result: PipelineResult;
  // The core's own request, once sent (the bridge keeps executeRequest's).
  const sent: OutboundRecord[] = [];
  try {
    result = await runCall(context, tool, args, options, sent);
  } catch (error) {
    result = internalFailure(tool, error);
  }
  // Every result is a fresh object of this call: the records are added to it, not copied with it.
  if (sent.length > 0 && !('dryRun' in result)) (result as { requests?: OutboundRecord[] }).requests = sent;
  // Whatever leaves the core is redacted: results, echoes of the request, error messages.
  return context.redactor.redactValue(result);
}

async function runCall(
  context: CallContext,
  tool: CallableTool,
  args: unknown,
  options: CallOptions,
  outbound: OutboundRecord[],
): Promise<PipelineResult> {
  const checked = args instanceof CheckedArguments ? args : checkArguments(context, tool, args, options);
  if (!(checked instanceof CheckedArguments)) return checked;

  const tokens = new SecretTokens();
  let struct = buildRequest(tool.plan, checked.values, tokens);
  let payload = checked.values;
  let hooks = tool.hooks;
  if (hooks === null) {
    const loaded = await context.handlers.hooksOf(tool);
    if (!loaded.ok)
      return {
        ok: false,
        error: {
          kind: 'handler',
          code: loaded.failure.code,
          message: `handlers of ${tool.name} could not be loaded (${loaded.failure.code}): ${loaded.failure.message}`,
        },
      };
    hooks = loaded.value;
  }
  const preRequest = hooks.includes('preRequest');
  if (preRequest) {
    const pre = await context.handlers.preRequest(tool, struct, payload);
    if (!pre.ok) return handlerFailure('preRequest', pre.failure);
    ({ struct, payload } = pre.value);
  }
  if (hooks.includes('executeRequest'))
    return executeRequest(context, tool, { struct, args: checked.values, tokens, hooks }, options);
  // Keys are bound to the schema's origin: the request is refused below unless it still goes there.
  const outgoing = outgoingRequest(struct, !preRequest);
  const filled = tokens.fill(outgoing, tool.plan.slots, (key) => context.secrets.valueFor(key, tool.namespace));
  // Checked with the keys in (they are percent-encoded in the URL, so they cannot move it).
  // Without a preRequest the URL is the plan's own, which may be proved at load to need no parse.
  const stableOrigin = preRequest ? null : tool.plan.stableOrigin;
  const target = (stableOrigin !== null && stableTarget(filled.url, stableOrigin)) || parsedTarget(tool, filled.url);
  if (!target) return fail('origin', `the request left the schema's origin ${tool.origin.display}; refused`);
  // Routing headers are the core's, and the values of other schemas' keys stay home (egress.ts).
  const refused = egressRefusal(outgoing, target, context.redactor, (key) => tool.declaredKeys.includes(key));
  if (refused) return fail('origin', refused);
  restateLength(filled.headers, filled.body);
  const origin = target.origin;
  const routedTo = context.upstreams.routeTarget(target);
  if (options.dryRun) {
    const sent: SentRequest = { method: struct.method, ...filled, url: routedTo.href };
    return { ok: true, dryRun: markMissingKeys(sent, tool.missingKeys, tokens) };
  }

  let response: HttpResponse;
  const started = performance.now();
  try {
    // Messages and the guard name the schema's origin, not the address of an upstream override.
    response = await context.http.request(
      { method: struct.method, url: routedTo, headers: filled.headers, body: filled.body },
      { signal: options.signal, origin, guard: { by: context.guard, namespace: tool.namespace } },
    );
  } catch (error) {
    if (error instanceof RefusedError) return rateLimited(error.refusal);
    if (!(error instanceof HttpError)) throw error;
    outbound.push(outboundRecord(origin, struct.method, started, 0, 0, error.message));
    // The answer arrived but cannot be read: an unknown or broken Content-Encoding, or JSON past the nesting bound.
    if (error.kind === 'decode' || error.kind === 'too-deep')
      return fail('decode', `the answer could not be read: ${error.message}`);
    return fail('upstream-failure', `upstream request failed: ${error.message}`);
  }
  outbound.push(outboundRecord(origin, struct.method, started, response.status, response.body.length));
  if (response.status < 200 || response.status > 299) return statusFailure(response, context.redactor);

  const decoded = decodeBody(response.body, response.headers['content-type']);
  // The message quotes the body; made from a redacted copy, since a cut could split a key.
  if (decoded.kind === 'error')
    return fail(
      'decode',
      decodeMessage(redactedBody(response.body, context.redactor), response.headers['content-type']),
    );
  if (!hooks.includes('postRequest')) return answered(response, decoded);
  // Handlers never see a key, even one the upstream echoes (R4): every form of each key this
  // request carried is taken out of the answer first, before a handler could reverse or cut it.
  const planned = context.redactor.forKeysOf(tool.plan, ({ slots }) => [
    ...slots.url,
    ...slots.body,
    ...[...slots.headers.values()].flatMap((keys) => [...keys]),
  ]);
  const answer = planned.redactAnswer(decoded, response);
  const post = await context.handlers.postRequest(tool, { response: handlerView(answer), struct, payload });
  if (!post.ok) return handlerFailure('postRequest', post.failure);
  // `{ response: undefined }` hands the answer on as a route without postRequest would.
  if ('passThrough' in post.value) return answered(response, decoded);
  return answered(response, { kind: 'json', value: post.value.response });
}

/** The request's URL parsed, when it stays on the tool's origin; null when it does not. */
function parsedTarget(tool: CallableTool, url: string): RequestTarget | null {
  const parsed = tool.origin.parse(url);
  return parsed === null ? null : targetOf(parsed);
}

/** A successful call's result, with the upstream's Cache-Control for the response cache. */
function answered(response: HttpResponse, content: Decoded): PipelineResult {
  const cacheControl = response.headers['cache-control'];
  return cacheControl === undefined
    ? { ok: true, status: response.status, content }
    : { ok: true, status: response.status, content, cacheControl: [cacheControl] };
}

/**
 * The handler makes the request (R12): it gets the request as the core would send it, keys as
 * this call's tokens, and a `fetch` that the core performs (bridge.ts). postRequest, if the route
 * has one, reshapes its data as it would an upstream answer.
 */
async function executeRequest(
  context: CallContext,
  tool: CallableTool,
  {
    struct,
    args,
    tokens,
    hooks,
  }: { struct: RequestStruct; args: Record<string, unknown>; tokens: SecretTokens; hooks: readonly Hook[] },
  options: CallOptions,
): Promise<PipelineResult> {
  const bridge = new CallBridge(
    {
      ...context.bridge,
      http: context.http,
      upstreams: context.upstreams,
      secrets: context.secrets,
      redactor: context.redactor,
      guard: context.guard,
    },
    { namespace: tool.namespace, reach: tool.reach, keys: tool.declaredKeys, tokens, signal: options.signal },
  );
  const payload = {
    url: struct.url,
    method: struct.method,
    headers: struct.headers,
    body: struct.body,
    // `_allParams` as the reference hands it over; handlers of the corpus read it.
    userParams: { ...args, _allParams: args },
    serverParams: Object.fromEntries(tool.declaredKeys.map((key) => [key, tokens.token(key)])),
  };
  const executed = await context.handlers.executeRequest(
    tool,
    { struct: { ...struct, status: true, messages: [], data: null }, payload },
    (request, callEnded, cancelled) => bridge.perform(request, callEnded, cancelled),
  );
  const requests = bridge.requests;
  // A handler that failed after a request was held back for a limit or pause most likely failed for that: say when to retry.
  if (bridge.rateLimit && (!executed.ok || 'failed' in executed.value))
    return { ...rateLimited(bridge.rateLimit), requests };
  if (!executed.ok) return { ...handlerFailure('executeRequest', executed.failure), requests };
  if ('failed' in executed.value) {
    return {
      ok: false,
      error: {
        kind: 'handler',
        message: `executeRequest reported a failure: ${executed.value.failed.join('; ') || 'no message'}`,
      },
      requests,
    };
  }
  let data = executed.value.data;
  if (hooks.includes('postRequest')) {
    const post = await context.handlers.postRequest(tool, { response: data, struct, payload: args });
    if (!post.ok) return { ...handlerFailure('postRequest', post.failure), requests };
    if (!('passThrough' in post.value)) data = post.value.response;
  }
  const content: Decoded = typeof data === 'string' ? { kind: 'text', value: data } : { kind: 'json', value: data };
  return bridge.cacheControl.length > 0
    ? { ok: true, status: 200, content, requests, cacheControl: bridge.cacheControl }
    : { ok: true, status: 200, content, requests };
}

/** What postRequest receives as `response`: parsed JSON, text, or the base64 of binary data. */
function handlerView(decoded: Decoded): unknown {
  switch (decoded.kind) {
    case 'json':
    case 'text':
      return decoded.value;
    case 'image':
    case 'binary':
      return decoded.base64;
    case 'empty':
      return null;
  }
}

/** A dry run's request with each key that has no value shown as `[KEY not set]` where its token stands. */
function markMissingKeys(sent: SentRequest, missing: readonly string[], tokens: SecretTokens): SentRequest {
  if (missing.length === 0) return sent;
  const mark = (text: string) =>
    missing.reduce((marked, key) => marked.split(tokens.token(key)).join(`[${key} not set]`), text);
  const marked: SentRequest = {
    ...sent,
    url: mark(sent.url),
    headers: Object.fromEntries(Object.entries(sent.headers).map(([name, value]) => [name, mark(value)])),
  };
  if (sent.body !== undefined) marked.body = mark(sent.body);
  return marked;
}
