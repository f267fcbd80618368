// Issue 23, points 11c and 11d, against the real Streamable HTTP server on 127.0.0.1:
// - a session belongs to the bearer token that opened it: another valid token gets 404 for its
//   id, on requests and on DELETE, and the session goes on for its owner;
// - two Host lines are a 400 (RFC 9112), whichever comes first: sent as raw bytes, since node's
//   own client would not send them.

import { connect } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessGate } from '../../src/edge/auth.js';
import { startHttpServer } from '../../src/edge/http.js';
import { LiveCatalog } from '../../src/mcp/live-catalog.js';
import { actsOnTerminal } from '../../src/report/format.js';
import { waitFor } from '../support/wait.js';
import {
  loadFixtureCatalog,
  startCatalogUpstream,
  startHttpFixture,
  type CatalogUpstream,
  type HttpFixture,
} from '../mcp/helpers.js';
import { LIST_BODY, MCP_HEADERS, rawRequest } from './helpers.js';

const OWNER = 'session-owner-token-0123456789ab';
const OTHER = 'another-valid-token-0123456789ab';
const THIRD = 'a-third-valid-token-0123456789ab';

let upstream: CatalogUpstream;
let sessions: HttpFixture;
let open: HttpFixture;
beforeAll(async () => {
  upstream = await startCatalogUpstream();
  sessions = await startHttpFixture(upstream, {
    sessions: true,
    access: AccessGate.create({ host: '127.0.0.1', tokens: [OWNER, OTHER] }),
  });
  open = await startHttpFixture(upstream, {});
});
afterAll(async () => {
  await sessions?.close();
  await open?.close();
  await upstream?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('a session belongs to the token that opened it (11c)', () => {
  it('another valid token gets 404 for the session id, on a request and on DELETE; the owner goes on, and only the owner ends it', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(sessions.server.url), {
      requestInit: { headers: bearer(OWNER) },
    });
    const client = new Client({ name: 'owner', version: '1.0.0' });
    await client.connect(transport);
    const id = transport.sessionId as string;
    expect(id).toBeTruthy();
    const session = { 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' };

    const before = upstream.records.length;
    const listed = await rawRequest(sessions.server.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, ...session, ...bearer(OTHER) },
      body: LIST_BODY,
    });
    expect(listed.status).toBe(404);
    expect(JSON.parse(listed.body).error.message).toContain('Session not found');
    const called = await rawRequest(sessions.server.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, ...session, ...bearer(OTHER) },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'widgets_getWidget', arguments: { id: 'w-1' } },
      }),
    });
    expect(called.status).toBe(404);
    expect(upstream.records.length).toBe(before);
    expect(
      (await rawRequest(sessions.server.url, { method: 'DELETE', headers: { ...session, ...bearer(OTHER) } })).status,
    ).toBe(404);

    // Still the owner's: it lists, and its DELETE ends it.
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect(
      (await rawRequest(sessions.server.url, { method: 'DELETE', headers: { ...session, ...bearer(OWNER) } })).status,
    ).toBe(200);
    const gone = await rawRequest(sessions.server.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, ...session, ...bearer(OWNER) },
      body: LIST_BODY,
    });
    expect(gone.status).toBe(404);
    await client.close();
  });
});

describe('a full session table locks no one out', () => {
  let small: HttpFixture;
  beforeAll(async () => {
    small = await startHttpFixture(upstream, {
      sessions: true,
      maxSessions: 3,
      access: AccessGate.create({ host: '127.0.0.1', tokens: [OWNER, OTHER, THIRD] }),
    });
  });
  afterAll(() => small?.close());

  const INITIALIZE = JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1' } },
  });
  /** Opens a session for `token`: its id, or the status that refused it. */
  async function open(token: string): Promise<string | number> {
    const answer = await rawRequest(small.server.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, ...bearer(token) },
      body: INITIALIZE,
    });
    return answer.status === 200 ? (answer.headers['mcp-session-id'] as string) : answer.status;
  }
  async function lists(token: string, id: string): Promise<number> {
    const headers = { ...MCP_HEADERS, ...bearer(token), 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' };
    return (await rawRequest(small.server.url, { method: 'POST', headers, body: LIST_BODY })).status;
  }

  it("one token opening sessions without end churns its own: another token's session goes on, and a new one opens", async () => {
    const kept = await open(OWNER);
    expect(typeof kept).toBe('string');
    const flood: Array<string | number> = [];
    for (let count = 0; count < 12; count += 1) flood.push(await open(OTHER));
    // Every one opened: each past the bound closed the flooder's own session idle longest.
    expect(flood.every((id) => typeof id === 'string')).toBe(true);
    expect(await lists(OTHER, flood[0] as string)).toBe(404);
    expect(await lists(OTHER, flood[11] as string)).toBe(200);
    expect(await lists(OWNER, kept as string)).toBe(200);
    const second = await open(OWNER);
    expect(typeof second).toBe('string');
    expect(await lists(OWNER, second as string)).toBe(200);
  });

  it('an initialize the transport refuses makes no room: at the bound, no other session is closed for it', async () => {
    // A table of its own, filled by three sessions none of which closes another.
    await small.close();
    small = await startHttpFixture(upstream, {
      sessions: true,
      maxSessions: 3,
      access: AccessGate.create({ host: '127.0.0.1', tokens: [OWNER, OTHER, THIRD] }),
    });
    const held = [await open(OWNER), await open(OTHER), await open(OTHER)];
    expect(held.every((id) => typeof id === 'string')).toBe(true);
    // A token holding no session: were room made for it, each refusal would close the idlest of anyone's.
    for (let count = 0; count < 6; count += 1) {
      const refused = await rawRequest(small.server.url, {
        method: 'POST',
        headers: { ...MCP_HEADERS, accept: 'application/json', ...bearer(THIRD) },
        body: INITIALIZE,
      });
      expect(refused.status).toBe(406);
    }
    expect(await lists(OWNER, held[0] as string)).toBe(200);
    expect(await lists(OTHER, held[1] as string)).toBe(200);
    expect(await lists(OTHER, held[2] as string)).toBe(200);
  });
});

