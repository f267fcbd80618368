// Real parts for the MCP tests: a loopback upstream that plays every API of the fixture catalog
// (test/fixtures/mcp/schemas), and SDK clients connected over real transports: a spawned
// `flowguard serve --transport stdio`, and Streamable HTTP (in-process server or spawned).

import { spawn, type ChildProcess } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Catalog } from '../../src/runtime/catalog.js';
import { startHttpServer, type HttpServeOptions, type McpHttpServer } from '../../src/edge/http.js';
import { connectSpawned, type McpConnection as Connection } from '../kit/mcp.js';
import { BIN, ROOT } from '../kit/spawn.js';
import { startUpstream, type Recorded, type Upstream } from '../support/upstream.js';

// The kit's connection, HTTP client and paths, under the names these tests have always used.
export { BIN, ROOT };
export { connectHttp, type McpConnection as Connection } from '../kit/mcp.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'mcp');
export const SCHEMAS = join(FIXTURES, 'schemas');
export const PROJECT = join(FIXTURES, 'project');

/** A 1×1 transparent PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
export const PDF = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');
export const README_TEXT = 'MediaHub serves charts, documents and dumps.\n';

export const WIDGET = {
  id: 'w-1',
  name: 'Sprocket',
  price: null,
  colour: 'red',
  tags: ['small', 'metal'],
  updatedAt: '2025-03-01T12:00:00Z',
  homepage: 'https://openwidgets.io/w-1',
};

export interface CatalogUpstream extends Upstream {
  /** Requests to the hanging route that arrived, and those whose connection has since closed. */
  slow: { arrived: number; closed: number };
}

/** The APIs of the fixture catalog on one loopback upstream (paths as the upstream override maps them). */
export async function startCatalogUpstream(): Promise<CatalogUpstream> {
  const slow = { arrived: 0, closed: 0 };
  return Object.assign(await startUpstream((_req, res, entry) => route(entry, res, slow)), { slow });
}

function route(req: Recorded, res: ServerResponse, slow: CatalogUpstream['slow']): void {
  const url = new URL(req.url, 'http://upstream');
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const path = url.pathname;
  let match: RegExpExecArray | null;
  if (path === '/v2/widgets' && req.method === 'GET') {
    const limit = Number(url.searchParams.get('limit') ?? '10');
    return json(
      200,
      Array.from({ length: limit }, (_, i) => ({ id: `w-${i + 1}` })),
    );
  }
  if (path === '/v2/widgets' && req.method === 'POST')
    return json(201, { id: 'w-99', ...(JSON.parse(req.body) as object) });
  if ((match = /^\/v2\/widgets\/([^/]+)$/.exec(path))) {
    if (req.method === 'GET') return json(200, { ...WIDGET, id: decodeURIComponent(match[1] as string) });
    if (req.method === 'PUT') return json(200, { id: match[1], ...(JSON.parse(req.body) as object) });
    if (req.method === 'DELETE') return json(200, { deleted: match[1] });
  }
  if (path.startsWith('/v2/slow/')) {
    // `ms-N` answers after N ms; anything else never answers, and the connection closing (the
    // caller gave up) is counted.
    const delay = /^\/v2\/slow\/ms-(\d+)$/.exec(path);
    if (delay) return void setTimeout(() => json(200, { built: true }), Number(delay[1]));
    slow.arrived += 1;
    res.on('close', () => {
      slow.closed += 1;
    });
    return;
  }
  if (path === '/v2/fail') {
    const mode = url.searchParams.get('mode');
    if (mode === 'busy') return json(429, { error: 'slow down' }, { 'retry-after': '7' });
    if (mode === 'missing') return json(404, { error: 'no such factory' });
    return json(500, { error: 'database on fire' });
  }
  if (path.startsWith('/v2/stats/')) return json(200, { views: 'many' });
  if (path === '/v1/chart.png') {
    res.writeHead(200, { 'content-type': 'image/png' });
    return void res.end(PNG);
  }
  if (path === '/v1/readme.txt') {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    return void res.end(README_TEXT);
  }
  if (path === '/v1/report.pdf') {
    res.writeHead(200, { 'content-type': 'application/pdf' });
    return void res.end(PDF);
  }
  if (path === '/v1/dump') {
    const rows = Number(url.searchParams.get('rows') ?? '10');
    return json(200, { rows: Array.from({ length: rows }, (_, i) => ({ id: i, label: `row number ${i}` })) });
  }
  if (path === '/v1/colours') return json(200, ['red', 'green', 'blue']);
  if (path === '/v1/cache' && req.method === 'DELETE') {
    res.writeHead(204);
    return void res.end();
  }
  json(404, { error: `no route ${req.method} ${path}` });
}

export function serveArgs(upstream: CatalogUpstream, extra: string[] = []): string[] {
  return [BIN, 'serve', '--schemas', SCHEMAS, '--project', PROJECT, '--upstream', `*=${upstream.origin}`, ...extra];
}

/** A spawned `flowguard serve --transport stdio`, with an environment that holds no keys. */
export function connectStdio(
  upstream: CatalogUpstream,
  args = serveArgs(upstream, ['--transport', 'stdio']),
): Promise<Connection> {
  return connectSpawned(args);
}

export interface HttpFixture {
  catalog: Catalog;
  server: McpHttpServer;
  close(): Promise<void>;
}

/** The fixture catalog served over Streamable HTTP in this process, on a free port. */
export async function startHttpFixture(
  upstream: CatalogUpstream,
  options: HttpServeOptions = {},
): Promise<HttpFixture> {
  const catalog = await loadFixtureCatalog(upstream);
  const server = await startHttpServer(catalog, { port: 0, log: () => undefined, ...options });
  return {
    catalog,
    server,
    close: async () => {
      await server.close();
      await catalog.close();
    },
  };
}

export function loadFixtureCatalog(upstream: CatalogUpstream): Promise<Catalog> {
  return Catalog.load({ schemas: SCHEMAS, project: PROJECT, env: {}, upstreams: { '*': upstream.origin } });
}

/** A spawned `flowguard serve` with its stderr collected. */
export interface Spawned {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** `env`: variables besides PATH (the server's environment holds nothing else). */
export function spawnServe(args: string[], env: Record<string, string> = {}): Spawned {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stderr: () => stderr, exited };
}
