// `output.validate` over a real MCP SDK client and Streamable HTTP: an answer that departs from
// its tool's output schema under each of `error`, `warn` and `off`, and one that matches. The
// catalog is the route-tests fixture (test/fixtures/route-tests/), its API a loopback upstream
// whose ether prices come as text while the output says number.

import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import type { OutputValidation } from '../../src/shared/output-validation.js';
import { startHttpServer } from '../../src/edge/http.js';
import { ServerMetrics } from '../../src/observe/metrics.js';
import { tempProject } from '../support/project.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'route-tests', 'schemas');
const ORIGIN = 'https://api.market.example';
const ANSWERS: Record<string, unknown> = {
  '/prices/bitcoin': { data: [{ exchange: 'kraken', price: 97000.5 }] },
  '/prices/ether': { data: [{ exchange: 'kraken', price: '3400' }] },
};

let upstream: Upstream;
const projects: Array<{ remove(): void }> = [];

beforeAll(async () => {
  upstream = await startUpstream((req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ANSWERS[req.url ?? ''] ?? {})),
  );
});
afterAll(async () => {
  await upstream.close();
  for (const project of projects) project.remove();
});

/** A server of the fixture catalog under `validate` (none: the config does not say), with a client connected to it. */
async function serve(validate: OutputValidation | undefined) {
  const project = tempProject({
    upstreams: { [ORIGIN]: upstream.origin },
    ...(validate ? { output: { validate } } : {}),
  });
  projects.push(project);
  const catalog = await Catalog.load({ schemas: SCHEMAS, project: project.dir });
  const metrics = new ServerMetrics();
  const warnings: Array<{ fields: unknown; message: string }> = [];
  const lines: string[] = [];
  const logger = { warn: (fields: unknown, message: string) => void warnings.push({ fields, message }) } as never;
  const http = await startHttpServer(catalog, { port: 0, metrics, logger, log: (line) => void lines.push(line) });
  const client = new Client({ name: 'flowguard-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  // The client learns the output schemas (and so checks results against them) from tools/list.
  const tools = (await client.listTools()).tools;
  const call = async (coin: string) =>
    (await client.callTool({ name: 'market_getPrices', arguments: { coin } })) as CallToolResult;
  const mismatchCount = async () =>
    /flowguard_output_mismatches_total\{tool="market_getPrices"\} (\d+)/.exec((await metrics.scrape()).text)?.[1] ??
    '0';
  const close = async () => {
    await client.close();
    await http.close();
    await catalog.close();
  };
  return { tools, call, warnings, lines, mismatchCount, close };
}

describe('output.validate', () => {
  it('error (the default): a mismatching answer is an isError result with a note naming the path; a matching one is structured', async () => {
    const server = await serve(undefined);
    try {
      expect(server.tools.find((tool) => tool.name === 'market_getPrices')?.outputSchema).toBeDefined();
      const mismatching = await server.call('ether');
      expect(mismatching.isError).toBe(true);
      expect(mismatching.structuredContent).toBeUndefined();
      expect((mismatching.content[0] as { text: string }).text).toContain(
        "does not match the tool's declared output schema (at /data/0/price must be number)",
      );
      expect((await server.call('bitcoin')).structuredContent).toEqual(ANSWERS['/prices/bitcoin']);
      expect(server.warnings).toEqual([]);
      expect(await server.mismatchCount()).toBe('0');
    } finally {
      await server.close();
    }
  });

  it('warn: the answer is served as text, the mismatch logged at warn and counted; the tool advertises no outputSchema the answers may break', async () => {
    const server = await serve('warn');
    try {
      expect(server.tools.find((tool) => tool.name === 'market_getPrices')?.outputSchema).toBeUndefined();
      const mismatching = await server.call('ether');
      expect(mismatching.isError).toBeFalsy();
      expect(mismatching.structuredContent).toBeUndefined();
      expect(JSON.parse((mismatching.content[0] as { text: string }).text)).toEqual(ANSWERS['/prices/ether']);
      expect(server.warnings).toEqual([
        {
          fields: { tool: 'market_getPrices', problem: 'at /data/0/price must be number' },
          message: 'answer does not match the output schema; served as text',
        },
      ]);
      expect(await server.mismatchCount()).toBe('1');
      // A matching answer is still structured, and not counted.
      expect((await server.call('bitcoin')).structuredContent).toEqual(ANSWERS['/prices/bitcoin']);
      expect(await server.mismatchCount()).toBe('1');
    } finally {
      await server.close();
    }
  });

  it('off: the answer is served as text, silently; a matching one is still structured', async () => {
    const server = await serve('off');
    try {
      expect(server.tools.find((tool) => tool.name === 'market_getPrices')?.outputSchema).toBeUndefined();
      const mismatching = await server.call('ether');
      expect(mismatching.isError).toBeFalsy();
      expect(mismatching.structuredContent).toBeUndefined();
      expect(JSON.parse((mismatching.content[0] as { text: string }).text)).toEqual(ANSWERS['/prices/ether']);
      expect((await server.call('bitcoin')).structuredContent).toEqual(ANSWERS['/prices/bitcoin']);
      expect(server.warnings).toEqual([]);
      expect(server.lines).toEqual([]);
      expect(await server.mismatchCount()).toBe('0');
    } finally {
      await server.close();
    }
  });
});
