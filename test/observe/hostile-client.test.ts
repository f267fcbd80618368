// Issue 23, points 10, 11e and 11f, attacked over HTTP against `flowguard serve` in a child
// process (audit log on, /metrics, the official MCP SDK client), with a real loopback upstream:
// - an argument nested 5,000 deep (30 kB) is refused, and the server lives on: its audit record
//   keeps a note instead of the value (serialising it once ended the process from a timer);
// - a call of a tool that does not exist leaves one audit record, its name cut and cleaned, and
//   one count under `(unknown)`, never the raw name as a label;
// - an argument name of 1 MB makes no 1 MB audit line, and later calls are still recorded.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES } from '../../src/observe/audit-log.js';
import { MCP_HEADERS, parseMetrics, rawRequest } from '../edge/helpers.js';
import { connectHttp, spawnHttpServer, type SpawnedHttpServer } from '../kit/mcp.js';
import { waitFor } from '../support/wait.js';
import { observedProject, type ObservedProject } from './fixture.js';

interface Served {
  project: ObservedProject;
  server: SpawnedHttpServer;
  url: string;
  client: Client;
  stderr: () => string;
  exited: () => boolean;
}

let served: Served | undefined;
afterEach(async () => {
  if (!served) return;
  await served.client.close().catch(() => undefined);
  await served.server.stop();
  await served.project.close();
  served = undefined;
});

async function serve(): Promise<Served> {
  const project = await observedProject();
  const server = await spawnHttpServer(['--schemas', project.schemas, '--project', project.dir], { readyMs: 15_000 });
  const { client } = await connectHttp(server.url);
  served = {
    project,
    server,
    url: server.url,
    client,
    stderr: server.stderr,
    exited: () => server.child.exitCode !== null || server.child.signalCode !== null,
  };
  return served;
}

function auditLines(dir: string): string[] {
  const folder = join(dir, '.flowmcp', 'audit');
  let files: string[];
  try {
    files = readdirSync(folder).sort();
  } catch {
    return [];
  }
  return files.flatMap((file) => readFileSync(join(folder, file), 'utf8').split('\n').filter(Boolean));
}

/** The audit records once `count` are written (lines wait up to 100 ms for the background writer). */
async function audited(dir: string, count: number): Promise<Array<Record<string, unknown>>> {
  expect(await waitFor(() => auditLines(dir).length >= count)).toBe(true);
  return auditLines(dir).map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** JSON text of an object nested `depth` deep, made as text: the client side would overflow its own stack building or checking it. */
function nested(depth: number): string {
  return `${'{"a":'.repeat(depth)}"bottom"${'}'.repeat(depth)}`;
}

/** A tools/call sent as raw JSON-RPC (the server is stateless: no session needed). */
async function rawCall(url: string, name: string, argumentsText: string): Promise<Record<string, unknown>> {
  const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${argumentsText}}}`;
  const answer = await rawRequest(url, {
    method: 'POST',
    headers: { ...MCP_HEADERS, 'content-length': String(Buffer.byteLength(body)) },
    body,
  });
  expect(answer.status).toBe(200);
  return JSON.parse(answer.body) as Record<string, unknown>;
}

/** The server still answers: its health check, and a real call through the upstream. */
async function expectAlive(server: Served): Promise<void> {
  const health = await rawRequest(new URL('/healthz', server.url).href);
  expect(health.status).toBe(200);
  const result = await server.client.callTool({ name: 'audited_lookup', arguments: { mode: 'echo', q: 'still-here' } });
  expect(result.isError).toBeFalsy();
  expect(server.exited()).toBe(false);
}

describe('nothing a client sends ends the server (point 10)', () => {
  it('an argument nested 5,000 deep is refused, recorded as a note, and the server answers afterwards', async () => {
    const server = await serve();
    const deep = nested(5000);
    expect(deep.length).toBeGreaterThan(30_000);
    const answer = await rawCall(server.url, 'audited_lookup', `{"mode":"echo","q":${deep}}`);
    expect(answer).toMatchObject({ result: { isError: true } });
    expect(JSON.stringify(answer)).toContain('limits.maxArgumentDepth');
    const [record] = await audited(server.project.dir, 1);
    expect(record).toMatchObject({
      tool: 'audited_lookup',
      outcome: 'arguments',
      arguments: { mode: 'echo', q: '[nested deeper than 32 levels, not recorded]' },
    });
    await expectAlive(server);
    expect(server.stderr()).not.toContain('RangeError');
  });

  it('the same argument sent to a tool that does not exist: refused, recorded, the server lives on', async () => {
    const server = await serve();
    const answer = await rawCall(server.url, 'no_such_tool', `{"q":${nested(5000)}}`);
    expect(JSON.stringify(answer.error)).toContain('Unknown tool');
    const [record] = await audited(server.project.dir, 1);
    expect(record).toMatchObject({
      tool: 'no_such_tool',
      outcome: 'unknown-tool',
      arguments: { q: '[nested deeper than 32 levels, not recorded]' },
    });
    await expectAlive(server);
  });
});

describe('probing for tool names is seen (point 11e)', () => {
  it('a call of an unknown tool leaves one audit record with its name cut and cleaned, and one count under (unknown)', async () => {
    const server = await serve();
    const probe = `probe_\u001b[31m\u202e${'x'.repeat(5000)}`;
    await expect(server.client.callTool({ name: probe, arguments: {} })).rejects.toThrow(/Unknown tool/);
    const [record] = await audited(server.project.dir, 1);
    expect(record?.outcome).toBe('unknown-tool');
    expect(record).toMatchObject({ reference: '', schemaHash: '' });
    const tool = record?.tool as string;
    expect(tool.startsWith('probe_\\u001b[31m\\u202e')).toBe(true);
    expect(tool.length).toBeLessThanOrEqual(101);
    expect(tool).not.toMatch(/[\u0000-\u001f\u202e]/);
    const metrics = await rawRequest(new URL('/metrics', server.url).href);
    const samples = parseMetrics(metrics.body);
    expect(samples.get('flowguard_tool_calls_total{tool="(unknown)",outcome="unknown-tool"}')).toBe(1);
    expect(metrics.body).not.toContain('probe_');
    expect(samples.get('flowguard_audit_records_dropped_total')).toBe(0);
  });
});

describe('audit lines are bounded (point 11f)', () => {
  it('an argument name of 1 MB makes a short line, and the calls after it are recorded', async () => {
    const server = await serve();
    const huge = 'n'.repeat(1_000_000);
    const result = await server.client.callTool({ name: 'audited_lookup', arguments: { mode: 'echo', [huge]: huge } });
    expect(result.isError).toBe(true);
    await server.client.callTool({ name: 'audited_lookup', arguments: { mode: 'echo', q: 'after' } });
    const records = await audited(server.project.dir, 2);
    for (const line of auditLines(server.project.dir))
      expect(Buffer.byteLength(line) + 1).toBeLessThanOrEqual(MAX_LINE_BYTES);
    expect(records.map((record) => record.outcome)).toEqual(['arguments', 'ok']);
    const names = Object.keys(records[0]?.arguments as object);
    expect(names).toContain('mode');
    expect(Math.max(...names.map((name) => name.length))).toBeLessThanOrEqual(101);
    expect(records[1]?.arguments).toEqual({ mode: 'echo', q: 'after' });
  });
});
