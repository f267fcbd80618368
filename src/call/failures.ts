// How a call that failed says so: the ToolError of an upstream status (its body's excerpt with keys
// redacted), a handler's failure, a rate limit the upstream guard applied, and a bug inside flowguard.

import type { Code } from '../report/codes.js';
import { decodeBody, excerpt } from '../http/decode.js';
import type { HttpResponse } from '../http/client.js';
import type { Redactor } from '../http/redact.js';
import type { Hook } from '../sandbox/protocol.js';
import type { Refusal } from '../guard/upstream-guard.js';
import type { CallResult, ToolError, ToolErrorKind } from './outcome.js';
import type { CallableTool } from './pipeline.js';

/** Keys are redacted from the whole body before an excerpt is cut, so no part of one survives. */
export function redactedBody(body: Buffer, redactor: Redactor): Buffer {
  const text = body.toString('utf8');
  const redacted = redactor.redact(text);
  return redacted === text ? body : Buffer.from(redacted);
}

export function decodeMessage(body: Buffer, contentType: string | undefined): string {
  const decoded = decodeBody(body, contentType);
  return decoded.kind === 'error' ? decoded.message : 'the answer could not be decoded';
}

/** A request the upstream guard did not send: the call answers at once, saying when to try again. */
export function rateLimited(refusal: Refusal): { ok: false; error: ToolError } {
  return {
    ok: false,
    error: { kind: 'rate-limited', message: refusal.message, retryAfter: String(refusal.retryAfterSeconds) },
  };
}

export function statusFailure(response: HttpResponse, redactor: Redactor): CallResult {
  const error: ToolError = {
    kind: 'upstream-status',
    status: response.status,
    message: `upstream answered ${response.status}${response.body.length > 0 ? `: ${excerpt(redactedBody(response.body, redactor))}` : ''}`,
  };
  // Passed on where waiting helps (a rate limit, or an outage that says when it ends): the pause
  // the upstream guard put in force on this answer, in whole seconds, never the header's own text
  // (unbounded, or a date, or anything an upstream writes).
  const paused = response.pausedSeconds;
  if ((response.status === 429 || response.status === 503) && paused !== undefined) {
    error.retryAfter = String(paused);
    error.message += ` (retry after ${paused} s)`;
  }
  return { ok: false, error };
}

export function handlerFailure(hook: Hook, failure: { code: Code; message: string }): CallResult {
  return {
    ok: false,
    error: {
      kind: 'handler',
      code: failure.code,
      message: `${hook} handler failed (${failure.code}): ${failure.message}`,
    },
  };
}

/** A bug, not bad input: it fails this call only, and the server goes on. */
export function internalFailure(tool: CallableTool, error: unknown): CallResult {
  return fail('internal', `internal error in ${tool.name}: ${error instanceof Error ? error.message : String(error)}`);
}

export function fail(kind: ToolErrorKind, message: string): CallResult {
  return { ok: false, error: { kind, message } };
}
