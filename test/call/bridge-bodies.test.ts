// Issue 23, guarantee 9 (the bridge's half): bodies and answers are what they claim. A bridged
// request's body goes out as the bytes it holds, whatever the handler passed: text as UTF-8, a
// Uint8Array, an ArrayBuffer, a DataView, an array of chunks, a generator or async generator of
// Uint8Array (they went out as "[object ArrayBuffer]" and the like, and bytes were decoded as
// UTF-8). A key token among bytes that are no UTF-8 is filled in and the bytes around it kept.
// An answer's text() and json() follow the core's own rule: its charset, and bytes that are not
// valid in it are an error naming the origin (they were silently replaced); arrayBuffer() still
// gives the bytes.
//
// Real parts: the real sandbox and a loopback upstream that records the exact bytes it received.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/runtime/catalog.js';
import { loadProjectCatalog, type ProjectCatalog } from '../kit/catalog.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const KEY = 'bytes-key-value-2718281828';

const SCHEMA = `export const main = {
    namespace: 'bytes', name: 'Bytes', description: 'Sends and reads bytes.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.bytes.test',
    requiredServerParams: ['BYTES_KEY'],
    routes: {
        send: { method: 'GET', path: '/echo', description: 'Posts a body of the kind asked for.', parameters: [{ position: { key: 'kind', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: [] } }], tests: [{ _description: 'a', kind: 'text' }] },
        read: { method: 'GET', path: '/answer', description: 'Reads an answer of the kind asked for.', parameters: [{ position: { key: 'kind', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: [] } }], tests: [{ _description: 'a', kind: 'bad-utf8' }] }
    }
};
export const handlers = () => {
    const bytes = (...values) => new Uint8Array(values);
    const bodies = {
        text: () => 'h\\u00e9llo \\u20ac',
        uint8: () => bytes(0xc3, 0x28, 0xff, 0x00),
        arraybuffer: () => bytes(0xff, 0x00, 0x80, 0x41).buffer,
        dataview: () => new DataView(bytes(9, 0xff, 0xfe, 0x42, 7).buffer, 1, 3),
        int16: () => new Int16Array([-1, 258]),
        chunks: () => [bytes(0xff), bytes(0x00, 0x01), 'z'],
        generator: () => (function* () { yield bytes(0xfe); yield bytes(0xff, 0x80); })(),
        asyncGenerator: () => (async function* () { yield bytes(0x81); yield bytes(0x00); })(),
        params: () => new URLSearchParams({ a: '1 2', b: '\\u00e9' }),
        keyed: (token) => new Uint8Array([0xff, ...new TextEncoder().encode(token), 0x00])
    };
    return {
        send: { executeRequest: async ({ payload }) => {
            const body = bodies[payload.userParams.kind](payload.serverParams.BYTES_KEY);
            const answer = await fetch('https://api.bytes.test/echo', { method: 'POST', body });
            return { response: answer.status };
        } },
        read: { executeRequest: async ({ payload }) => {
            const answer = await fetch('https://api.bytes.test/answer/' + payload.userParams.kind);
            const read = async (how) => { try { return { value: await how() }; } catch (error) { return { error: error.message }; } };
            return { response: {
                text: await read(() => answer.text()),
                json: await read(() => answer.json()),
                bytes: Array.from(new Uint8Array(await answer.arrayBuffer()))
            } };
        } }
    };
};
`;

const ANSWERS: Record<string, { type: string; body: Buffer }> = {
  'bad-utf8': { type: 'text/plain', body: Buffer.from([0xff, 0xfe, 0x41]) },
  'bad-json': { type: 'application/json', body: Buffer.from([0x22, 0xc3, 0x28, 0x22]) },
  latin1: { type: 'text/plain; charset=iso-8859-1', body: Buffer.from([0xe9, 0x74, 0xe9]) },
  good: { type: 'application/json', body: Buffer.from('{"caf\u00e9":1}') },
};

let upstream: Upstream;
let loaded: ProjectCatalog | undefined;
let catalog: Catalog;

beforeAll(async () => {
  upstream = await startUpstream((req, res) => {
    const answer = ANSWERS[(req.url ?? '').replace('/answer/', '')];
    if (answer) res.writeHead(200, { 'content-type': answer.type }).end(answer.body);
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  loaded = await loadProjectCatalog(
    { schemas: { 'bytes.mjs': SCHEMA } },
    { keys: { BYTES_KEY: KEY }, upstreams: { 'https://api.bytes.test': upstream.origin }, sandbox: { size: 1 } },
  );
  catalog = loaded.catalog;
}, 30_000);
afterAll(async () => {
  await loaded?.close();
  await upstream?.close();
});

/** The bytes the upstream received for a body of `kind`. */
async function sent(kind: string): Promise<Buffer> {
  const mark = upstream.records.length;
  expect(await catalog.call('bytes_send', { kind })).toMatchObject({ ok: true, content: { value: 200 } });
  const received = upstream.records.slice(mark);
  expect(received).toHaveLength(1);
  return (received[0] as { bytes: Buffer }).bytes;
}

describe('a bridged request body goes out as the bytes it holds', () => {
  it.each([
    ['text', Buffer.from('h\u00e9llo \u20ac', 'utf8')],
    ['uint8', Buffer.from([0xc3, 0x28, 0xff, 0x00])],
    ['arraybuffer', Buffer.from([0xff, 0x00, 0x80, 0x41])],
    ['dataview', Buffer.from([0xff, 0xfe, 0x42])],
    ['int16', Buffer.from(new Int16Array([-1, 258]).buffer)],
    ['chunks', Buffer.from([0xff, 0x00, 0x01, 0x7a])],
    ['generator', Buffer.from([0xfe, 0xff, 0x80])],
    ['asyncGenerator', Buffer.from([0x81, 0x00])],
    ['params', Buffer.from('a=1+2&b=%C3%A9')],
  ])('%s', async (kind, bytes) => {
    expect((await sent(kind)).toString('hex')).toBe(bytes.toString('hex'));
  });

  it('a key token among bytes that are no UTF-8: the key is filled in, every other byte kept', async () => {
    expect((await sent('keyed')).toString('hex')).toBe(
      Buffer.concat([Buffer.from([0xff]), Buffer.from(KEY), Buffer.from([0x00])]).toString('hex'),
    );
  });
});

describe("a bridged answer's text is what its charset says, or an error", () => {
  type Read = { text: { value?: string; error?: string }; json: { value?: unknown; error?: string }; bytes: number[] };
  async function read(kind: string): Promise<Read> {
    const result = await catalog.call('bytes_read', { kind });
    expect(result.ok).toBe(true);
    return (result as unknown as { content: { value: Read } }).content.value;
  }

  it('bytes that are no UTF-8: text() and json() refuse them naming the origin; arrayBuffer() gives them', async () => {
    const answer = await read('bad-utf8');
    expect(answer.text.error).toMatch(/^the answer from https:\/\/api\.bytes\.test is not valid utf-8 text/);
    expect(answer.json.error).toMatch(/^the answer from https:\/\/api\.bytes\.test is not valid utf-8 text/);
    expect(answer.bytes).toEqual([0xff, 0xfe, 0x41]);
    expect((await read('bad-json')).json.error).toMatch(/not valid utf-8 text/);
  });

  it('a declared charset is read as that charset, as the core reads it', async () => {
    expect((await read('latin1')).text).toEqual({ value: '\u00e9t\u00e9' });
  });

  it('valid UTF-8 reads as before', async () => {
    expect((await read('good')).json).toEqual({ value: { 'caf\u00e9': 1 } });
  });
});
