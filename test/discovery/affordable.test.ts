// Definitions an agent can afford (issue 25): no tool definition in a listing over 8,000 tokens
// (counted here with o200k, gpt-tokenizer; the server only estimates). Attacked with a schema
// whose enum has 2,000 values and one whose output schema is about 30,000 tokens, served over
// Streamable HTTP to the official SDK client: the listing is cut and says so; describe_tool
// gives the whole definition; arguments are still checked against the whole enum (a value past
// the listed examples is accepted, one outside the enum refused); the answer's structured
// content still passes the client's check against the cut output schema; `validate` tells the
// author (VAL100).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { startHttpServer, type McpHttpServer } from '../../src/edge/http.js';
import { checkSchemaFile } from '../../src/project/check-file.js';
import { effectiveAllowlist } from '../../src/libraries/allowlist.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { connectHttp, type Connection } from '../mcp/helpers.js';

const STATIONS = Array.from({ length: 2000 }, (_, at) => `station${String(at).padStart(4, '0')}`);
const READINGS = Array.from({ length: 300 }, (_, at) => `reading${String(at).padStart(3, '0')}`);

/** A gauges API: `getLevel` takes one of 2,000 stations, `getReport` answers with 300 nested readings. */
function gaugesSchema(): string {
  const reading = {
    type: 'object',
    description: 'One quarter-hour reading of the gauge, as the station reported it.',
    properties: {
      value: { type: 'number', description: 'The water level in centimetres above the gauge zero.' },
      unit: { type: 'string', description: 'The unit of the value, always cm.' },
    },
  };
  const output = {
    mimeType: 'application/json',
    schema: { type: 'object', properties: Object.fromEntries(READINGS.map((name) => [name, reading])) },
  };
  return `export const main = {
  namespace: 'gauges', name: 'RiverGauges', description: 'Water levels of river gauging stations.', version: '2.0.0', root: 'https://gauges.example.com',
  routes: {
    getLevel: {
      method: 'GET', path: '/levels', description: 'Returns the current water level of one gauging station.',
      parameters: [ { position: { key: 'station', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'enum(${STATIONS.join(',')})', options: [] } } ],
      tests: [ { _description: 'The first station', station: 'station0000' } ]
    },
    getReport: {
      method: 'GET', path: '/report', description: 'Returns the day report of all readings.',
      parameters: [],
      output: ${JSON.stringify(output)},
      tests: [ { _description: 'Today' } ]
    }
  }
};
`;
}

let upstream: Upstream;
let dir: string;
let schemaFile: string;
beforeAll(async () => {
  upstream = await startUpstream((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const url = new URL(req.url ?? '/', 'http://upstream');
    res.end(
      JSON.stringify(
        url.pathname === '/report'
          ? { reading000: { value: 312, unit: 'cm' }, reading299: { value: 301, unit: 'cm' } }
          : { station: url.searchParams.get('station'), level: 312 },
      ),
    );
  });
  dir = mkdtempSync(join(tmpdir(), 'flowguard-affordable-'));
  mkdirSync(join(dir, 'schemas', 'gauges'), { recursive: true });
  schemaFile = join(dir, 'schemas', 'gauges', 'levels.mjs');
  writeFileSync(schemaFile, gaugesSchema());
});
afterAll(async () => {
  await upstream?.close();
  rmSync(dir, { recursive: true, force: true });
});

const tokens = (value: unknown) => countTokens(JSON.stringify(value));

