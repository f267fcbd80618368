// The one loopback upstream of the test suites: a real HTTP (or HTTPS) server on 127.0.0.1 and a
// port of its own, standing for whatever API a suite's schemas call (through an `upstreams`
// override, so nothing leaves the machine). It records every request as it arrived and counts
// connections and requests, so a test can show what flowguard sent, and that a refused request
// never reached it. What the fake API answers is each suite's own handler.

import { readFileSync } from 'node:fs';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** A request as the upstream received it: what tests compare with what they expect sent. */
export interface Recorded {
  method: string;
  /** The request target exactly as received: raw path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The body as UTF-8 text. */
  body: string;
}

export interface RecordEntry extends Recorded {
  /** The body's bytes exactly as they arrived. */
  bytes: Buffer;
  /** Set when the connection closed before the answer was complete (the client hung up). */
  closed: boolean;
  /** Name, value, name, value, ... as they arrived: `headers` keeps one of two content-types. */
  rawHeaders: string[];
}

/** Answers one request; called once its body has arrived, with its entry already recorded. */
export type Handler = (req: IncomingMessage, res: ServerResponse, entry: RecordEntry) => void;

export interface Upstream {
  /** The node server, for a suite that listens to more of it (upgrades). */
  server: Server;
  port: number;
  /** `http://127.0.0.1:<port>`, or `https://` for a TLS upstream. */
  origin: string;
  /** Every request whose body arrived, in order. */
  records: RecordEntry[];
  /** The requests received since `mark` (a `records.length` taken before), as sent. */
  since(mark: number): Recorded[];
  /** TCP connections accepted so far. */
  connections(): number;
  /** Requests received so far, counted when they arrive (before their body). */
  hits(): number;
  /** Closes every connection, idle or not, and the server. */
  close(): Promise<void>;
}

/** The default answer: 200 with the request as JSON (`{ method, url, headers, body }`). */
export function echo(_req: IncomingMessage, res: ServerResponse, entry: RecordEntry): void {
  const { method, url, headers, body } = entry;
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method, url, headers, body }));
}

const TLS_FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'tls');

export interface UpstreamOptions {
  /**
   * Serve HTTPS with the committed self-signed test certificate (test/fixtures/tls). Clients do
   * not trust it, so a request that does reach this upstream fails its TLS handshake after
   * connecting: `connections()` still counts it.
   */
  tls?: boolean;
}

export async function startUpstream(handler: Handler = echo, options: UpstreamOptions = {}): Promise<Upstream> {
  const records: RecordEntry[] = [];
  let connections = 0;
  let hits = 0;
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    hits++;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const bytes = Buffer.concat(chunks);
      const entry: RecordEntry = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: bytes.toString('utf8'),
        bytes,
        closed: false,
        rawHeaders: req.rawHeaders,
      };
      res.once('close', () => {
        if (!res.writableEnded) entry.closed = true;
      });
      records.push(entry);
      handler(req, res, entry);
    });
  };
  const server: Server = options.tls
    ? createHttpsServer(
        { key: readFileSync(join(TLS_FIXTURES, 'key.pem')), cert: readFileSync(join(TLS_FIXTURES, 'cert.pem')) },
        onRequest,
      )
    : createServer(onRequest);
  server.on('connection', () => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    port,
    origin: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    records,
    since: (mark) => records.slice(mark).map(({ method, url, headers, body }) => ({ method, url, headers, body })),
    connections: () => connections,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: bind one, then close it. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
