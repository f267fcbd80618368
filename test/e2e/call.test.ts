// Issue 4, the call path end to end: Catalog.load over real fixture schemas, catalog.call, and a
// real node:http server on 127.0.0.1 that records every request exactly as it arrives. The
// schemas' root is https://api.example.test; the catalog sends to the loopback server through
// `upstreams: { '*': ... }` after building and pinning the request for the schema's origin.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallResult } from '../../src/call/outcome.js';
import { Catalog } from '../../src/runtime/catalog.js';
import { tempProject } from '../kit/project.js';
import type { Recorded } from '../support/upstream.js';
import { waitFor } from '../support/wait.js';
import { KEY, SCHEMAS, startBehaving, type BehavingUpstream } from './helpers.js';

let main: BehavingUpstream;
/** The other origin: redirects must never reach it. */
let other: BehavingUpstream;
/** Where requests for https://polygon.rpc.example.test go (the marker test). */
let polygon: BehavingUpstream;
let catalog: Catalog;
let quick: Catalog;
// Tests here share the fixture origins: a 429 of one test must not pause the origin for the next (src/guard/ has its own suite).
const project = tempProject({ config: { upstreamLimits: { maxPauseSeconds: 0 } } });

beforeAll(async () => {
  [main, other, polygon] = await Promise.all([startBehaving(), startBehaving(), startBehaving()]);
  main.otherOrigin = other.origin;
  const upstreams = { '*': main.origin, 'https://polygon.rpc.example.test': polygon.origin };
  [catalog, quick] = await Promise.all([
    Catalog.load({
      schemas: SCHEMAS,
      project: project.dir,
      env: {},
      keys: { CANARY_KEY: KEY, EMPTY_KEY: '' },
      upstreams,
      sandbox: { size: 1 },
    }),
    // The timeout catalog: one schema file without handlers, a 300 ms total deadline.
    Catalog.load({
      schemas: join(SCHEMAS, 'params', 'locations.mjs'),
      project: project.dir,
      env: {},
      upstreams,
      http: { totalTimeoutMs: 300 },
    }),
  ]);
}, 30_000);

afterAll(async () => {
  await Promise.all([catalog?.close(), quick?.close()]);
  await Promise.all([main?.close(), other?.close(), polygon?.close()]);
  project.remove();
});

interface Outcome {
  result: CallResult;
  /** What the main server received during the call. */
  sent: Recorded[];
  /** What the other two servers received during the call. */
  elsewhere: Recorded[];
}

async function call(name: string, args: unknown, on: Catalog = catalog, signal?: AbortSignal): Promise<Outcome> {
  const marks = [main.records.length, other.records.length, polygon.records.length] as const;
  const called = await on.call(name, args, signal ? { signal } : {});
  // `requests`, the record of what the call sent, is test/observe/'s subject; these tests compare the rest.
  const { requests: _sent, ...result } = called as CallResult & { requests?: unknown };
  return {
    result: result as CallResult,
    sent: main.since(marks[0]),
    elsewhere: [...other.since(marks[1]), ...polygon.since(marks[2])],
  };
}

/** The headers every request without a body carries: undici's own, and the client's Accept-Encoding. */
function baseHeaders(server: BehavingUpstream = main): Record<string, string> {
  return { host: `127.0.0.1:${server.port}`, connection: 'keep-alive', 'accept-encoding': 'gzip, deflate, br' };
}

function get(url: string, headers: Record<string, string> = {}): Recorded {
  return { method: 'GET', url, headers: { ...baseHeaders(), ...headers }, body: '' };
}

function withBody(method: 'POST' | 'PUT', url: string, body: string, headers: Record<string, string> = {}): Recorded {
  return {
    method,
    url,
    headers: {
      ...baseHeaders(),
      'content-type': 'application/json',
      ...headers,
      'content-length': String(Buffer.byteLength(body)),
    },
    body,
  };
}

function failure(result: CallResult): { kind: string; message: string } | null {
  return result.ok ? null : result.error;
}

