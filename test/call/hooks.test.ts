// The handler contract (decision R7) through a real sandbox worker.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPostRequest, runPreRequest, type RequestStruct } from '../../src/call/hooks.js';
import { SandboxHost } from '../../src/sandbox/host.js';

const FACTORY = `({ sharedLists, libraries }) => ({
  keepsPayload: { preRequest: async ({ struct, payload }) => { struct.url += '?q=' + payload.q; struct.headers.accept = 'application/json'; return { struct } } },
  newPayload: { preRequest: async ({ struct, payload }) => ({ struct, payload: { q: payload.q.toUpperCase() } }) },
  changesMethod: { preRequest: async ({ struct }) => { struct.method = 'DELETE'; return { struct } } },
  untextableMethod: { preRequest: async ({ struct }) => { struct.method = { toString: 0 }; return { struct } } },
  addsToStruct: { preRequest: async ({ struct }) => { struct.proxy = 'http://127.0.0.1:9'; return { struct } } },
  badHeaders: { preRequest: async ({ struct }) => { struct.headers = { n: 1 }; return { struct } } },
  badPayload: { preRequest: async ({ struct }) => ({ struct, payload: [1] }) },
  reshapes: { postRequest: async ({ response, payload }) => ({ response: { total: response.items.length, q: payload.q } }) },
  passesOn: { postRequest: async ({ response }) => ({ response: response.missing }) },
  returnsEmpty: { postRequest: async () => ({}) },
  returnsNull: { postRequest: async () => ({ response: null }) },
})`;
const ROUTES = [
  'keepsPayload',
  'newPayload',
  'changesMethod',
  'untextableMethod',
  'addsToStruct',
  'badHeaders',
  'badPayload',
  'reshapes',
  'passesOn',
  'returnsEmpty',
  'returnsNull',
];

let sandbox: SandboxHost;
beforeAll(async () => {
  sandbox = new SandboxHost({ size: 1 });
  const loaded = await sandbox.load({ id: 'unit', source: FACTORY, routes: ROUTES, libraries: [], sharedLists: {} });
  expect(loaded.ok).toBe(true);
});
afterAll(() => sandbox.close());

const struct = (): RequestStruct => ({ url: 'https://api.example.com/search', method: 'GET', headers: {}, body: null });

describe('preRequest', () => {
  it('may change url and headers and keep the payload by returning { struct }', async () => {
    expect(await runPreRequest(sandbox, 'unit', 'keepsPayload', struct(), { q: 'eth' })).toEqual({
      ok: true,
      value: {
        struct: {
          url: 'https://api.example.com/search?q=eth',
          method: 'GET',
          headers: { accept: 'application/json' },
          body: null,
        },
        payload: { q: 'eth' },
      },
    });
  });

  it('may return a new payload', async () => {
    const outcome = await runPreRequest(sandbox, 'unit', 'newPayload', struct(), { q: 'eth' });
    expect(outcome.ok && outcome.value.payload).toEqual({ q: 'ETH' });
  });

  it.each([
    ['changesMethod', 'preRequest changed the method from GET to "DELETE"; only url, headers and body may change'],
    [
      'untextableMethod',
      'preRequest changed the method from GET to {"toString":0}; only url, headers and body may change',
    ],
    ['addsToStruct', 'preRequest added proxy to struct; it may change url, headers and body'],
    ['badHeaders', 'preRequest left struct.headers that are not an object of strings'],
    ['badPayload', 'preRequest returned a payload that is not an object'],
  ])('%s is SEC101', async (route, message) => {
    expect(await runPreRequest(sandbox, 'unit', route, struct(), { q: 'eth' })).toEqual({
      ok: false,
      failure: { code: 'SEC101', message },
    });
  });
});

describe('postRequest', () => {
  it('hands back the response it returns', async () => {
    const outcome = await runPostRequest(sandbox, 'unit', 'reshapes', {
      response: { items: [1, 2, 3] },
      struct: struct(),
      payload: { q: 'eth' },
    });
    expect(outcome).toEqual({ ok: true, value: { response: { total: 3, q: 'eth' } } });
  });

  it('passes the answer on when it returns { response: undefined }, as the reference does', async () => {
    const outcome = await runPostRequest(sandbox, 'unit', 'passesOn', {
      response: { items: [] },
      struct: struct(),
      payload: {},
    });
    expect(outcome).toEqual({ ok: true, value: { passThrough: true } });
  });

  it('hands back null as null, and refuses {} without a response key (SEC101)', async () => {
    expect(
      await runPostRequest(sandbox, 'unit', 'returnsNull', { response: {}, struct: struct(), payload: {} }),
    ).toEqual({ ok: true, value: { response: null } });
    expect(
      await runPostRequest(sandbox, 'unit', 'returnsEmpty', { response: {}, struct: struct(), payload: {} }),
    ).toEqual({
      ok: false,
      failure: { code: 'SEC101', message: 'postRequest must return { response }' },
    });
  });
});
