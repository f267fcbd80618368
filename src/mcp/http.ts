// MCP over Streamable HTTP on node:http, bound to 127.0.0.1 by default: the endpoint `/mcp`, and
// `/mcp/<group>` for each group given (endpoints.ts). Every endpoint goes through the one request
// pipeline below: Host, Origin, token, body cap; its sessions are its own (a session id opened at
// one endpoint is unknown at another); calls are counted in the one /metrics and audited alike.
//
// - Origin: a request that carries an `Origin` header must name an allowed origin, or it gets
//   403 before anything else happens (browsers send it; DNS-rebinding pages cannot forge it).
//   Patterns are exact origins or `scheme://host:*` (any port); the default allows only
//   `http://localhost:*` and `http://127.0.0.1:*`. Allowed browser origins get CORS headers.
// - Stateless by default: every POST gets a server and transport of its own (the SDK's stateless
//   pattern), closed with the response; GET and DELETE are 405. A call is aborted when its
//   connection closes. The answer is plain JSON, or an event stream when a progress token asks
//   for notifications. With `sessions: true`, `initialize` opens a session (`Mcp-Session-Id`),
//   later requests reuse its server, `notifications/cancelled` reaches the running call, and
//   DELETE ends it; sessions are bounded in number (over all endpoints) and closed when idle. A session belongs
//   to the bearer token and the endpoint that opened it: with any other token, or at another
//   endpoint, its id is unknown (404).
// - Bodies are read up to a cap (413 beyond it); invalid JSON is a JSON-RPC parse error.
// - More than one `Host` line is a 400, on every path (RFC 9112).
// - Who may call (auth.ts): every path but the health endpoints needs a `Host` header naming this
//   server (403 otherwise), and with tokens set, `Authorization: Bearer <token>` (401 with a
//   `WWW-Authenticate` challenge otherwise). `/healthz` and `/readyz` (health.ts) answer anyone;
//   `/metrics` (Prometheus text, src/observe/metrics.ts) takes the same token as the endpoint.

import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { LiveCatalog } from './live-catalog.js';
import type { ServedCatalog as Catalog } from './served-catalog.js';
import { ServerMetrics } from '../observe/metrics.js';
import { AccessGate, BEARER_REALM, presentedIdentity, type TokenCheck } from './auth.js';
import { answerHealth } from './health.js';
import { DEFAULT_ALLOWED_ORIGINS, DEFAULT_HOST, DEFAULT_PATH, DEFAULT_PORT, originMatches, parseOriginPattern } from './origins.js';
import { createMcpServer, notifyToolChanges, type McpServerOptions } from './server.js';
import { EndpointTable, type Endpoint, type GroupEndpoint } from './endpoints.js';

export type { GroupEndpoint } from './endpoints.js';
export { DEFAULT_ALLOWED_ORIGINS, DEFAULT_HOST, DEFAULT_PATH, DEFAULT_PORT, OriginPatternError, parseOriginPattern } from './origins.js';

export interface HttpServeOptions extends McpServerOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  path?: string;
  /** Origins a request with an `Origin` header may come from: exact, or `scheme://host:*`. */
  allowedOrigins?: readonly string[];
  /** Keep a server per session instead of one per request. */
  sessions?: boolean;
  maxSessions?: number;
  sessionIdleMs?: number;
  /** Largest request body, in bytes. */
  maxBodyBytes?: number;
  /** Allowed `Host` names and bearer tokens; default: only the bound host's names, no token (loopback binds only). */
  access?: AccessGate;
  /** What `/metrics` shows; the server feeds it every finished call. Default: metrics of its own. */
  metrics?: ServerMetrics;
  /** `/mcp/<name>` endpoints besides `/mcp`: verified groups, and refused ones (a 404 saying why). */
  groups?: readonly GroupEndpoint[];
}