describe('the catalog', () => {
  it('loads every fixture schema without errors and hides only the tool whose key is empty', () => {
    expect(catalog.findings().filter((f) => f.severity === 'error')).toEqual([]);
    expect(catalog.schemas).toHaveLength(8);
    const hidden = catalog.tools.filter((tool) => !catalog.visibleTools().includes(tool)).map((tool) => tool.name);
    expect(hidden).toEqual(['missing_never']);
  });
});

describe('parameter locations and types', () => {
  it('fills {{key}} and :key inserts and sends string, number, boolean, enum and array query values in parameter order', async () => {
    const { result, sent } = await call('params_getItem', {
      id: 'a1',
      slug: 'first',
      q: 'hello',
      n: 2.5,
      flag: true,
      sort: 'asc',
      chain: 137,
      ids: ['x', 'y', 3],
      limit: 10,
      page: 2,
    });
    expect(sent).toEqual([
      get('/items/a1/first/view?q=hello&n=2.5&flag=true&sort=asc&chain=137&ids=x%2Cy%2C3&limit=10&page=2&format=json'),
    ]);
    expect(result).toEqual({ ok: true, status: 200, content: { kind: 'json', value: { ...sent[0] } } });
  });

  it('applies defaults when omitted, sends no optional parameter without default, and always sends the fixed value', async () => {
    const { sent } = await call('params_getItem', { id: 'a1', slug: 'first', q: 'x' });
    expect(sent).toEqual([get('/items/a1/first/view?q=x&sort=desc&limit=25&format=json')]);
  });

  it('sends false and 0 (falsy values are values, not omissions)', async () => {
    const { sent } = await call('params_getItem', { id: '0', slug: 'first', q: '', n: 0, flag: false });
    expect(sent).toEqual([get('/items/0/first/view?q=&n=0&flag=false&sort=desc&limit=25&format=json')]);
  });

  it('accepts a numeric enum value as a number and as a string and sends both the same', async () => {
    const asNumber = await call('params_getItem', { id: 'a', slug: 'b', q: 'x', chain: 5 });
    const asString = await call('params_getItem', { id: 'a', slug: 'b', q: 'x', chain: '5' });
    expect(asNumber.sent).toEqual([get('/items/a/b/view?q=x&sort=desc&chain=5&limit=25&format=json')]);
    expect(asString.sent).toEqual(asNumber.sent);
  });

  it('POST: a typed JSON body in parameter order (number, array, boolean, object, default, fixed), content-type application/json', async () => {
    const { sent } = await call('params_createThing', {
      id: 7,
      count: 3,
      ids: [1, 2],
      flag: true,
      meta: { a: 1, nested: { b: [true, null] } },
    });
    expect(sent).toEqual([
      withBody(
        'POST',
        '/things/7',
        '{"count":3,"ids":[1,2],"flag":true,"meta":{"a":1,"nested":{"b":[true,null]}},"name":"anon","kind":"widget"}',
      ),
    ]);
  });

  it('PUT: {"count":3,"ids":[1,2],"flag":true} exactly', async () => {
    const { sent } = await call('params_putThing', { id: 7, count: 3, ids: [1, 2], flag: true });
    expect(sent).toEqual([withBody('PUT', '/things/7', '{"count":3,"ids":[1,2],"flag":true}')]);
  });

  it('DELETE and GET send no body and no content-type', async () => {
    const deleted = await call('params_deleteThing', { id: 7, hard: false });
    expect(deleted.sent).toEqual([{ method: 'DELETE', url: '/things/7?hard=false', headers: baseHeaders(), body: '' }]);
    const got = await call('params_behave', { mode: 'json' });
    expect(got.sent).toEqual([get('/behave/json')]);
  });

  it('fixed body values keep the JSON type of their z block (R6: numbers stay numbers)', async () => {
    const { sent } = await call('params_fixedTyped', { name: 'x' });
    expect(sent).toEqual([withBody('POST', '/fixed', '{"limit":100,"live":true,"name":"x"}')]);
  });

  it('appends parameters to a literal query string in the path with &', async () => {
    const { sent } = await call('params_balance', { address: '0xAbC' });
    expect(sent).toEqual([get('/api?module=account&action=balance&address=0xAbC&tag=latest')]);
  });
});

