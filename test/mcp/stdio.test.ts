// `flowguard serve --transport stdio` as a client starts it: the start-up summary on stderr,
// stdout carrying protocol messages only, cancellation reaching the upstream, and a clean exit
// when stdin ends or a signal arrives.

import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait.js';
import {
  connectStdio,
  serveArgs,
  spawnServe,
  startCatalogUpstream,
  type CatalogUpstream,
  type Connection,
} from './helpers.js';

let upstream: CatalogUpstream;
let connection: Connection;
beforeAll(async () => {
  upstream = await startCatalogUpstream();
  connection = await connectStdio(upstream);
});
afterAll(async () => {
  await connection?.close();
  await upstream?.close();
});

describe('flowguard serve --transport stdio', () => {
  it('prints one summary on stderr: loaded, served, hidden with the missing key, rejected with the first error', async () => {
    // The spinner's factory misses its deadline: its sandbox process is replaced, a log line at warn
    // of its own, which the logger may write after the summary (its lines wait up to 100 ms).
    const replaced = 'replaced: the handlers factory did not finish within 500 ms';
    expect(
      await waitFor(
        () => connection.stderr().includes('serving 14 tools over stdio') && connection.stderr().includes(replaced),
      ),
    ).toBe(true);
    const all = connection.stderr().trimEnd().split('\n');
    const logged = all
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: expect.stringMatching(
          /^flowguard: sandbox process \d+ replaced: the handlers factory did not finish within 500 ms$/,
        ),
      }),
    );
    const lines = all.filter((line) => !line.startsWith('{'));
    expect(lines).toEqual([
      'flowguard: 5 schema files: 3 loaded, 2 rejected; 14 tools served, 1 hidden',
      '  hidden until the operator grants their keys (the project .env, or security.keys in .flowmcp/config.json):',
      '    VAULT_API_KEY (vault): not set; grant with VAULT_API_KEY=... in .env: hides vault_getNote',
      '  rejected (first error of each file; `flowguard validate` shows every finding):',
      expect.stringMatching(
        /^ {4}SEC006 error \S*test\/fixtures\/mcp\/schemas\/hostile\/env-reader\.mjs:22:\d+: forbidden: process$/,
      ),
      expect.stringMatching(
        /^ {4}SEC105 error \S*test\/fixtures\/mcp\/schemas\/hostile\/spinner\.mjs handlers: the handlers factory did not finish within 500 ms$/,
      ),
      'flowguard: every served tool listed (auto: 14 tools served, at most 100; --tools search lists only the discovery meta-tools)',
      'flowguard: serving 14 tools over stdio',
    ]);
  });

  it('serves the other schemas although two files were rejected', async () => {
    const { tools } = await connection.client.listTools();
    expect(tools.some((tool) => tool.name.startsWith('leaky_') || tool.name.startsWith('spinner_'))).toBe(false);
    const result = (await connection.client.callTool({
      name: 'widgets_getWidget',
      arguments: { id: 'w-7' },
    })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ id: 'w-7' });
  });

  it('cancels a running call: the upstream sees its connection close, and the server keeps serving', async () => {
    const before = { ...upstream.slow };
    const controller = new AbortController();
    const pending = connection.client.callTool(
      { name: 'widgets_waitForWidget', arguments: { id: 'hang-1' } },
      CallToolResultSchema,
      { signal: controller.signal },
    );
    expect(await waitFor(() => upstream.slow.arrived === before.arrived + 1)).toBe(true);
    const abortedAt = Date.now();
    controller.abort('the user changed their mind');
    await expect(pending).rejects.toThrow();
    expect(await waitFor(() => upstream.slow.closed === before.closed + 1, 2_000)).toBe(true);
    expect(Date.now() - abortedAt).toBeLessThan(2_000);
    const after = (await connection.client.callTool({
      name: 'widgets_getWidget',
      arguments: { id: 'w-8' },
    })) as CallToolResult;
    expect(after.isError).toBeFalsy();
  });

  it('writes protocol messages only to stdout and exits 0 when stdin ends', async () => {
    const server = spawnServe([...serveArgs(upstream), '--transport', 'stdio']);
    let stdout = '';
    server.child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    const send = (message: object) => server.child.stdin?.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'media_getReadme', arguments: {} } });
    expect(await waitFor(() => stdout.includes('"id":3'), 15_000)).toBe(true);
    server.child.stdin?.end();
    expect(await server.exited).toBe(0);
    const messages = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { jsonrpc: string; id?: number });
    expect(messages.every((message) => message.jsonrpc === '2.0')).toBe(true);
    expect(messages.map((message) => message.id).sort()).toEqual([1, 2, 3]);
    expect(server.stderr()).toContain('flowguard: stdin closed, shutting down');
  });

  it('closes cleanly on SIGTERM', async () => {
    const server = spawnServe([...serveArgs(upstream), '--transport', 'stdio']);
    expect(await waitFor(() => server.stderr().includes('over stdio'), 15_000)).toBe(true);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toContain('flowguard: SIGTERM, shutting down');
  });
});
