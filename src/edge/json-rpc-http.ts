// Reading and answering JSON-RPC over HTTP for the request pipeline of http.ts: a body read up to its
// cap (413 beyond it, a parse error for what is not JSON), error bodies, JSON answers, and the
// request facts the pipeline decides on (its Host lines, whether it asks for progress).

import type { IncomingMessage, ServerResponse } from 'node:http';

/** What readJson returns once it has answered the request itself (413 or a parse error). */
export const NO_BODY = Symbol('no body');

/** How many `Host` lines a request carried, as they arrived. */
export function hostLines(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let at = 0; at < rawHeaders.length; at += 2) if ((rawHeaders[at] as string).toLowerCase() === 'host') count += 1;
  return count;
}

/** Whether any message of the body carries a progress token: it is then answered as an event stream. */
export function asksForProgress(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((message) => {
    const params = (message as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params;
    return params?._meta?.progressToken !== undefined;
  });
}

/** The parsed body, or NO_BODY once an error response has been sent. */
export async function readJson(req: IncomingMessage, res: ServerResponse, max: number): Promise<unknown> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) {
    res.setHeader('Connection', 'close');
    sendJson(res, 413, rpcError(-32000, `Request body larger than ${max} bytes`));
    return NO_BODY;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) {
      res.setHeader('Connection', 'close');
      sendJson(res, 413, rpcError(-32000, `Request body larger than ${max} bytes`));
      return NO_BODY;
    }
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    // JSON.parse throws only on a body that is no JSON: the client is told (-32700).
    sendJson(res, 400, rpcError(-32700, 'Parse error: the body is not valid JSON'));
    return NO_BODY;
  }
}

export function rpcError(code: number, message: string) {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