describe('encoding', () => {
  it('/ ? # % and space stay inside one path segment and one query value', async () => {
    const { sent } = await call('params_encode', { segment: 'a/b?c#d%e f', text: 'a/b?c#d%e f&x=1' });
    expect(sent).toEqual([get('/enc/a%2Fb%3Fc%23d%25e%20f/end?text=a%2Fb%3Fc%23d%25e+f%26x%3D1')]);
  });

  it('ü, 日本 and an emoji are sent as UTF-8 percent-encoding in a segment and a query value', async () => {
    const { sent } = await call('params_encode', { segment: 'ü日本😀', text: 'ü日本😀' });
    expect(sent).toEqual([
      get('/enc/%C3%BC%E6%97%A5%E6%9C%AC%F0%9F%98%80/end?text=%C3%BC%E6%97%A5%E6%9C%AC%F0%9F%98%80'),
    ]);
  });

  it('percent signs and dots inside a segment are sent literally', async () => {
    const { sent } = await call('params_encode', { segment: '%2e%2e', text: '..' });
    const more = await call('params_encode', { segment: '...', text: '.' });
    expect([...sent, ...more.sent]).toEqual([get('/enc/%252e%252e/end?text=..'), get('/enc/.../end?text=.')]);
  });

  it('an insert of .. or . cannot climb out of its segment: refused, or sent as one segment', async () => {
    // WHATWG URLs drop dot segments: /enc/../end would reach /end, /items/../../view would reach /view.
    for (const segment of ['..', '.']) {
      const { result, sent } = await call('params_encode', { segment, text: 'x' });
      const refused = !result.ok && sent.length === 0;
      const oneSegment = sent.length > 0 && sent.every((request) => /^\/enc\/[^/]+\/end\?text=x$/.test(request.url));
      expect({ segment, sentTo: sent.map((request) => request.url), ok: refused || oneSegment }).toEqual({
        segment,
        sentTo: expect.anything(),
        ok: true,
      });
    }
    const both = await call('params_getItem', { id: '..', slug: '..', q: 'x' });
    expect(
      both.sent.every((request) => request.url.startsWith('/items/')),
      `sent to ${both.sent.map((request) => request.url).join(', ')}`,
    ).toBe(true);
  });
});

describe('--marker-- labels and the origin rule', () => {
  it('a preRequest fills the --chain-- label: the request goes to that chain host', async () => {
    const eth = await call('chains_blockNumber', { chain: 'eth' });
    expect(eth.sent).toEqual([get('/v1/block?tag=latest')]);
    expect(eth.elsewhere).toEqual([]);
    const poly = await call('chains_blockNumber', { chain: 'polygon', tag: '0x10' });
    expect(poly.sent).toEqual([]);
    expect(poly.elsewhere).toEqual([
      { method: 'GET', url: '/v1/block?tag=0x10', headers: baseHeaders(polygon), body: '' },
    ]);
  });

  it('a label that is not one DNS label, a preRequest that moves the URL to another host, and an unfilled marker: origin error, nothing sent', async () => {
    const origin = "the request left the schema's origin https://--chain--.rpc.example.test; refused";
    for (const [name, args] of [
      ['chains_anyLabel', { chain: 'evil.test#' }],
      ['chains_anyLabel', { chain: 'a.b' }],
      ['chains_anyLabel', { chain: 'evil.test/' }],
      ['chains_leave', {}],
      ['chains_unfilled', {}],
    ] as const) {
      const { result, sent, elsewhere } = await call(name, args);
      expect({ name, args, error: failure(result) }).toEqual({
        name,
        args,
        error: { kind: 'origin', message: origin },
      });
      expect([...sent, ...elsewhere]).toEqual([]);
    }
  });
});

