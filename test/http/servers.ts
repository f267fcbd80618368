// Real loopback HTTP and HTTPS servers for the client tests.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface TestServer {
  server: Server | HttpsServer;
  port: number;
  origin: string;
  /** TCP connections accepted so far. */
  connections: () => number;
  /** Requests received so far. */
  hits: () => number;
  close: () => Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

export async function startServer(handler: Handler): Promise<TestServer> {
  let connections = 0;
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handler(req, res, Buffer.concat(chunks)));
  });
  server.on('connection', () => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    port,
    origin: `http://127.0.0.1:${port}`,
    connections: () => connections,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls `check` every 10 ms until it holds or `ms` pass; returns whether it held. */
export async function waitFor(check: () => boolean, ms = 2_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return check();
}

/** A port nothing listens on: bind one, then close it. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const TLS_FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'tls');

/**
 * An HTTPS server on 127.0.0.1 with the committed self-signed test certificate, standing in for
 * an internal service: `connections()` counts every TCP connection it accepts, so a test can
 * show that a refused request never reached it. Clients do not trust the certificate, so a
 * request that does reach it fails its TLS handshake after connecting.
 */
export async function startTlsServer(): Promise<TestServer> {
  let connections = 0;
  let hits = 0;
  const server = createHttpsServer({ key: readFileSync(join(TLS_FIXTURES, 'key.pem')), cert: readFileSync(join(TLS_FIXTURES, 'cert.pem')) }, (_req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'text/plain' }).end('internal service');
  });
  server.on('connection', () => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    port,
    origin: `https://127.0.0.1:${port}`,
    connections: () => connections,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
