// A catalog call's outcome as an MCP `tools/call` result (decision R9).
//
// - JSON → one text item, pretty-printed; text → one text item. Text longer than the cap is cut
//   with a notice that says so and how to ask for less.
// - Images → an image item; other binary data → a text note and an embedded base64 resource.
//   Data whose base64 is longer than the cap is left out, and a note says so.
// - Where the tool has an output schema, a JSON object that matches it also goes out as
//   `structuredContent`. A result that does not match (or was cut) is never sent as
//   `structuredContent`. What it becomes is the operator's choice (`output.validate`): under
//   `error` it goes out as text with a note, marked `isError`, since MCP requires every
//   successful result of a tool that advertises an `outputSchema` to carry matching structured
//   content (the SDK client rejects one that does not); under `warn` and `off` the tool
//   advertises no `outputSchema` (server.ts) and the answer goes out as plain text, `warn`
//   telling `onMismatch`. The model reads the whole answer either way.
// - Failures → `isError: true` and a text that says what went wrong and what to do about it.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolError } from '../call/outcome.js';
import type { Decoded } from '../call/outcome.js';
import { isRecord } from '../shared/raw.js';
import type { OutputValidation } from '../shared/output-validation.js';
import type { OutputValidator } from '../schema/tool-output.js';

export const DEFAULT_MAX_RESULT_CHARS = 100_000;

/** `_meta` keys of a result, under the server's own prefix. */
const META_STATUS = 'flowguard/status';
const META_ERROR = 'flowguard/error';
const META_CUT = 'flowguard/cut';

export interface ResultContext {
  /** The tool's MCP name (names the embedded resource of binary results). */
  name: string;
  /** The validator of the tool's output schema, if it has one. */
  output?: OutputValidator;
  /** `output.validate`: what a result that does not match becomes; default `error`. */
  validation?: OutputValidation;
  /** Hears why a result did not match, under `warn`. */
  onMismatch?: (why: string) => void;
  /** Largest text item, and largest base64 data item, in characters. */
  maxChars: number;
}

export function successResult(context: ResultContext, status: number, content: Decoded): CallToolResult {
  const meta: Record<string, unknown> = { [META_STATUS]: status };
  switch (content.kind) {
    case 'json':
      return jsonResult(context, meta, content.value);
    case 'text':
      return checked(
        context,
        meta,
        textOf(context, meta, content.value),
        'the API answered with text, not a JSON object',
      );
    case 'image':
      return checked(
        context,
        meta,
        dataResult(context, 'image', content.mimeType, content.base64),
        `the API answered with an image (${content.mimeType}), not a JSON object`,
      );
    case 'binary':
      return checked(
        context,
        meta,
        dataResult(context, 'binary', content.mimeType, content.base64),
        `the API answered with binary data (${content.mimeType}), not a JSON object`,
      );
    case 'empty':
      return checked(
        context,
        meta,
        [{ type: 'text', text: `The API answered with status ${status} and an empty body.` }],
        'the API answered with an empty body',
      );
  }
}

function jsonResult(context: ResultContext, meta: Record<string, unknown>, value: unknown): CallToolResult {
  const full = JSON.stringify(value, null, 2) ?? 'null';
  const items = textOf(context, meta, full);
  if (!context.output) return { content: items, _meta: meta };
  if (meta[META_CUT] !== undefined) {
    // Not the API departing from the schema: under warn and off a cut answer is plain text, uncounted.
    if ((context.validation ?? 'error') !== 'error') return { content: items, _meta: meta };
    return mismatch(
      context,
      items,
      meta,
      `the result is longer than the cap of ${context.maxChars} characters, so it was cut and cannot be sent as structured content`,
    );
  }
  if (!isRecord(value))
    return mismatch(
      context,
      items,
      meta,
      `the API answered with ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`}, not a JSON object`,
    );
  const problem = context.output.problem(value);
  if (problem !== undefined) return mismatch(context, items, meta, `at ${problem}`);
  return { content: items, structuredContent: value, _meta: meta };
}

/** Non-JSON answers of a tool that promises a JSON object cannot match its output schema. */
function checked(
  context: ResultContext,
  meta: Record<string, unknown>,
  items: CallToolResult['content'],
  why: string,
): CallToolResult {
  return context.output ? mismatch(context, items, meta, why) : { content: items, _meta: meta };
}

function mismatch(
  context: ResultContext,
  items: CallToolResult['content'],
  meta: Record<string, unknown>,
  why: string,
): CallToolResult {
  const validation = context.validation ?? 'error';
  if (validation !== 'error') {
    if (validation === 'warn') context.onMismatch?.(why);
    return { content: items, _meta: meta };
  }
  const note = `Note: this answer does not match the tool's declared output schema (${why}). It is sent as text only and marked as an error for that reason; the data below is what the API returned.`;
  return {
    content: [{ type: 'text', text: note }, ...items],
    isError: true,
    _meta: { ...meta, [META_ERROR]: { kind: 'output-mismatch', message: why } },
  };
}

