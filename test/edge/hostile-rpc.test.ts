// Promise 8 over Streamable HTTP: hostile JSON-RPC cannot crash or wedge the server. The real
// HTTP edge on 127.0.0.1 over the fixture catalog, raw node:http and net clients: oversized and
// over-long batches, a body past the cap with and without Content-Length, deep params, huge and
// non-finite ids, requests of a batch sharing one id, a flood of notifications, and many bodies
// that never end. After each, a plain tools/list is answered.

import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCatalogUpstream, startHttpFixture, type CatalogUpstream, type HttpFixture } from '../mcp/helpers.js';
import { LIST_BODY, MCP_HEADERS, rawRequest, type RawAnswer } from './helpers.js';

let upstream: CatalogUpstream;
let open: HttpFixture;
beforeAll(async () => {
  upstream = await startCatalogUpstream();
  open = await startHttpFixture(upstream, {});
});
afterAll(async () => {
  await open?.close();
  await upstream?.close();
});

const post = (body: string, headers: Record<string, string> = {}): Promise<RawAnswer> =>
  rawRequest(open.server.url, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body });

async function stillServes(): Promise<void> {
  const answer = await post(LIST_BODY);
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.body).result.tools.length).toBeGreaterThan(0);
}

const ping = (id: unknown) => ({ jsonrpc: '2.0', id, method: 'ping' });

describe('hostile JSON-RPC over Streamable HTTP', () => {
  it('a batch of 101 messages is refused whole; a batch of 100 is answered', async () => {
    const refused = await post(JSON.stringify(Array.from({ length: 101 }, (_, id) => ping(id))));
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('Batch must not exceed 100 messages');
    const answered = await post(JSON.stringify(Array.from({ length: 100 }, (_, id) => ping(id))));
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body)).toHaveLength(100);
    await stillServes();
  });

  it('a batch of 100 notifications is accepted with nothing to answer', async () => {
    const flood = Array.from({ length: 100 }, () => ({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1 },
    }));
    expect((await post(JSON.stringify(flood))).status).toBe(202);
    await stillServes();
  });

  it('a body past 4 MB is 413, whether it declares its length or comes in chunks', async () => {
    const big = JSON.stringify(ping('x'.repeat(4 * 1024 * 1024)));
    expect((await post(big)).status).toBe(413);
    expect(await chunked(big)).toMatch(/^HTTP\/1\.1 413/);
    await stillServes();
  });

  it('params nested 1,000,000 deep, a 3 MB id and non-finite ids are answered, not thrown', async () => {
    const deep = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}}`;
    const deepAnswer = await post(deep);
    expect(deepAnswer.status).toBe(200);
    expect(JSON.parse(deepAnswer.body).error).toBeDefined();
    const huge = await post(JSON.stringify(ping('i'.repeat(3 * 1024 * 1024))));
    expect(huge.status).toBe(200);
    for (const id of ['1e400', '-1e400', '{"a":1}', 'true'])
      expect((await post(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`)).status).toBe(400);
    await stillServes();
  });

  it('a batch whose requests share one id (calls, a listing, a ping) is answered, and the server goes on', async () => {
    const call = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'widgets_getWidget', arguments: { id: 'w-1' } },
    };
    for (const batch of [
      [call, call],
      [{ jsonrpc: '2.0', id: 7, method: 'tools/list' }, call],
      [call, ping(7), ping(7)],
    ]) {
      const answer = await post(JSON.stringify(batch));
      expect(answer.status, JSON.stringify(batch)).toBe(200);
      // The transport keeps one answer per id: one message, or a batch of them.
      const answers = [JSON.parse(answer.body) as unknown].flat() as Array<{ id: unknown }>;
      expect(answers.length).toBeGreaterThan(0);
      expect(answers.every((each) => each.id === 7)).toBe(true);
    }
    await stillServes();
  });

  it('200 bodies that never end hold their connections only: every other request is served meanwhile', async () => {
    const hanging = await Promise.all(Array.from({ length: 200 }, () => neverEnding()));
    try {
      await stillServes();
      await stillServes();
    } finally {
      for (const socket of hanging) socket.destroy();
    }
    await stillServes();
  });
});

/** `body` sent with chunked transfer encoding (no Content-Length); resolves with the status line. */
function chunked(body: string): Promise<string> {
  const { port } = open.server;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n`,
      );
      for (let at = 0; at < body.length && !socket.destroyed; at += 65_536) {
        const piece = body.slice(at, at + 65_536);
        socket.write(`${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`);
      }
      if (!socket.destroyed) socket.write('0\r\n\r\n');
    });
    let answer = '';
    socket.on('data', (data: Buffer) => {
      answer += data.toString('latin1');
      if (answer.includes('\r\n')) {
        socket.destroy();
        resolve(answer.slice(0, answer.indexOf('\r\n')));
      }
    });
    // The server may close while the body is still being written: what it answered counts.
    socket.on('error', () => undefined);
    socket.on('close', () => (answer ? resolve(answer.split('\r\n')[0] as string) : reject(new Error('no answer'))));
  });
}

/** A POST that declares a body it never finishes sending; resolves once its first bytes are written. */
function neverEnding(): Promise<Socket> {
  const { port } = open.server;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000000\r\n\r\n{"jsonrpc":"2.0",`,
        () => resolve(socket),
      );
    });
    socket.on('error', reject);
  });
}
