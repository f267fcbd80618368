// The handler contract of decision R7 and R12, enforced on the host side of the sandbox:
// preRequest may change the request's url, headers and body, never its method; executeRequest
// answers `{ struct }` (status, messages, data) or `{ response }`; postRequest hands back a
// response. The worker has already checked the outer shape; this checks what the host relies on.

import { isRecord } from '../shared/raw.js';
import type { Outcome, SandboxHost } from '../sandbox/host.js';

/** Whatever runs a unit's hooks: the sandbox host, or the catalog's units that start it on first use. */
export type HookRunner = Pick<SandboxHost, 'runHook'>;
import type { Bridge } from '../sandbox/protocol.js';
import type { RequestStruct } from '../http/request.js';
import type { HttpMethod } from '../schema/types.js';

export type { RequestStruct };

export interface PreRequestResult {
  struct: RequestStruct;
  payload: Record<string, unknown>;
}

export async function runPreRequest(
  sandbox: HookRunner,
  unit: string,
  route: string,
  struct: RequestStruct,
  payload: Record<string, unknown>,
): Promise<Outcome<PreRequestResult>> {
  const outcome = await sandbox.runHook(unit, route, 'preRequest', { struct, payload });
  if (!outcome.ok) return outcome;
  // The worker checked the shape already; the host relies on it only after looking again.
  if (!isRecord(outcome.value) || !isRecord(outcome.value.struct))
    return { ok: false, failure: { code: 'SEC101', message: 'preRequest must return { struct }' } };
  const result = outcome.value as { struct: Record<string, unknown>; payload?: unknown };
  const problem = structProblem(result.struct, struct.method);
  if (problem) return { ok: false, failure: { code: 'SEC101', message: `preRequest ${problem}` } };
  const nextPayload = result.payload === undefined ? payload : result.payload;
  if (!isRecord(nextPayload))
    return { ok: false, failure: { code: 'SEC101', message: 'preRequest returned a payload that is not an object' } };
  return { ok: true, value: { struct: result.struct as unknown as RequestStruct, payload: nextPayload } };
}

/** A new response, or `{ response: undefined }`: the answer goes on as it came (as in the reference). */
export type PostRequestResult = { response: unknown } | { passThrough: true };

export async function runPostRequest(
  sandbox: HookRunner,
  unit: string,
  route: string,
  input: { response: unknown; struct: RequestStruct; payload: Record<string, unknown> },
): Promise<Outcome<PostRequestResult>> {
  const outcome = await sandbox.runHook(unit, route, 'postRequest', input);
  if (!outcome.ok) return outcome;
  if (!isRecord(outcome.value))
    return { ok: false, failure: { code: 'SEC101', message: 'postRequest must return { response }' } };
  // JSON has no undefined: the worker sends `{ response: undefined }` as `{}`, having checked
  // that the handler did write the key (a bare `{}` is SEC101 there).
  if (!('response' in outcome.value)) return { ok: true, value: { passThrough: true } };
  return { ok: true, value: { response: outcome.value.response } };
}

/** What executeRequest produced: the data of the call, or the handler's own failure with its messages. */
export type ExecuteRequestResult = { data: unknown } | { failed: string[] };

export async function runExecuteRequest(
  sandbox: HookRunner,
  unit: string,
  route: string,
  input: { struct: Record<string, unknown>; payload: Record<string, unknown> },
  bridge: Bridge,
): Promise<Outcome<ExecuteRequestResult>> {
  const outcome = await sandbox.runHook(unit, route, 'executeRequest', input, bridge);
  if (!outcome.ok) return outcome;
  const result = outcome.value;
  if (isRecord(result) && 'response' in result) return { ok: true, value: { data: result.response } };
  if (!isRecord(result) || !isRecord(result.struct))
    return { ok: false, failure: { code: 'SEC101', message: 'executeRequest must return { struct } or { response }' } };
  const { status, messages, data } = result.struct;
  if (status === false) {
    const said = Array.isArray(messages)
      ? messages.map((message) => (typeof message === 'string' ? message : JSON.stringify(message)))
      : [];
    return { ok: true, value: { failed: said } };
  }
  return { ok: true, value: { data: data ?? null } };
}

const STRUCT_KEYS = new Set(['url', 'method', 'headers', 'body']);

function structProblem(struct: Record<string, unknown>, method: HttpMethod): string | null {
  const extra = Object.keys(struct).filter((key) => !STRUCT_KEYS.has(key));
  if (extra.length > 0) return `added ${extra.join(', ')} to struct; it may change url, headers and body`;
  // JSON text, not String(): the sandbox's data may be an object whose toString is no function.
  if (struct.method !== method)
    return `changed the method from ${method} to ${JSON.stringify(struct.method)}; only url, headers and body may change`;
  if (typeof struct.url !== 'string') return 'left struct.url without a string';
  if (!isRecord(struct.headers) || !Object.values(struct.headers).every((value) => typeof value === 'string')) {
    return 'left struct.headers that are not an object of strings';
  }
  if (struct.body !== null && typeof struct.body !== 'string' && typeof struct.body !== 'object')
    return 'left a struct.body that is neither null, text nor JSON';
  return null;
}
