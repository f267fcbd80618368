// /healthz, /readyz and /metrics of the Streamable HTTP server, scraped and parsed after real
// calls through the SDK client to a loopback upstream, with the sandbox started by the first
// handler call (sandbox.loadHandlers on-first-call) and its worker process killed.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { startHttpServer, type McpHttpServer } from '../../src/edge/http.js';
import { MAX_ORIGINS, ServerMetrics } from '../../src/observe/metrics.js';
import { tempProject } from '../kit/project.js';
import { connectHttp, SCHEMAS, startCatalogUpstream, type CatalogUpstream, type Connection } from '../mcp/helpers.js';
import { parseMetrics, rawRequest, sandboxWorkers } from './helpers.js';
import { waitFor } from '../support/wait.js';

const SCHEMA_ORIGIN = 'https://api.openwidgets.io';

let upstream: CatalogUpstream;
let project: ReturnType<typeof tempProject>;
let catalog: Catalog;
let server: McpHttpServer;
let client: Connection;
let base: string;
const metrics = new ServerMetrics();

beforeAll(async () => {
  upstream = await startCatalogUpstream();
  // Read-only answers are kept a minute, so that a repeated call is a cache hit.
  project = tempProject({
    config: { sandbox: { workers: 1, deadlineMs: 2000, loadHandlers: 'on-first-call' }, cache: { ttlSeconds: 60 } },
  });
  catalog = await Catalog.load({
    schemas: SCHEMAS,
    project: project.dir,
    env: {},
    upstreams: { '*': upstream.origin },
    sandbox: { onEvent: (event) => metrics.sandboxEvent(event) },
  });
  server = await startHttpServer(catalog, { port: 0, log: () => undefined, metrics });
  base = server.url.replace(/\/mcp$/, '');
  client = await connectHttp(server.url);
});
afterAll(async () => {
  await client?.close();
  await server?.close();
  await catalog?.close();
  await upstream?.close();
  project?.remove();
});

async function scrape(): Promise<Map<string, number>> {
  const answer = await rawRequest(`${base}/metrics`);
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toContain('text/plain; version=0.0.4');
  return parseMetrics(answer.body);
}

async function readiness(): Promise<{ status: number; body: { status: string; sandbox: string } }> {
  const answer = await rawRequest(`${base}/readyz`);
  return { status: answer.status, body: JSON.parse(answer.body) };
}

describe('health endpoints', () => {
  it('/healthz answers 200 while the process runs; HEAD too; other methods 405', async () => {
    const answer = await rawRequest(`${base}/healthz`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ status: 'ok' });
    expect((await rawRequest(`${base}/healthz`, { method: 'HEAD' })).status).toBe(200);
    expect((await rawRequest(`${base}/readyz`, { method: 'POST' })).status).toBe(405);
  });

  it('/readyz is 200 once loaded, before any handler is needed: a probe does not start the sandbox', async () => {
    const ready = await readiness();
    expect(ready).toEqual({ status: 200, body: { status: 'ready', catalog: 'loaded', sandbox: 'not-started' } });
    expect(sandboxWorkers()).toEqual([]);
  });
});

describe('metrics after real calls', () => {
  it('counts calls by tool and outcome, their latency, and upstream answers by status class', async () => {
    const before = await scrape();
    for (const id of ['w-1', 'w-2'])
      expect((await client.client.callTool({ name: 'widgets_getWidget', arguments: { id } })).isError).toBeFalsy();
    expect(
      (await client.client.callTool({ name: 'widgets_getWidgetHealth', arguments: { mode: 'missing' } })).isError,
    ).toBe(true);
    expect(
      (await client.client.callTool({ name: 'widgets_getWidgetHealth', arguments: { mode: 'crash' } })).isError,
    ).toBe(true);
    // A bad argument reaches no upstream.
    expect((await client.client.callTool({ name: 'widgets_getWidget', arguments: { id: '' } })).isError).toBe(true);
    const after = await scrape();
    const moved = (sample: string) => (after.get(sample) ?? 0) - (before.get(sample) ?? 0);
    expect(moved('flowguard_tool_calls_total{tool="widgets_getWidget",outcome="ok"}')).toBe(2);
    expect(moved('flowguard_tool_calls_total{tool="widgets_getWidget",outcome="arguments"}')).toBe(1);
    expect(moved('flowguard_tool_calls_total{tool="widgets_getWidgetHealth",outcome="upstream-status"}')).toBe(2);
    expect(moved('flowguard_tool_call_duration_seconds_count')).toBe(5);
    expect(moved('flowguard_tool_call_duration_seconds_bucket{le="+Inf"}')).toBe(5);
    expect(moved(`flowguard_upstream_responses_total{origin="${SCHEMA_ORIGIN}",class="2xx"}`)).toBe(2);
    expect(moved(`flowguard_upstream_responses_total{origin="${SCHEMA_ORIGIN}",class="4xx"}`)).toBe(1);
    expect(moved(`flowguard_upstream_responses_total{origin="${SCHEMA_ORIGIN}",class="5xx"}`)).toBe(1);
    expect(after.get('flowguard_tool_calls_in_flight')).toBe(0);
    // Every read-only call with valid arguments looks in the cache: the two failures too (errors are not kept).
    expect(moved('flowguard_cache_requests_total{result="miss"}')).toBe(4);
  });

  it('counts a repeated read-only call as a cache hit that reaches no upstream', async () => {
    const before = await scrape();
    for (let round = 0; round < 2; round++)
      expect(
        (await client.client.callTool({ name: 'widgets_getWidget', arguments: { id: 'w-cached' } })).isError,
      ).toBeFalsy();
    const after = await scrape();
    const moved = (sample: string) => (after.get(sample) ?? 0) - (before.get(sample) ?? 0);
    expect(moved('flowguard_cache_requests_total{result="miss"}')).toBe(1);
    expect(moved('flowguard_cache_requests_total{result="hit"}')).toBe(1);
    expect(moved('flowguard_tool_calls_total{tool="widgets_getWidget",outcome="ok"}')).toBe(2);
    expect(moved(`flowguard_upstream_responses_total{origin="${SCHEMA_ORIGIN}",class="2xx"}`)).toBe(1);
  });

  it('counts a call in flight while it runs', async () => {
    const running = client.client.callTool({ name: 'widgets_waitForWidget', arguments: { id: 'ms-1500' } });
    let inFlight = 0;
    expect(
      await waitFor(async () => (inFlight = (await scrape()).get('flowguard_tool_calls_in_flight') ?? 0) === 1),
    ).toBe(true);
    expect((await running).isError).toBeFalsy();
    expect((await scrape()).get('flowguard_tool_calls_in_flight')).toBe(0);
    expect(inFlight).toBe(1);
  });
});

