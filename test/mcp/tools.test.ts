// tools/list and tools/call end to end, the same suite over both real transports: the SDK client
// talking to a spawned `flowguard serve --transport stdio`, and to the Streamable HTTP server;
// the fixture catalog's upstreams played by one loopback server.

import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  CallToolResultSchema,
  ErrorCode,
  McpError,
  type CallToolResult,
  type Progress,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/runtime/catalog.js';
import {
  connectHttp,
  connectStdio,
  loadFixtureCatalog,
  PDF,
  PNG,
  README_TEXT,
  startCatalogUpstream,
  startHttpFixture,
  WIDGET,
  type CatalogUpstream,
  type Connection,
  type HttpFixture,
} from './helpers.js';

const SERVED = [
  'media_clearCache',
  'media_getChart',
  'media_getDump',
  'media_getReadme',
  'media_getReport',
  'media_listColours',
  'widgets_createWidget',
  'widgets_deleteWidget',
  'widgets_getWidget',
  'widgets_getWidgetHealth',
  'widgets_getWidgetStats',
  'widgets_listWidgets',
  'widgets_replaceWidget',
  'widgets_waitForWidget',
];
const WITH_OUTPUT_SCHEMA = SERVED.filter((name) => name.startsWith('widgets_')).concat('media_getDump');

let upstream: CatalogUpstream;
let catalog: Catalog;
let http: HttpFixture;
beforeAll(async () => {
  upstream = await startCatalogUpstream();
  [catalog, http] = await Promise.all([loadFixtureCatalog(upstream), startHttpFixture(upstream)]);
});
afterAll(async () => {
  await catalog?.close();
  await http?.close();
  await upstream?.close();
});

const text = (result: CallToolResult, index = 0): string => {
  const item = result.content[index];
  return item?.type === 'text' ? item.text : '';
};