export interface McpHttpServer {
  /** `http://host:port/mcp` */
  url: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

interface Session {
  server: McpServer;
  transport: StreamableHTTPServerTransport;
  /** SHA-256 of the bearer token that opened it (auth.ts presentedIdentity): only that token may use or end it. */
  owner: Buffer;
  /** The path of the endpoint that opened it: only there is it known. */
  endpoint: string;
  idle?: NodeJS.Timeout;
}

const CORS_ALLOW_HEADERS = 'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id';
const CORS_EXPOSE_HEADERS = 'mcp-session-id, mcp-protocol-version, www-authenticate';
const METRICS_PATH = '/metrics';
/** Longest line the server logs about one failed request. */
const MAX_LOGGED_CHARS = 4000;

/** `source`: a catalog, or a holder whose catalog is read afresh per request (`serve --watch` swaps it). */
export async function startHttpServer(source: Catalog | LiveCatalog, options: HttpServeOptions = {}): Promise<McpHttpServer> {
  const catalog = LiveCatalog.of(source);
  const host = options.host ?? DEFAULT_HOST;
  const path = options.path ?? DEFAULT_PATH;
  const origins = (options.allowedOrigins ?? DEFAULT_ALLOWED_ORIGINS).map(parseOriginPattern);
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const maxSessions = options.maxSessions ?? 100;
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const gate = options.access ?? AccessGate.create({ host });
  const metrics = options.metrics ?? new ServerMetrics();
  const stopCounting = countCalls(catalog, metrics);
  const serverOptions: McpServerOptions = { ...options, metrics };
  const sessions = new Map<string, Session>();
  const open = new Set<McpServer>();
  const endpoints = new EndpointTable(path, options.groups ?? []);

  const newServer = (endpoint: Endpoint): McpServer => {
    const server = createMcpServer(catalog, { ...serverOptions, ...endpoint.serving });
    // An SDK error can quote what the client sent: redacted, then cut, so a line stays small.
    server.onerror = (error) => log(catalog.current.redact(`flowguard: http: ${error.message}`).slice(0, MAX_LOGGED_CHARS));
    open.add(server);
    const stopNotifying = notifyToolChanges(catalog, server);
    server.onclose = () => {
      stopNotifying();
      open.delete(server);
    };
    return server;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // RFC 9112 §3.2: a request with more than one Host line is a 400. Node keeps only the first in
    // req.headers, so the check below would judge a name the proxy in front may not have used.
    if (hostLines(req.rawHeaders) > 1) return sendJson(res, 400, rpcError(-32000, 'Bad Request: more than one Host header'));
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (answerHealth(url.pathname, req, res, catalog.current)) return;
    if (!gate.hostAllowed(req.headers.host)) {
      const shown = (req.headers.host ?? '(none)').slice(0, 200);
      return sendJson(res, 403, rpcError(-32000, `Forbidden: the Host header ${shown} does not name this server (start it with --allow-host, or list the name in http.allowedHosts)`));
    }
    if (url.pathname === METRICS_PATH) {
      if (!admitted(req, res)) return;
      catalog.current.deliverCallRecords();
      const { contentType, text } = await metrics.scrape();
      res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' }).end(text);
      return;
    }
    if (!endpoints.claims(url.pathname)) return sendJson(res, 404, { error: `not found; the MCP endpoint is ${path}` });
    const origin = req.headers.origin;
    if (origin !== undefined) {
      if (!origins.some((pattern) => originMatches(pattern, origin))) {
        return sendJson(res, 403, rpcError(-32000, `Forbidden: origin ${origin.slice(0, 200)} is not allowed (start the server with --allow-origin to allow it)`));
      }
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Vary', 'Origin');
      res.setHeader('Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS);
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'Access-Control-Allow-Methods': options.sessions ? 'GET, POST, DELETE, OPTIONS' : 'POST, OPTIONS',
        'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS,
        'Access-Control-Max-Age': '600',
      });
      res.end();
      return;
    }
    if (!admitted(req, res)) return;
    // Which group a path names (and why one is not served) is told only to a client admitted.
    const match = endpoints.match(url.pathname);
    if ('missing' in match) return sendJson(res, 404, rpcError(-32000, match.missing));
    const endpoint = match.found;

    if (!options.sessions) {
      if (req.method !== 'POST') {
        res.setHeader('Allow', 'POST, OPTIONS');
        return sendJson(res, 405, rpcError(-32000, 'Method not allowed: this server is stateless; send JSON-RPC messages with POST'));
      }
      const body = await readJson(req, res, maxBody);
      if (body === NO_BODY) return;
      const server = newServer(endpoint);
      // A plain JSON answer is cheaper than an event stream; a stream only where a progress
      // token asks for notifications along the way.
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !asksForProgress(body) });
      // The response closing (answered, or the client went away) ends this server; a call still
      // running is aborted with it.
      res.on('close', () => void server.close().catch(() => undefined));
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
      return;
    }

    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = sessions.get(id);
      // A session belongs to the token that opened it: to any other it does not exist (404, as the
      // MCP transport answers an unknown session), so that a session id alone is worth nothing.
      if (!session || session.endpoint !== endpoint.path || !sameIdentity(session.owner, presentedIdentity(req.headers.authorization))) return sendJson(res, 404, rpcError(-32001, 'Session not found; initialize a new session'));
      touch(session);
      const body = req.method === 'POST' ? await readJson(req, res, maxBody) : undefined;
      if (body === NO_BODY) return;
      await session.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST') return sendJson(res, 400, rpcError(-32000, 'Bad Request: no Mcp-Session-Id header'));
    const body = await readJson(req, res, maxBody);
    if (body === NO_BODY) return;
    const initializing = Array.isArray(body) ? body.some((message) => isInitializeRequest(message)) : isInitializeRequest(body);
    if (!initializing) return sendJson(res, 400, rpcError(-32000, 'Bad Request: no Mcp-Session-Id header; send initialize first'));
    if (sessions.size >= maxSessions) return sendJson(res, 503, rpcError(-32000, `Too many sessions (${maxSessions}); close one or try again later`));
    const server = newServer(endpoint);
    const session: Session = {
      server,
      owner: presentedIdentity(req.headers.authorization),
      endpoint: endpoint.path,
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => {
          sessions.set(sessionId, session);
          touch(session);
        },
      }),
    };
    session.transport.onclose = () => {
      if (session.idle) clearTimeout(session.idle);
      if (session.transport.sessionId) sessions.delete(session.transport.sessionId);
    };
    await server.connect(session.transport);
    await session.transport.handleRequest(req, res, body);
  };

  /** The request's bearer token is accepted; otherwise a 401 with the challenge has been sent. */
  const admitted = (req: IncomingMessage, res: ServerResponse): boolean => {
    const check = gate.checkToken(req.headers.authorization);
    if (check === 'accepted') return true;
    res.setHeader('WWW-Authenticate', check === 'invalid' ? `${BEARER_REALM}, error="invalid_token"` : BEARER_REALM);
    sendJson(res, 401, rpcError(-32000, TOKEN_REFUSALS[check]));
    return false;
  };

  const touch = (session: Session) => {
    if (session.idle) clearTimeout(session.idle);
    session.idle = setTimeout(() => void session.server.close().catch(() => undefined), idleMs);
    session.idle.unref();
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(catalog.current.redact(`flowguard: http: ${(error as Error)?.stack ?? String(error)}`).slice(0, MAX_LOGGED_CHARS));
      if (!res.headersSent) sendJson(res, 500, rpcError(-32603, 'Internal server error'));
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? DEFAULT_PORT, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const { port } = http.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | null = null;
  return {
    url: `http://${shownHost}:${port}${path}`,
    host,
    port,
    close: () => {
      closing ??= (async () => {
        stopCounting();
        await Promise.all([...open].map((server) => server.close().catch(() => undefined)));
        await new Promise<void>((resolve) => {
          http.close(() => resolve());
          http.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}

const NO_BODY = Symbol('no body');

const TOKEN_REFUSALS: Record<Exclude<TokenCheck, 'accepted'>, string> = {
  missing: 'Unauthorized: this server needs a bearer token (Authorization: Bearer <token>)',
  invalid: 'Unauthorized: the bearer token is not valid',
};

/**
 * Feeds every finished call into `metrics`: of the catalog served now and of each one a reload
 * swaps in. A catalog swapped out keeps its listener, so its calls still running are counted;
 * the listener goes with the catalog. Returns the stop.
 */
function countCalls(live: LiveCatalog, metrics: ServerMetrics): () => void {
  let catalog = live.current;
  let stop = catalog.onCall((record) => metrics.record(record));
  const stopFollowing = live.onToolsChanged(() => {
    if (live.current === catalog) return;
    catalog = live.current;
    stop = catalog.onCall((record) => metrics.record(record));
  });
  return () => {
    stopFollowing();
    stop();
  };
}

/** How many `Host` lines a request carried, as they arrived. */
function hostLines(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let at = 0; at < rawHeaders.length; at += 2) if ((rawHeaders[at] as string).toLowerCase() === 'host') count += 1;
  return count;
}

function sameIdentity(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

function asksForProgress(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((message) => {
    const params = (message as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params;
    return params?._meta?.progressToken !== undefined;
  });
}

/** The parsed body, or NO_BODY once an error response has been sent. */
async function readJson(req: IncomingMessage, res: ServerResponse, max: number): Promise<unknown> {
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
    sendJson(res, 400, rpcError(-32700, 'Parse error: the body is not valid JSON'));
    return NO_BODY;
  }
}

function rpcError(code: number, message: string) {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

