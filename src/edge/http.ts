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
//   endpoint, its id is unknown (404). With shared session records (Redis), a session opened at
//   another replica continues here (sessions.ts).
// - Bodies are read up to a cap (413 beyond it); invalid JSON is a JSON-RPC parse error.
// - More than one `Host` line is a 400, on every path (RFC 9112).
// - Who may call (auth.ts, admission.ts): every path but the health endpoints needs a `Host` header naming this
//   server (403 otherwise), and with tokens set, `Authorization: Bearer <token>` (401 with a
//   `WWW-Authenticate` challenge otherwise). `/healthz` and `/readyz` (health.ts) answer anyone;
//   `/metrics` (Prometheus text, src/observe/metrics.ts) takes the same token as the endpoint,
//   and where identities are configured, one of an identity that sees every tool.
// - With OAuth (src/access/), the Protected Resource Metadata answers anyone at
//   `/.well-known/oauth-protected-resource` (and its path-scoped forms); an access token admits
//   its caller, and the caller's identity narrows what the servers made for it list and call. A
//   session then belongs to the caller's subject and client, so that a refreshed token continues it.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { LiveCatalog } from '../mcp/live-catalog.js';
import type { ServedCatalog as Catalog } from '../mcp/served-catalog.js';
import { ServerMetrics } from '../observe/metrics.js';
import { logLine, terminalText } from '../shared/terminal-text.js';
import type { SessionRecords } from '../state/shared-state.js';
import type { Caller } from '../access/caller.js';
import { Identities } from '../access/identities.js';
import type { ResourceServer } from '../access/resource.js';
import type { OAuthPrepared } from '../access/setup.js';
import { admitRequest, sessionOwner, type RequestAdmission } from './admission.js';
import { AccessGate } from './auth.js';
import { answerHealth } from './health.js';
import {
  DEFAULT_ALLOWED_ORIGINS,
  DEFAULT_HOST,
  DEFAULT_PATH,
  DEFAULT_PORT,
  originMatches,
  parseOriginPattern,
} from './origins.js';
import { createMcpServer, notifyToolChanges, type McpServerOptions } from '../mcp/server.js';
import { EndpointTable, type Endpoint, type GroupEndpoint } from './endpoints.js';
import { SessionTable } from './sessions.js';
import { asksForProgress, hostLines, NO_BODY, readJson, rpcError, sendJson } from './json-rpc-http.js';

export type { GroupEndpoint } from './endpoints.js';
export { DEFAULT_ALLOWED_ORIGINS } from './origins.js';

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
  /** With `sessions`: records shared by replicas, so that any of them continues a session (sessions.ts). */
  sessionRecords?: SessionRecords | null;
  /** OAuth access tokens verified for this server's resource (default resource: the URL `/mcp` is served at). */
  oauth?: OAuthPrepared;
  /** What each caller may list and call (`identities` of the config); default none: every caller all. */
  identities?: Identities;
}