describe('the sandbox in /readyz and /metrics', () => {
  it('is ready after the first handler call, not ready while its killed worker starts again, then ready; the restart is counted', async () => {
    expect(
      (await client.client.callTool({ name: 'widgets_listWidgets', arguments: { limit: 2 } })).isError,
    ).toBeFalsy();
    expect(await readiness()).toEqual({ status: 200, body: { status: 'ready', catalog: 'loaded', sandbox: 'ready' } });
    const [worker] = sandboxWorkers();
    expect(worker).toBeGreaterThan(0);
    process.kill(worker as number, 'SIGKILL');
    // The replacement takes a few hundred milliseconds to start: polled without pause, the probe sees it.
    let notReady: unknown;
    const sawNotReady = await waitFor(
      async () => {
        const answer = await readiness();
        if (answer.status === 503) notReady = answer.body;
        return answer.status === 503;
      },
      10_000,
      0,
    );
    expect(sawNotReady).toBe(true);
    expect(notReady).toEqual({ status: 'not ready', catalog: 'loaded', sandbox: 'starting' });
    expect(await waitFor(async () => (await readiness()).status === 200, 15_000)).toBe(true);
    expect((await scrape()).get('flowguard_sandbox_restarts_total{reason="stopped"}')).toBe(1);
    expect(
      (await client.client.callTool({ name: 'widgets_listWidgets', arguments: { limit: 1 } })).isError,
    ).toBeFalsy();
  });
});

describe('ServerMetrics bounds what outside input can add', () => {
  it('counts a call of an unknown tool under one label, and origins past the bound together', async () => {
    const own = new ServerMetrics();
    own.record({ tool: 'made-up-name-1', outcome: 'unknown-tool', durationMs: 0.1, requests: [], cache: 'none' });
    own.record({ tool: 'made-up-name-2', outcome: 'unknown-tool', durationMs: 0.1, requests: [], cache: 'none' });
    const requests = Array.from({ length: MAX_ORIGINS + 50 }, (_, index) => ({
      origin: `https://h${index}.example`,
      status: index % 2 === 0 ? 200 : 0,
    }));
    own.record({ tool: 'ns_tool', outcome: 'ok', durationMs: 12, requests, cache: 'hit' });
    const samples = parseMetrics((await own.scrape()).text);
    expect(samples.get('flowguard_tool_calls_total{tool="(unknown)",outcome="unknown-tool"}')).toBe(2);
    expect([...samples.keys()].some((sample) => sample.includes('made-up-name'))).toBe(false);
    const origins = new Set(
      [...samples.keys()]
        .filter((sample) => sample.startsWith('flowguard_upstream_responses_total'))
        .map((sample) => /origin="([^"]*)"/.exec(sample)?.[1]),
    );
    expect(origins.size).toBe(MAX_ORIGINS + 1);
    const other =
      (samples.get('flowguard_upstream_responses_total{origin="(other)",class="2xx"}') ?? 0) +
      (samples.get('flowguard_upstream_responses_total{origin="(other)",class="failed"}') ?? 0);
    expect(other).toBe(50);
    expect(samples.get('flowguard_upstream_responses_total{origin="https://h1.example",class="failed"}')).toBe(1);
    expect(samples.get('flowguard_cache_requests_total{result="hit"}')).toBe(1);
  });
});