describe('redirects', () => {
  it('follows a redirect on the same origin: the server sees both requests', async () => {
    const { result, sent } = await call('params_behave', { mode: 'redirect-same' });
    expect(sent).toEqual([get('/behave/redirect-same'), get('/behave/landing')]);
    expect(result).toEqual({ ok: true, status: 200, content: { kind: 'json', value: get('/behave/landing') } });
  });

  it('refuses a redirect to another origin (another port): the other server receives nothing', async () => {
    const { result, sent, elsewhere } = await call('params_behave', { mode: 'redirect-other' });
    expect(sent).toEqual([get('/behave/redirect-other')]);
    expect(elsewhere).toEqual([]);
    expect(other.records).toEqual([]);
    expect(failure(result)).toEqual({
      kind: 'upstream-failure',
      message: `upstream request failed: redirect to another origin refused: ${other.origin}`,
    });
  });
});

describe('upstream answers and failures', () => {
  it('a server that never answers: timeout after totalTimeoutMs (300 ms)', async () => {
    const started = Date.now();
    const { result, sent } = await call('params_behave', { mode: 'hang' }, quick);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(sent).toEqual([get('/behave/hang')]);
    expect(failure(result)).toEqual({
      kind: 'upstream-failure',
      message: 'upstream request failed: request timed out after 300 ms (totalTimeoutMs)',
    });
  });

  it('a 10 MB answer against the 1 MiB cap, streamed and declared', async () => {
    for (const mode of ['big', 'big-declared']) {
      const { result } = await call('params_behave', { mode });
      expect(failure(result)).toEqual({
        kind: 'upstream-failure',
        message: 'upstream request failed: response body larger than 1048576 bytes (maxResponseBytes)',
      });
    }
  });

  it('a connection reset mid-body', async () => {
    const { result } = await call('params_behave', { mode: 'reset' });
    // Named by the schema's origin, not by the override the request went to.
    expect(failure(result)).toEqual({
      kind: 'upstream-failure',
      message: 'upstream request failed: connection to https://api.example.test was reset during the exchange',
    });
  });

  it('non-JSON text is text; invalid JSON under application/json is a decode error; empty bodies are empty', async () => {
    expect((await call('params_behave', { mode: 'text' })).result).toEqual({
      ok: true,
      status: 200,
      content: { kind: 'text', value: 'plain words, not JSON' },
    });
    const bad = failure((await call('params_behave', { mode: 'badjson' })).result);
    const body = `{"echo": ${JSON.stringify(get('/behave/badjson'))}`;
    expect(bad).toEqual({
      kind: 'decode',
      message: `response is not valid JSON (application/json): ${body.slice(0, 80)}…`,
    });
    expect((await call('params_behave', { mode: 'empty' })).result).toEqual({
      ok: true,
      status: 200,
      content: { kind: 'empty' },
    });
    expect((await call('params_behave', { mode: '204' })).result).toEqual({
      ok: true,
      status: 204,
      content: { kind: 'empty' },
    });
  });

  it('404, 500 and 429 with Retry-After are tool errors with the status and a short excerpt', async () => {
    expect(failure((await call('params_behave', { mode: '404' })).result)).toEqual({
      kind: 'upstream-status',
      status: 404,
      message: 'upstream answered 404: {"error":"not found"}',
    });
    const fiveHundred = failure((await call('params_behave', { mode: '500' })).result);
    expect(fiveHundred).toEqual({
      kind: 'upstream-status',
      status: 500,
      message: `upstream answered 500: internal error while handling {"method":"GET","url":"/behave/500","headers":{"host":"127.0.0.1:${main.port}","connection":"keep-alive","accept-encoding":"gzip, deflate, br"},"body":""}`,
    });
    expect(failure((await call('params_behave', { mode: '429' })).result)).toEqual({
      kind: 'upstream-status',
      status: 429,
      // maxPauseSeconds 0: the guard holds nothing back, so no wait is told (test/call/failures.test.ts tells one).
      message: 'upstream answered 429: slow down',
    });
  });

  it('a long error body is cut to a short excerpt', async () => {
    const { result } = await call('params_behave', { mode: 'long500' });
    expect(failure(result)).toEqual({
      kind: 'upstream-status',
      status: 500,
      message: `upstream answered 500: ${'x'.repeat(200)}…`,
    });
  });
});

