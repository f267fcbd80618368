// Issue 28, point 4: a session opened on one replica continues on another, through session
// records in a real Redis (src/edge/sessions.ts). Two Streamable HTTP servers in this process, each
// with a catalog and a Redis connection of its own, stand for two replicas; the official SDK
// client opens the session on the first, and raw requests carry its id to the second. Attacked:
// another token or another endpoint cannot take a session over; a DELETE at one replica ends the
// session at the other; a record that is not one of ours is no session; without shared records
// (the base) the second replica does not know the session.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessGate } from '../../src/edge/auth.js';
import { RedisState } from '../../src/state/redis-state.js';
import type { SessionRecords } from '../../src/state/shared-state.js';
import { MCP_HEADERS, rawRequest } from '../edge/helpers.js';
import { REDIS_INSTALLED, REDIS_MISSING, startRedis, type RedisServer } from '../state/redis-server.js';
import { startCatalogUpstream, startHttpFixture, type CatalogUpstream, type HttpFixture } from './helpers.js';

if (!REDIS_INSTALLED) console.warn(REDIS_MISSING);

const OWNER = 'session-owner-token-0123456789ab';
const OTHER = 'another-valid-token-0123456789ab';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: 'widgets_getWidget', arguments: { id: 'w-7' } },
});

describe.skipIf(!REDIS_INSTALLED)('sessions shared by two replicas through Redis', () => {
  let redis: RedisServer;
  let upstream: CatalogUpstream;
  const states: RedisState[] = [];
  let first: HttpFixture;
  let second: HttpFixture;
  let unshared: HttpFixture;
  const clients: Client[] = [];

  const replica = async (records: SessionRecords | null): Promise<HttpFixture> =>
    startHttpFixture(upstream, {
      sessions: true,
      sessionRecords: records,
      access: AccessGate.create({ host: '127.0.0.1', tokens: [OWNER, OTHER] }),
      groups: [{ name: 'all', serving: {} }],
    });
  const sharedRecords = async (): Promise<SessionRecords> => {
    const state = new RedisState(redis.url, { commandTimeoutMs: 2000 });
    await state.connect(5000);
    states.push(state);
    return state.sessions;
  };

  beforeAll(async () => {
    redis = await startRedis();
    upstream = await startCatalogUpstream();
    first = await replica(await sharedRecords());
    second = await replica(await sharedRecords());
    unshared = await replica(null);
  }, 60_000);

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    for (const fixture of [first, second, unshared]) await fixture?.close();
    for (const state of states) await state.close();
    await upstream?.close();
    await redis?.kill();
  });

  /** A session opened on the first replica by the SDK client; its id and headers. */
  async function openOnFirst(): Promise<{ client: Client; id: string; headers: Record<string, string> }> {
    const transport = new StreamableHTTPClientTransport(new URL(first.server.url), {
      requestInit: { headers: bearer(OWNER) },
    });
    const client = new Client({ name: 'moving-client', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    const id = transport.sessionId as string;
    expect(id).toBeTruthy();
    return {
      client,
      id,
      headers: { ...MCP_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION },
    };
  }

  /** The JSON-RPC message of an answer, plain JSON or the one event of a stream. */
  const message = (body: string) =>
    JSON.parse(body.startsWith('{') ? body : (/^data: (.*)$/m.exec(body)?.[1] as string)) as {
      result?: { content: Array<{ text: string }>; isError?: boolean };
      error?: { message: string };
    };

  it('continues on the second replica a session the first opened: a call there is answered, under the same id', async () => {
    const { client, id, headers } = await openOnFirst();
    const before = upstream.records.length;
    const called = await rawRequest(second.server.url, {
      method: 'POST',
      headers: { ...headers, ...bearer(OWNER) },
      body: CALL,
    });
    expect(called.status).toBe(200);
    expect(called.headers['mcp-session-id']).toBe(id);
    const answer = message(called.body);
    expect(answer.result?.isError ?? false).toBe(false);
    expect(answer.result?.content[0]?.text).toContain('w-7');
    expect(upstream.records.length - before).toBe(1);
    // And it goes on where it was opened too.
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('a replica without shared records does not know a session another opened (the base behaviour)', async () => {
    const { headers } = await openOnFirst();
    const called = await rawRequest(unshared.server.url, {
      method: 'POST',
      headers: { ...headers, ...bearer(OWNER) },
      body: CALL,
    });
    expect(called.status).toBe(404);
  });

  it('another token, or the same id at another endpoint, cannot take a session over', async () => {
    const { headers } = await openOnFirst();
    const before = upstream.records.length;
    const stranger = await rawRequest(second.server.url, {
      method: 'POST',
      headers: { ...headers, ...bearer(OTHER) },
      body: CALL,
    });
    expect(stranger.status).toBe(404);
    expect(message(stranger.body).error?.message).toContain('Session not found');
    const elsewhere = await rawRequest(`${second.server.url}/all`, {
      method: 'POST',
      headers: { ...headers, ...bearer(OWNER) },
      body: CALL,
    });
    expect(elsewhere.status).toBe(404);
    expect(upstream.records.length).toBe(before);
    // Taken over by its owner, the session there is still only the owner's.
    expect(
      (await rawRequest(second.server.url, { method: 'POST', headers: { ...headers, ...bearer(OWNER) }, body: CALL }))
        .status,
    ).toBe(200);
    expect(
      (await rawRequest(second.server.url, { method: 'POST', headers: { ...headers, ...bearer(OTHER) }, body: CALL }))
        .status,
    ).toBe(404);
  });

  it('a DELETE at one replica ends the session at both', async () => {
    const { headers } = await openOnFirst();
    const session = {
      'mcp-session-id': headers['mcp-session-id'] as string,
      'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
    };
    expect(
      (await rawRequest(second.server.url, { method: 'POST', headers: { ...headers, ...bearer(OWNER) }, body: CALL }))
        .status,
    ).toBe(200);
    expect(
      (await rawRequest(second.server.url, { method: 'DELETE', headers: { ...session, ...bearer(OWNER) } })).status,
    ).toBe(200);
    // The first replica still holds its copy in memory; the record's absence ends it.
    expect(
      (await rawRequest(first.server.url, { method: 'POST', headers: { ...headers, ...bearer(OWNER) }, body: CALL }))
        .status,
    ).toBe(404);
    expect(
      (await rawRequest(second.server.url, { method: 'POST', headers: { ...headers, ...bearer(OWNER) }, body: CALL }))
        .status,
    ).toBe(404);
  });

  it('a record that is not one of ours is no session, and the replica goes on', async () => {
    const records = states[0]?.sessions as SessionRecords;
    const forged = 'a-session-id-nobody-opened';
    for (const text of [
      'not json',
      JSON.stringify({ owner: 'x', endpoint: '/mcp', initialize: {} }),
      JSON.stringify({
        owner: '0'.repeat(64),
        endpoint: '/mcp',
        initialize: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      }),
    ]) {
      expect(await records.put(forged, text, 60_000)).toBe(true);
      const answer = await rawRequest(second.server.url, {
        method: 'POST',
        headers: {
          ...MCP_HEADERS,
          'mcp-session-id': forged,
          'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
          ...bearer(OWNER),
        },
        body: CALL,
      });
      expect(answer.status).toBe(404);
    }
    const { client } = await openOnFirst();
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });
});