describe.each([
  ['stdio', () => connectStdio(upstream)],
  ['Streamable HTTP', () => connectHttp(http.server.url)],
])('over %s', (_transport, connect) => {
  let connection: Connection;
  let tools: McpTool[];
  beforeAll(async () => {
    connection = await connect();
    ({ tools } = await connection.client.listTools());
  });
  afterAll(() => connection?.close());
  const call = (name: string, args: Record<string, unknown> = {}) =>
    connection.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

  it('initializes as flowguard with the tools capability', () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(connection.client.getServerVersion()).toMatchObject({ name: 'flowguard', version });
    expect(connection.client.getServerCapabilities()?.tools).toBeDefined();
  });

  it('lists every visible tool: R8 names, the reference as title and _meta, compiled input schemas unchanged', () => {
    expect(tools.map((tool) => tool.name).sort()).toEqual(SERVED);
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      const compiled = catalog.tool(tool.name);
      expect(tool.title).toBe(compiled?.reference);
      expect(tool._meta).toEqual({ 'flowguard/reference': compiled?.reference });
      expect(tool.description).toBe(compiled?.description);
      expect(tool.inputSchema).toEqual(compiled?.input.schema);
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
    }
    expect(JSON.stringify(tools)).not.toContain('$schema');
    expect(JSON.stringify(tools)).not.toContain('draft-07');
    expect(tools.find((tool) => tool.name === 'widgets_getWidget')?.title).toBe('widgets/catalog.mjs::getWidget');
  });

  it('annotates tools from their HTTP method', () => {
    const annotations = (name: string) => tools.find((tool) => tool.name === name)?.annotations;
    expect(annotations('widgets_getWidget')).toEqual({ readOnlyHint: true, openWorldHint: true });
    expect(annotations('widgets_createWidget')).toEqual({ readOnlyHint: false, openWorldHint: true });
    expect(annotations('widgets_replaceWidget')).toEqual({
      readOnlyHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(annotations('widgets_deleteWidget')).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
    });
    for (const tool of tools) expect(tool.annotations?.openWorldHint).toBe(true);
  });

  it('advertises an outputSchema only for JSON outputs with an object root, converted to 2020-12', () => {
    expect(
      tools
        .filter((tool) => tool.outputSchema)
        .map((tool) => tool.name)
        .sort(),
    ).toEqual(WITH_OUTPUT_SCHEMA.sort());
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    ajv.addFormat('date-time', true).addFormat('uri', true);
    for (const tool of tools.filter((t) => t.outputSchema)) {
      expect(tool.outputSchema?.type).toBe('object');
      expect(() => ajv.compile(tool.outputSchema as object), tool.name).not.toThrow();
    }
    expect(tools.find((tool) => tool.name === 'widgets_getWidget')?.outputSchema).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string' },
        name: { type: 'string', description: 'Display name.' },
        price: { type: ['number', 'null'] },
        colour: { type: ['string', 'null'], enum: ['red', 'green', 'blue', null] },
        tags: { type: 'array', items: { type: 'string' } },
        updatedAt: { type: 'string', format: 'date-time' },
        homepage: { type: 'string', format: 'uri' },
      },
    });
  });

  it('calls a tool against the upstream: pretty JSON text and matching structuredContent', async () => {
    const result = await call('widgets_getWidget', { id: 'w-1' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(WIDGET);
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(WIDGET, null, 2) }]);
    expect(result._meta).toMatchObject({ 'flowguard/status': 200 });
    expect(upstream.records.some((r) => r.method === 'GET' && r.url === '/v2/widgets/w-1')).toBe(true);
  });

  it('runs handlers and sends bodies: a postRequest result, a POST with a JSON body', async () => {
    const listed = await call('widgets_listWidgets', { limit: 3 });
    expect(listed.structuredContent).toEqual({ count: 3, widgets: [{ id: 'w-1' }, { id: 'w-2' }, { id: 'w-3' }] });
    const created = await call('widgets_createWidget', { name: 'Gear', price: 4 });
    expect(created.structuredContent).toEqual({ id: 'w-99', name: 'Gear', price: 4 });
    expect(upstream.records.some((r) => r.method === 'POST' && JSON.parse(r.body || 'null')?.name === 'Gear')).toBe(
      true,
    );
  });

  it('answers wrong arguments with an isError result that says what to fix', async () => {
    const missing = await call('widgets_getWidget', {});
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain("Error (arguments): invalid arguments: missing required argument 'id'");
    expect(text(missing)).toContain("What to do: correct the arguments so they match the tool's inputSchema");
    const wrongType = await call('widgets_listWidgets', { limit: 'lots', colour: 'red' });
    expect(wrongType.isError).toBe(true);
    expect(text(wrongType)).toContain("'limit' must be number");
    expect(text(wrongType)).toContain("unknown argument 'colour'");
  });

  it('answers upstream failures with isError results carrying the status', async () => {
    const crashed = await call('widgets_getWidgetHealth', { mode: 'crash' });
    expect(crashed.isError).toBe(true);
    expect(text(crashed)).toMatch(
      /^Error \(upstream-status, status 500\): upstream answered 500: \{"error":"database on fire"\}/,
    );
    expect(text(crashed)).toContain(
      'What to do: the API failed on its side. Use another tool, or tell the operator if it persists.',
    );
    expect(crashed._meta).toEqual({ 'flowguard/error': { kind: 'upstream-status', status: 500 } });
    const busy = await call('widgets_getWidgetHealth', { mode: 'busy' });
    // The fixture's maxPauseSeconds is 0: no pause is in force, so none is told (test/call/failures.test.ts tells one).
    expect(text(busy)).toContain('What to do: the API is rate limiting: wait a while, then call again.');
    expect(busy._meta).toEqual({ 'flowguard/error': { kind: 'upstream-status', status: 429 } });
    expect(text(await call('widgets_getWidgetHealth', { mode: 'missing' }))).toContain('status 404');
  });

  it('never sends structuredContent that contradicts the outputSchema: text only, a note, isError', async () => {
    const result = await call('widgets_getWidgetStats', { id: 'w-1' });
    expect(result.structuredContent).toBeUndefined();
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("does not match the tool's declared output schema (at /views must be number)");
    expect(JSON.parse(text(result, 1))).toEqual({ views: 'many' });
  });

  it('does not list the tool whose key is missing, and calling it is an error naming the key', async () => {
    expect(tools.map((tool) => tool.name)).not.toContain('vault_getNote');
    const result = await call('vault_getNote', { id: 'n-1' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('Error (missing-keys): vault_getNote needs VAULT_API_KEY');
    expect(upstream.records.some((r) => r.url.startsWith('/notes'))).toBe(false);
  });

  it('answers an unknown tool and malformed params with protocol errors (InvalidParams)', async () => {
    const unknown = await call('widgets_noSuchTool').catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(McpError);
    expect((unknown as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((unknown as McpError).message).toContain('Unknown tool: widgets_noSuchTool');
    // A reference is no tool name on the wire.
    expect(
      await call('widgets/catalog.mjs::getWidget', { id: 'w-1' }).catch((error: unknown) => (error as McpError).code),
    ).toBe(ErrorCode.InvalidParams);
    const malformed = await connection.client
      .request({ method: 'tools/call', params: { name: 42, arguments: 'x' } } as never, CallToolResultSchema)
      .catch((error: unknown) => error);
    expect((malformed as McpError).code).toBe(ErrorCode.InvalidParams);
  });

  it('reports progress while a call with a progress token waits, and none for a quick call', async () => {
    const seen: Progress[] = [];
    const slow = await connection.client.callTool(
      { name: 'widgets_waitForWidget', arguments: { id: 'ms-1400' } },
      undefined,
      { onprogress: (progress) => seen.push(progress) },
    );
    expect(slow.structuredContent).toEqual({ built: true });
    expect(seen.map((p) => p.progress)).toEqual([1, 2]);
    expect(seen[0]?.message).toMatch(/^waiting for the API to answer \(0\.\d s\)$/);
    expect(seen[1]?.message).toMatch(/^waiting for the API to answer \(1\.\d s\)$/);
    const quick: Progress[] = [];
    await connection.client.callTool({ name: 'widgets_getWidget', arguments: { id: 'w-2' } }, undefined, {
      onprogress: (progress) => quick.push(progress),
    });
    expect(quick).toEqual([]);
  });

  it('maps every kind of answer: image, text, binary resource, empty body, JSON array', async () => {
    expect((await call('media_getChart')).content).toEqual([
      { type: 'image', mimeType: 'image/png', data: PNG.toString('base64') },
    ]);
    expect((await call('media_getReadme')).content).toEqual([{ type: 'text', text: README_TEXT }]);
    const report = await call('media_getReport');
    expect(text(report)).toContain(`${PDF.length} bytes of application/pdf data`);
    expect(report.content[1]).toEqual({
      type: 'resource',
      resource: { uri: 'flowguard:result/media_getReport', mimeType: 'application/pdf', blob: PDF.toString('base64') },
    });
    expect(text(await call('media_clearCache'))).toBe('The API answered with status 204 and an empty body.');
    const colours = await call('media_listColours');
    expect(colours.isError).toBeFalsy();
    expect(colours.structuredContent).toBeUndefined();
    expect(JSON.parse(text(colours))).toEqual(['red', 'green', 'blue']);
  });

  it('gave the client no reason for a protocol error (no late progress, no malformed message)', () => {
    expect(connection.errors).toEqual([]);
  });
});
