// The health endpoints of the Streamable HTTP server, for load balancers and orchestrators.
// They need no token and no allowed Host (probes come from the platform, under whatever name it
// uses) and say nothing but the state:
//
// - `/healthz`: the process answers (200).
// - `/readyz`: 200 when the catalog is loaded and the sandbox can run handlers, 503 otherwise.
//   The sandbox starts with the first call that needs a handler (src/catalog/handler-units.ts),
//   and a probe does not start it: a server whose handler tools are never called never pays for
//   it. So the sandbox counts as up when no schema has handlers, when it has not been needed
//   yet, or when every worker process is running and ready; while one is starting or being
//   started again (after a crash, a missed deadline, or a start that failed) the server is not
//   ready. `sandbox.loadHandlers: "at-load"` starts it, and runs every factory, before the
//   server listens.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxState } from '../catalog/handler-units.js';
import type { ServedCatalog as Catalog } from '../mcp/served-catalog.js';

const HEALTH_PATH = '/healthz';
const READY_PATH = '/readyz';

/** Answers `/healthz` and `/readyz`; false for any other path. */
export function answerHealth(pathname: string, req: IncomingMessage, res: ServerResponse, catalog: Catalog): boolean {
  if (pathname !== HEALTH_PATH && pathname !== READY_PATH) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return true;
  }
  const body = pathname === HEALTH_PATH ? { status: 'ok' } : readiness(catalog);
  const text = JSON.stringify(body);
  res.writeHead(body.status === 'ok' || body.status === 'ready' ? 200 : 503, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(req.method === 'HEAD' ? undefined : text);
  return true;
}

/** `/readyz`'s body: not ready only while a sandbox worker is starting. */
function readiness(catalog: Catalog): { status: 'ready' | 'not ready'; catalog: 'loaded'; sandbox: SandboxState } {
  const sandbox = catalog.sandboxState();
  return { status: sandbox === 'starting' ? 'not ready' : 'ready', catalog: 'loaded', sandbox };
}
