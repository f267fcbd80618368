// One HTTP exchange between node:http and the SDK's web-standard Streamable HTTP transport
// (`Request` in, `Response` out), for the sessions of sessions.ts. They use that transport rather
// than the SDK's node:http wrapper because a session taken over from another replica must be
// brought to where the initialize request left it, and only the web-standard transport can be
// handed a request that no socket carried (the initialize replayed from the shared record).
//
// The body has already been read and parsed by http.ts (bounded there), so the `Request` carries
// none: the transport is given it as `parsedBody`. A streamed answer (SSE) is written as it comes,
// and the stream is cancelled when the client goes away.

import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

/** Hands `req` (with its parsed body) to `transport` and writes its answer to `res`. */
export async function exchange(
  transport: WebStandardStreamableHTTPServerTransport,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
): Promise<void> {
  const request = new Request(new URL(req.url ?? '/', 'http://localhost'), {
    method: req.method,
    headers: webHeaders(req.headers),
  });
  const response = await transport.handleRequest(request, { parsedBody: body });
  await writeResponse(response, req, res);
}

function webHeaders(headers: IncomingHttpHeaders): Headers {
  const web = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) web.append(name, one);
  }
  return web;
}

async function writeResponse(response: Response, req: IncomingMessage, res: ServerResponse): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) {
    res.end();
    return;
  }
  // A GET stream may stay quiet for long (it waits for notifications): its client needs the
  // headers now. A POST's stream sends them with its first event instead (the result, or a
  // progress notification), so that a replica that dies before it answered has sent nothing,
  // and a load balancer can still send the request to another (HAProxy's retry-on empty-response).
  if (req.method === 'GET') res.flushHeaders();
  const reader = response.body.getReader();
  const gone = new Promise<void>((resolve) => res.once('close', resolve));
  void gone.then(() => reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // Backpressure: a slow client holds the stream, not this process's memory.
      if (!res.write(value)) await Promise.race([new Promise((resolve) => res.once('drain', resolve)), gone]);
    }
  } finally {
    res.end();
  }
}