export interface McpHttpServer {
  /** `http://host:port/mcp` */
  url: string;
  /** The OAuth resource URL tokens must be issued for, where OAuth is on. */
  resource?: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

const CORS_ALLOW_HEADERS = 'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id';
const CORS_EXPOSE_HEADERS = 'mcp-session-id, mcp-protocol-version, www-authenticate';
const METRICS_PATH = '/metrics';
/** Longest line the server logs about one failed request. */
const MAX_LOGGED_CHARS = 4000;

/** `source`: a catalog, or a holder whose catalog is read afresh per request (`serve --watch` swaps it). */
export async function startHttpServer(
  source: Catalog | LiveCatalog,
  options: HttpServeOptions = {},
): Promise<McpHttpServer> {
  const catalog = LiveCatalog.of(source);
  const host = options.host ?? DEFAULT_HOST;
  const path = options.path ?? DEFAULT_PATH;
  const origins = (options.allowedOrigins ?? DEFAULT_ALLOWED_ORIGINS).map((pattern) => parseOriginPattern(pattern));
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const maxSessions = options.maxSessions ?? 100;
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const gate = options.access ?? AccessGate.create({ host });
  const metrics = options.metrics ?? new ServerMetrics();
  const stopCounting = countCalls(catalog, metrics);
  const serverOptions: McpServerOptions = { ...options, metrics };
  const open = new Set<McpServer>();
  const endpoints = new EndpointTable(path, options.groups ?? []);
  const identities = options.identities ?? Identities.none();
  // Made once the server listens: the default resource is the URL it serves `/mcp` at.
  const oauth: { server?: ResourceServer } = {};
  // Why the issuer could not be used is logged once while it lasts, not once per anonymous request.
  let unreachedLogged: string | undefined;

  const newServer = (endpoint: Endpoint, caller: Caller | undefined): McpServer => {
    const policy = caller?.identity === undefined ? undefined : identities.policy(caller.identity);
    const server = createMcpServer(catalog, {
      ...serverOptions,
      ...endpoint.serving,
      caller,
      policy,
      discovery: policy?.discovery ?? endpoint.serving.discovery ?? serverOptions.discovery,
    });
    // An SDK error can quote what the client sent: redacted, escaped (nothing in it acts on a
    // terminal, and its line breaks start no forged line), then cut, so a line stays small.
    server.onerror = (error) =>
      log(logLine(catalog.current.redact(`flowguard: http: ${error.message}`)).slice(0, MAX_LOGGED_CHARS));
    open.add(server);
    const stopNotifying = notifyToolChanges(catalog, server);
    server.onclose = () => {
      stopNotifying();
      open.delete(server);
    };
    return server;
  };
  const sessions = new SessionTable({
    max: maxSessions,
    idleMs,
    records: options.sessionRecords ?? null,
    newServer,
    log,
  });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // RFC 9112 §3.2: a request with more than one Host line is a 400. Node keeps only the first in
    // req.headers, so the check below would judge a name the proxy in front may not have used.
    if (hostLines(req.rawHeaders) > 1)
      return sendJson(res, 400, rpcError(-32000, 'Bad Request: more than one Host header'));
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (answerHealth(url.pathname, req, res, catalog.current)) return;
    if (!gate.hostAllowed(req.headers.host)) {
      const shown = (req.headers.host ?? '(none)').slice(0, 200);
      return sendJson(
        res,
        403,
        rpcError(
          -32000,
          `Forbidden: the Host header ${shown} does not name this server (start it with --allow-host, or list the name in http.allowedHosts)`,
        ),
      );
    }
    if (oauth.server?.servesMetadataAt(url.pathname)) return answerMetadata(req, res, oauth.server);
    if (url.pathname === METRICS_PATH) {
      const admission = await admit(req, res);
      if (!admission) return;
      // The scrape names every tool called and every caller: an identity that sees only some tools does not read it (promise 13).
      const policy =
        admission.caller?.identity === undefined ? undefined : identities.policy(admission.caller.identity);
      if (policy && policy.select(catalog.current.tools).length < catalog.current.tools.length)
        return sendJson(
          res,
          403,
          rpcError(
            -32000,
            `Forbidden: /metrics names every tool and caller; identity ${policy.name} sees only some tools`,
          ),
        );
      catalog.current.deliverCallRecords();
      const { contentType, text } = await metrics.scrape();
      res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' }).end(text);
      return;
    }
    if (!endpoints.claims(url.pathname)) return sendJson(res, 404, { error: `not found; the MCP endpoint is ${path}` });
    const origin = req.headers.origin;
    if (origin !== undefined) {
      if (!origins.some((pattern) => originMatches(pattern, origin))) {
        return sendJson(
          res,
          403,
          rpcError(
            -32000,
            `Forbidden: origin ${origin.slice(0, 200)} is not allowed (start the server with --allow-origin to allow it)`,
          ),
        );
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
    const admission = await admit(req, res);
    if (!admission) return;
    const caller = admission.caller;
    // Which group a path names (and why one is not served) is told only to a client admitted.
    const match = endpoints.match(url.pathname);
    if ('missing' in match) return sendJson(res, 404, rpcError(-32000, match.missing));
    const endpoint = match.found;

    if (!options.sessions) {
      if (req.method !== 'POST') {
        res.setHeader('Allow', 'POST, OPTIONS');
        return sendJson(
          res,
          405,
          rpcError(-32000, 'Method not allowed: this server is stateless; send JSON-RPC messages with POST'),
        );
      }
      const body = await readJson(req, res, maxBody);
      if (body === NO_BODY) return;
      const server = newServer(endpoint, caller);
      // A plain JSON answer is cheaper than an event stream; a stream only where a progress
      // token asks for notifications along the way.
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: !asksForProgress(body),
      });
      // The response closing (answered, or the client went away) ends this server; a call still
      // running is aborted with it.
      res.on('close', () => void server.close().catch(() => undefined));
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
      return;
    }

    // With OAuth a session is its caller's (subject and client), so that a refreshed token continues it.
    const owner = sessionOwner(req.headers.authorization, caller);
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const body = req.method === 'POST' ? await readJson(req, res, maxBody) : undefined;
      if (body === NO_BODY) return;
      // A session belongs to the token that opened it: to any other it does not exist (404, as the
      // MCP transport answers an unknown session), so that a session id alone is worth nothing.
      const outcome = await sessions.handle(id, req, res, body, endpoint, owner, caller);
      if (outcome === 'missing')
        return sendJson(res, 404, rpcError(-32001, 'Session not found; initialize a new session'));
      return;
    }
    if (req.method !== 'POST') return sendJson(res, 400, rpcError(-32000, 'Bad Request: no Mcp-Session-Id header'));
    const body = await readJson(req, res, maxBody);
    if (body === NO_BODY) return;
    const initializing = Array.isArray(body)
      ? body.some((message) => isInitializeRequest(message))
      : isInitializeRequest(body);
    if (!initializing)
      return sendJson(res, 400, rpcError(-32000, 'Bad Request: no Mcp-Session-Id header; send initialize first'));
    await sessions.open(req, res, body, endpoint, owner, caller);
  };

  /** The request's caller admitted (admission.ts); otherwise its 401 or 403 with the challenge has been sent, and null is returned. */
  const admit = async (
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<(RequestAdmission & { ok: true }) | null> => {
    const admission = await admitRequest(req.headers.authorization, gate, identities, oauth.server);
    if (admission.ok) {
      unreachedLogged = undefined;
      return admission;
    }
    if (admission.detail !== undefined && admission.detail !== unreachedLogged) {
      unreachedLogged = admission.detail;
      log(catalog.current.redact(`flowguard: oauth: ${admission.detail}`).slice(0, MAX_LOGGED_CHARS));
    }
    res.setHeader('WWW-Authenticate', admission.challenge);
    sendJson(res, admission.status, rpcError(-32000, admission.message));
    return null;
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(
        terminalText(catalog.current.redact(`flowguard: http: ${(error as Error)?.stack ?? String(error)}`)).slice(
          0,
          MAX_LOGGED_CHARS,
        ),
      );
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
  oauth.server = options.oauth?.serverFor(options.oauth.resource ?? `http://${shownHost}:${port}${path}`);

  let closing: Promise<void> | null = null;
  return {
    url: `http://${shownHost}:${port}${path}`,
    resource: oauth.server?.resource,
    host,
    port,
    close: () => {
      closing ??= (async () => {
        stopCounting();
        await sessions.close();
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

/** The Protected Resource Metadata: public, and readable from any origin (a browser client discovers the server with it). */
function answerMetadata(req: IncomingMessage, res: ServerResponse, server: ResourceServer): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  if (req.method === 'OPTIONS') {
    res
      .writeHead(204, {
        'Access-Control-Allow-Methods': 'GET, OPTIONS',
        'Access-Control-Allow-Headers': 'mcp-protocol-version',
      })
      .end();
    return;
  }
  if (req.method !== 'GET') {
    res.setHeader('Allow', 'GET, OPTIONS');
    return sendJson(res, 405, { error: 'the metadata is read with GET' });
  }
  res.setHeader('Cache-Control', 'max-age=300');
  sendJson(res, 200, server.metadata());
}

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