function textOf(context: ResultContext, meta: Record<string, unknown>, text: string): CallToolResult['content'] {
  if (text.length <= context.maxChars) return [{ type: 'text', text }];
  let end = context.maxChars;
  // Never split a surrogate pair.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  meta[META_CUT] = { shown: end, total: text.length };
  const notice = `[flowguard: result cut here. It has ${text.length} characters; only the first ${end} are shown (the server's cap is ${context.maxChars}). Ask for less, e.g. with a smaller limit, a narrower filter or a shorter period.]`;
  return [{ type: 'text', text: `${text.slice(0, end)}\n\n${notice}` }];
}

function dataResult(
  context: ResultContext,
  kind: 'image' | 'binary',
  mimeType: string,
  base64: string,
): CallToolResult['content'] {
  const bytes = Buffer.byteLength(base64, 'base64');
  const what = kind === 'image' ? `an image (${mimeType}, ${bytes} bytes)` : `${bytes} bytes of ${mimeType} data`;
  if (base64.length > context.maxChars) {
    return [
      {
        type: 'text',
        text: `The API answered with ${what}. As base64 it has ${base64.length} characters, more than the server's cap of ${context.maxChars}, so it is not included.`,
      },
    ];
  }
  if (kind === 'image') return [{ type: 'image', data: base64, mimeType }];
  return [
    { type: 'text', text: `The API answered with ${what}; it follows as an embedded base64 resource.` },
    {
      type: 'resource',
      resource: { uri: `flowguard:result/${encodeURIComponent(context.name)}`, mimeType, blob: base64 },
    },
  ];
}

/** A failed call: what went wrong (kind, message, status, retry-after) and what to do. */
export function errorResult(error: ToolError): CallToolResult {
  const head = error.status === undefined ? `Error (${error.kind})` : `Error (${error.kind}, status ${error.status})`;
  const lines = [`${head}: ${error.message}`];
  if (error.retryAfter !== undefined) lines.push(`Retry after: ${error.retryAfter}`);
  lines.push(`What to do: ${advice(error)}`);
  const detail: Record<string, unknown> = { kind: error.kind };
  if (error.status !== undefined) detail.status = error.status;
  if (error.retryAfter !== undefined) detail.retryAfter = error.retryAfter;
  if (error.code !== undefined) detail.code = error.code;
  return { content: [{ type: 'text', text: lines.join('\n') }], isError: true, _meta: { [META_ERROR]: detail } };
}

function advice(error: ToolError): string {
  switch (error.kind) {
    case 'arguments':
      return "correct the arguments so they match the tool's inputSchema, then call again.";
    case 'missing-keys':
      return 'none from the client: the server operator has to grant the key (the project .env, or security.keys in .flowmcp/config.json) and restart; until then the tool cannot be used.';
    case 'handler':
      return "the tool's own handler code failed. Other arguments may work; otherwise use another tool. Calling again with the same arguments will fail the same way.";
    case 'origin':
      return 'the tool tried to send its request outside its API and was stopped. The tool is faulty; use another one.';
    case 'rate-limited':
      return `nothing was sent: this server holds requests to the API back (its rate limit, or a pause the API asked for). Wait ${error.retryAfter ?? 'a few'} seconds, then call again.`;
    case 'upstream-status':
      return statusAdvice(error.status ?? 0, error.retryAfter);
    case 'upstream-failure':
      return 'the API could not be reached, did not answer in time, or its answer broke a limit of this server (the message says which). Use another tool, or tell the operator if it persists.';
    case 'decode':
      return "the API's answer could not be read (the message says why); calling again will most likely get the same answer. Use another tool.";
    case 'unknown-tool':
      return 'use a tool named in tools/list.';
    case 'internal':
      return 'the server failed on its side; this is a bug in flowguard, not in the arguments. Use another tool, and tell the operator.';
  }
}

function statusAdvice(status: number, retryAfter: string | undefined): string {
  if (status === 429)
    return `the API is rate limiting: wait ${retryAfter === undefined ? 'a while' : `${retryAfter} s`}, then call again.`;
  if (status === 401 || status === 403)
    return "the API refused access. The server's key may be wrong or lack permission; the operator has to fix it, calling again will not help.";
  if (status === 404)
    return 'the API found nothing there. Check identifiers in the arguments (ids, names, addresses), then call again.';
  if (status >= 400 && status < 500)
    return 'the API rejected the request. Check the arguments against the tool description, then call again.';
  // Waiting is advised only where the API says it helps: a 429, or a 503 that the guard paused for.
  if (status === 503 && retryAfter !== undefined)
    return `the API is unavailable for now: wait ${retryAfter} s, then call again.`;
  if (status >= 500) return 'the API failed on its side. Use another tool, or tell the operator if it persists.';
  return 'the API answered with an unexpected status. Use another tool.';
}
