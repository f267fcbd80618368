// Session records another replica reads back damaged (cut, wrong types, another version's, huge):
// SessionTable refuses each as no session (a 404, the client initializes again), never builds a
// server from it, never throws. The records are a plain map standing in for the shared store; the
// table and its record reading are the real ones.

import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../../src/edge/endpoints.js';
import { SessionTable } from '../../src/edge/sessions.js';
import type { SessionRecords } from '../../src/state/shared-state.js';

const OWNER = createHash('sha256').update('token').digest();
const ENDPOINT = { path: '/mcp' } as Endpoint;
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
};
const whole = { owner: OWNER.toString('hex'), endpoint: ENDPOINT.path, initialize: INITIALIZE };

function table(record: string): { sessions: SessionTable; servers: () => number } {
  let servers = 0;
  const records: SessionRecords = {
    put: async () => true,
    get: async () => record,
    touch: async () => 'live',
    drop: async () => undefined,
  };
  const sessions = new SessionTable({
    max: 10,
    idleMs: 60_000,
    records,
    newServer: () => {
      servers += 1;
      throw new Error('a server was built from a damaged record');
    },
    log: () => undefined,
  });
  return { sessions, servers: () => servers };
}

describe('a shared session record read back damaged', () => {
  const text = JSON.stringify(whole);
  const damaged: Record<string, string> = {
    cut: text.slice(0, text.length - 5),
    'not JSON': '\u0000\u0001',
    null: 'null',
    'a string': '"record"',
    'an array': JSON.stringify([whole]),
    'owner not hex': JSON.stringify({ ...whole, owner: 'z'.repeat(64) }),
    'owner a number': JSON.stringify({ ...whole, owner: 7 }),
    'endpoint an object': JSON.stringify({ ...whole, endpoint: { path: '/mcp' } }),
    'no initialize': JSON.stringify({ owner: whole.owner, endpoint: whole.endpoint }),
    'another method': JSON.stringify({ ...whole, initialize: { ...INITIALIZE, method: 'tools/list' } }),
    'initialize without params': JSON.stringify({
      ...whole,
      initialize: { jsonrpc: '2.0', id: 1, method: 'initialize' },
    }),
    'another endpoint': JSON.stringify({ ...whole, endpoint: '/groups/other/mcp' }),
    "another owner's": JSON.stringify({ ...whole, owner: 'a'.repeat(64) }),
    huge: JSON.stringify({ ...whole, owner: 'f'.repeat(8 * 1024 * 1024) }),
  };
  for (const [damage, record] of Object.entries(damaged)) {
    it(`${damage}: no session, no server built`, async () => {
      const { sessions, servers } = table(record);
      // Refused before the request is touched: neither is read.
      const req = {} as IncomingMessage;
      const res = {} as ServerResponse;
      await expect(sessions.handle('id-1', req, res, {}, ENDPOINT, OWNER, undefined)).resolves.toBe('missing');
      expect(servers()).toBe(0);
    });
  }

  it('whole, it is taken over (the guard above can fail)', async () => {
    const { sessions, servers } = table(text);
    await expect(
      sessions.handle('id-1', {} as IncomingMessage, {} as ServerResponse, {}, ENDPOINT, OWNER, undefined),
    ).rejects.toThrow('a server was built');
    expect(servers()).toBe(1);
  });
});