describe('an initialize the transport refuses leaves no server behind', () => {
  // Every MCP server the HTTP server makes listens to the catalog for tool changes until it
  // closes: the listeners held are the servers held. A session that was never opened is no one's
  // to close (no id, no idle timer, not counted against the bound), so its server must not stay.
  let listening = 0;
  let live: LiveCatalog;
  let server: Awaited<ReturnType<typeof startHttpServer>>;
  beforeAll(async () => {
    live = new LiveCatalog(await loadFixtureCatalog(upstream));
    const listen = live.onToolsChanged.bind(live);
    live.onToolsChanged = (listener) => {
      listening += 1;
      const stop = listen(listener);
      let stopped = false;
      return () => {
        if (!stopped) listening -= 1;
        stopped = true;
        stop();
      };
    };
    server = await startHttpServer(live, { port: 0, sessions: true, log: () => undefined });
  });
  afterAll(async () => {
    await server?.close();
    await live?.close();
  });

  const initialize = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'refused', version: '1' } },
  });
  const refused: Array<[string, Record<string, string>, unknown, number]> = [
    ['no text/event-stream in Accept', { ...MCP_HEADERS, accept: 'application/json' }, initialize(0), 406],
    ['a Content-Type other than JSON', { ...MCP_HEADERS, 'content-type': 'text/plain' }, initialize(0), 415],
    ['two initialize requests in a batch', MCP_HEADERS, [initialize(0), initialize(1)], 400],
    ['initialize and a ping in a batch', MCP_HEADERS, [initialize(0), { jsonrpc: '2.0', id: 2, method: 'ping' }], 400],
  ];
  it.each(refused)('%s: refused, and 200 of them hold nothing', async (_case, headers, body, status) => {
    const before = listening;
    for (let count = 0; count < 200; count += 1) {
      const answer = await rawRequest(server.url, { method: 'POST', headers, body: JSON.stringify(body) });
      expect(answer.status).toBe(status);
      expect(answer.headers['mcp-session-id']).toBeUndefined();
    }
    expect(listening).toBe(before);
  });

  it('a session opened after them is served, and held until it ends', async () => {
    const before = listening;
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    const client = new Client({ name: 'after', version: '1.0.0' });
    await client.connect(transport);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect(listening).toBe(before + 1);
    await transport.terminateSession();
    await client.close();
    expect(listening).toBe(before);
  });
});

/** One request written as raw bytes; resolves with the status line's code. */
function rawHttp(port: number, lines: string[], body = ''): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk: Buffer) => void (text += chunk.toString('latin1')));
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)));
    socket.on('error', reject);
    socket.write(
      `${[...lines, `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close'].join('\r\n')}\r\n\r\n${body}`,
    );
  });
}

describe('more than one Host line is a 400 (11d)', () => {
  const post = (hosts: string[]) =>
    rawHttp(
      open.server.port,
      [
        'POST /mcp HTTP/1.1',
        ...hosts.map((host) => `Host: ${host}`),
        'Content-Type: application/json',
        'Accept: application/json, text/event-stream',
      ],
      LIST_BODY,
    );

  it.each([
    [['localhost', 'evil.example']],
    [['evil.example', 'localhost']],
    [['localhost', 'localhost']],
    [['127.0.0.1', '127.0.0.1:1']],
  ])('Host lines %j: 400, nothing served', async (hosts) => {
    const before = upstream.records.length;
    expect(await post(hosts)).toBe(400);
    expect(upstream.records.length).toBe(before);
  });

  it('a header spelled `host` in lower case counts as a Host line too', async () => {
    expect(await rawHttp(open.server.port, ['GET /healthz HTTP/1.1', 'Host: localhost', 'host: evil.example'])).toBe(
      400,
    );
  });

  it('one Host line is served as before', async () => {
    expect(await post(['localhost'])).toBe(200);
  });
});

// An eleventh review: what a client sends reaches the server's plain-text log lines (`flowguard:
// http: ...`, stderr under `serve`): an SDK error quotes the message it could not place, JSON-
// escaped, which leaves an 8-bit CSI (U+009B) and a right-to-left override (U+202E) as they are.
// Every line logged is text in which nothing acts on the terminal, and one line however the
// client wrote it.
describe("a client's text in the server's log lines", () => {
  it('is escaped: no control or bidi character, no line break, reaches a log line', async () => {
    const lines: string[] = [];
    const logged = await startHttpFixture(upstream, { log: (line) => void lines.push(line) });
    try {
      const hostile = '\u009b2J\u202e\u001b]0;pwned\u0007\nflowguard: FORGED';
      for (const body of [
        { jsonrpc: '2.0', id: hostile, result: {} },
        { jsonrpc: '2.0', id: 7, error: { code: 1, message: hostile } },
      ]) {
        const answer = await rawRequest(logged.server.url, {
          method: 'POST',
          headers: MCP_HEADERS,
          body: JSON.stringify(body),
        });
        expect(answer.status).toBeLessThan(500);
      }
      expect(await waitFor(() => lines.length >= 2, 5_000), lines.join('\n')).toBe(true);
      for (const line of lines) {
        expect(
          [...line].filter((char) => actsOnTerminal(char)),
          line,
        ).toEqual([]);
        expect(line).not.toContain('\n');
      }
    } finally {
      await logged.close();
    }
  });
});