describe('argument errors: a tool error naming the parameter and the rule, nothing sent', () => {
  const base = { id: 'a', slug: 'b', q: 'x' };
  for (const [title, args, message] of [
    ['unknown argument', { ...base, bogus: 1 }, "invalid arguments: unknown argument 'bogus'"],
    ['missing required', { id: 'a', slug: 'b' }, "invalid arguments: missing required argument 'q'"],
    ['wrong type (string for number)', { ...base, n: 'two' }, "invalid arguments: 'n' must be number"],
    ['wrong type (string for boolean)', { ...base, flag: 'true' }, "invalid arguments: 'flag' must be boolean"],
    ['wrong type (string for array)', { ...base, ids: 'x,y' }, "invalid arguments: 'ids' must be array"],
    ['enum violation', { ...base, sort: 'up' }, "invalid arguments: 'sort' must be one of asc, desc"],
    ['min violation', { ...base, page: 0 }, "invalid arguments: 'page' must be >= 1"],
  ] as const) {
    it(title, async () => {
      const { result, sent, elsewhere } = await call('params_getItem', args);
      expect(failure(result)).toEqual({ kind: 'arguments', message });
      expect([...sent, ...elsewhere]).toEqual([]);
    });
  }

  it('numeric enum violation names the allowed values once', async () => {
    const { result, sent } = await call('params_getItem', { ...base, chain: 2 });
    expect(failure(result)).toEqual({
      kind: 'arguments',
      message: "invalid arguments: 'chain' must be one of 1, 5, 137",
    });
    expect(sent).toEqual([]);
  });

  it('arguments that are not an object', async () => {
    const { result, sent } = await call('params_behave', ['json']);
    expect(failure(result)).toEqual({ kind: 'arguments', message: 'invalid arguments: arguments must be object' });
    expect(sent).toEqual([]);
  });

  it('an unknown tool', async () => {
    expect(failure((await call('params_nothing', {})).result)).toEqual({
      kind: 'unknown-tool',
      message: "no tool named 'params_nothing'",
    });
  });
});

describe('cancellation', () => {
  it('an AbortSignal aborted mid-request ends the call promptly and the server sees the connection close', async () => {
    const controller = new AbortController();
    const mark = main.records.length;
    const pending = call('params_behave', { mode: 'hang' }, catalog, controller.signal);
    expect(await waitFor(() => main.records.length > mark)).toBe(true);
    const aborted = Date.now();
    controller.abort();
    const { result, sent } = await pending;
    expect(Date.now() - aborted).toBeLessThan(1_000);
    expect(sent).toEqual([get('/behave/hang')]);
    expect(failure(result)).toEqual({
      kind: 'upstream-failure',
      message: 'upstream request failed: request aborted by the caller',
    });
    const entry = main.records[mark];
    expect(await waitFor(() => entry?.closed === true)).toBe(true);
  });

  it('a signal aborted before the call sends nothing', async () => {
    const { result, sent } = await call('params_behave', { mode: 'json' }, catalog, AbortSignal.abort());
    expect(failure(result)).toEqual({
      kind: 'upstream-failure',
      message: 'upstream request failed: request aborted by the caller',
    });
    expect(sent).toEqual([]);
  });
});

describe('pre- and postRequest handlers in the path', () => {
  it('a preRequest that adds headers: the server receives them', async () => {
    const { result, sent } = await call('hooks_addHeader', { word: 'hello' });
    expect(sent).toEqual([get('/behave/json?word=hello', { 'x-added': 'by-prerequest', 'x-word': 'HELLO' })]);
    expect(result.ok).toBe(true);
  });

  it('a postRequest that reshapes the response', async () => {
    const { result, sent } = await call('hooks_reshape', {});
    expect(sent).toEqual([get('/behave/items?prefix=item-')]);
    expect(result).toEqual({
      ok: true,
      status: 200,
      content: { kind: 'json', value: { count: 2, names: ['item-a', 'item-b'] } },
    });
  });

  it('a postRequest on an error answer does not run: the status error comes back', async () => {
    const { result } = await call('canary_echoStruct', { mode: '404' });
    expect(failure(result)).toEqual({
      kind: 'upstream-status',
      status: 404,
      message: 'upstream answered 404: {"error":"not found"}',
    });
  });
});