describe.each(['all', 'search'] as const)('a served catalog with huge definitions (--tools %s)', (mode) => {
  let catalog: Catalog;
  let server: McpHttpServer;
  let connection: Connection;
  beforeAll(async () => {
    catalog = await Catalog.load({
      schemas: join(dir, 'schemas'),
      project: dir,
      env: {},
      upstreams: { '*': upstream.origin },
    });
    server = await startHttpServer(catalog, { port: 0, log: () => undefined, discovery: mode });
    connection = await connectHttp(server.url);
  });
  afterAll(async () => {
    await connection?.close();
    await server?.close();
    await catalog?.close();
  });

  it('lists no definition over 8,000 tokens, each cut one saying what was cut', async () => {
    const listed = mode === 'all' ? (await connection.client.listTools()).tools : await described(connection);
    if (mode === 'search') {
      // Discovery lists only the meta-tools; the cut definitions are what an `all` listing gives, checked in that mode.
      for (const tool of (await connection.client.listTools()).tools) expect(tokens(tool)).toBeLessThanOrEqual(8000);
      // describe_tool gives each whole: well over the bound.
      expect(tokens(listed.find((tool) => tool.name === 'gauges_getLevel'))).toBeGreaterThan(8000);
      expect(
        (listed.find((tool) => tool.name === 'gauges_getLevel')?.inputSchema.properties?.station as { enum: string[] })
          .enum,
      ).toEqual(STATIONS);
      expect(tokens(listed.find((tool) => tool.name === 'gauges_getReport')?.outputSchema)).toBeGreaterThan(8000);
      return;
    }
    for (const tool of listed) expect(tokens(tool), tool.name).toBeLessThanOrEqual(8000);
    const level = listed.find((tool) => tool.name === 'gauges_getLevel') as McpTool;
    const station = level.inputSchema.properties?.station as {
      enum?: string[];
      examples?: string[];
      description?: string;
    };
    expect(station.enum).toBeUndefined();
    expect(station.examples).toEqual(STATIONS.slice(0, 25));
    expect(station.description).toContain('one of 2000 values');
    expect(level.description).toMatch(
      /shortened to fit a model's context: the argument station \(2000 values\) shortened to their first 25 values/,
    );
    const report = listed.find((tool) => tool.name === 'gauges_getReport') as McpTool;
    expect(report.description).toMatch(/the output schema (cut to its top level|left out)/);
  });

  it("checks arguments against the whole enum, and the answer passes the client's check against the listed output schema", async () => {
    const call = (name: string, args: Record<string, unknown>) =>
      (mode === 'all'
        ? connection.client.callTool({ name, arguments: args })
        : connection.client.callTool({
            name: 'call_tool',
            arguments: { name, arguments: args },
          })) as Promise<CallToolResult>;
    const past = await call('gauges_getLevel', { station: 'station1999' });
    expect(past.isError, JSON.stringify(past.content)).toBeFalsy();
    expect(JSON.stringify(past.content)).toContain('station1999');
    const outside = await call('gauges_getLevel', { station: 'nowhere' });
    expect(outside.isError).toBe(true);
    expect(JSON.stringify(outside.content)).toContain('station');
    // In `all` mode the SDK client checks structuredContent against the listed (cut) outputSchema.
    if (mode === 'all') await connection.client.listTools();
    const report = await call('gauges_getReport', {});
    expect(report.isError, JSON.stringify(report.content)).toBeFalsy();
    expect(report.structuredContent).toEqual({
      reading000: { value: 312, unit: 'cm' },
      reading299: { value: 301, unit: 'cm' },
    });
  });
});

async function described(connection: Connection): Promise<McpTool[]> {
  const whole: McpTool[] = [];
  for (const name of ['gauges_getLevel', 'gauges_getReport']) {
    const result = (await connection.client.callTool({ name: 'describe_tool', arguments: { name } })) as CallToolResult;
    whole.push((result.structuredContent as { tool: McpTool }).tool);
  }
  return whole;
}

describe('validate', () => {
  it('tells the author of each route whose definition is listed cut (VAL100), and of none other', () => {
    const findings = checkSchemaFile(schemaFile, { allowedLibraries: effectiveAllowlist([]) }).findings.filter(
      (f) => f.code === 'VAL100',
    );
    expect(findings.map((f) => f.path)).toEqual(['main.routes.getLevel', 'main.routes.getReport']);
    expect(findings[0]?.severity).toBe('warning');
    expect(findings[0]?.message).toMatch(/about \d+ tokens, over the 8000 a listing gives one tool/);
  });
});
