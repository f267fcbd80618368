// Promise 8 over stdio: what a client writes on stdin cannot end the server. The real MCP server
// on the fixture catalog, its stdio transport on in-process streams: a line of 100 MB (dropped as
// it arrives, answered with an error, never held whole), invalid UTF-8 and lines that are no
// JSON-RPC are answered or reported, and the next request is served.

import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/runtime/catalog.js';
import { serveStdio, type StdioServer } from '../../src/mcp/stdio.js';
import { actsOnTerminal } from '../../src/report/format.js';
import { waitFor } from '../support/wait.js';
import { loadFixtureCatalog, startCatalogUpstream, type CatalogUpstream } from './helpers.js';

let upstream: CatalogUpstream;
let catalog: Catalog;
let stdin: PassThrough;
let stdout: PassThrough;
let server: StdioServer;
let written = '';
const logged: string[] = [];

/** The messages the server wrote, parsed. */
function answers(): Array<{ id?: unknown; result?: { tools?: unknown[] }; error?: { code: number; message: string } }> {
  return written
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

async function listAnswered(id: number): Promise<boolean> {
  stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' })}\n`);
  return waitFor(() => answers().some((answer) => answer.id === id && Array.isArray(answer.result?.tools)), 10_000);
}

beforeAll(async () => {
  upstream = await startCatalogUpstream();
  catalog = await loadFixtureCatalog(upstream);
  stdin = new PassThrough();
  stdout = new PassThrough();
  stdout.on('data', (chunk: Buffer) => {
    written += chunk.toString('utf8');
  });
  server = await serveStdio(catalog, { log: (line) => logged.push(line) }, stdin, stdout);
  stdin.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hostile', version: '1' } } })}\n`,
  );
  stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  expect(await listAnswered(1)).toBe(true);
}, 30_000);

afterAll(async () => {
  await server?.close();
  await catalog?.close();
  await upstream?.close();
});

describe('nothing a stdio client writes ends the server', () => {
  it('a line of 100 MB, written in 1 MB pieces, is dropped and answered with an error; the server goes on', async () => {
    const piece = 'a'.repeat(1024 * 1024);
    stdin.write('{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"');
    for (let written = 0; written < 100; written += 1) stdin.write(piece);
    stdin.write('"}}\n');
    expect(await listAnswered(3)).toBe(true);
    expect(answers()).toContainEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: a line longer than 10485760 bytes was dropped' },
    });
    expect(logged.join('\n')).toMatch(/a line of 10485\d+ bytes dropped/);
    // The line was never held whole: the memory it took is far below its size.
    expect(process.memoryUsage().arrayBuffers).toBeLessThan(80 * 1024 * 1024);
  }, 60_000);

  it('a line just under the bound is read whole and answered', async () => {
    stdin.write(
      `{"jsonrpc":"2.0","id":4,"method":"ping","params":{"_meta":{"x":"${'b'.repeat(10 * 1024 * 1024 - 100)}"}}}\n`,
    );
    expect(await waitFor(() => answers().some((answer) => answer.id === 4), 10_000)).toBe(true);
    expect(answers().find((answer) => answer.id === 4)).toMatchObject({ result: {} });
  });

  it('invalid UTF-8, lines that are no JSON or no JSON-RPC, and a message split across writes: the server goes on', async () => {
    stdin.write(
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":5,"method":"ping","params":{"_meta":{"x":"'),
        Buffer.from([0xff, 0xfe, 0xc3]),
        Buffer.from('"}}}\n'),
      ]),
    );
    stdin.write('\u0000not json\n[]\nnull\n"x"\n{}\n\n');
    const split = JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'ping' });
    stdin.write(split.slice(0, 10));
    stdin.write(`${split.slice(10)}\n`);
    expect(await listAnswered(7)).toBe(true);
    expect(answers().filter((answer) => answer.id === 5 || answer.id === 6)).toHaveLength(2);
  });
});

describe('stdin that fails', () => {
  // An eleventh review: the transport's errors quote what the client wrote (a line that is no
  // JSON, a response to no request), and they went to the log line as they were.
  it("a client's text in the log lines is escaped: no control or bidi character, no line break", async () => {
    const hostile = '\u009b2J\u202e\u001b]0;pwned\u0007\nflowguard: FORGED';
    const from = logged.length;
    stdin.write(`\u009b2J\u202e\u001b]0;pwned\u0007 not json\n`);
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: hostile, result: {} })}\n`);
    expect(await listAnswered(9)).toBe(true);
    expect(await waitFor(() => logged.length >= from + 2, 5_000), logged.join('\n')).toBe(true);
    for (const line of logged.slice(from)) {
      expect(
        [...line].filter((char) => actsOnTerminal(char)),
        line,
      ).toEqual([]);
      expect(line).not.toContain('\n');
    }
  });

  it('an error on stdin is logged, not thrown, and the server still answers', async () => {
    stdin.emit('error', new Error('EIO: stdin failed'));
    expect(logged.join('\n')).toContain('flowguard: stdio: EIO: stdin failed');
    expect(await listAnswered(8)).toBe(true);
  });
});
