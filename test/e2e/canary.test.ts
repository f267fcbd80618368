// Issue 4, the canary test: a known key value (CANARY_KEY) in every slot a schema may declare
// (query value, body value, main.headers, path, root, literal query string), hostile handlers
// that try to move its placeholder elsewhere or copy the request into the result, errors that
// echo it, and dry runs. The key must appear nowhere in any result or error, and the loopback
// server must receive it only in the declared slots of the schema's own request. (The CLI half
// of the canary test is in cli.test.ts.)

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallResult, DryRunResult } from '../../src/call/outcome.js';
import { Catalog } from '../../src/runtime/catalog.js';
import { tempProject } from '../kit/project.js';
import type { Recorded } from '../support/upstream.js';
import {
  CANARY_GRANT,
  KEY,
  KEY_URL,
  keyLeaks,
  REDACTED,
  SCHEMAS,
  startBehaving,
  type BehavingUpstream,
} from './helpers.js';

let main: BehavingUpstream;
let other: BehavingUpstream;
let catalog: Catalog;
const project = tempProject({ config: CANARY_GRANT });
/** Every result and error of this file, checked once more at the end. */
const outputs: unknown[] = [];
const TOKEN = /^__secret_CANARY_KEY_[0-9a-f]+__$/;

beforeAll(async () => {
  [main, other] = await Promise.all([startBehaving(), startBehaving()]);
  main.otherOrigin = other.origin;
  catalog = await Catalog.load({
    schemas: SCHEMAS,
    project: project.dir,
    env: { CANARY_KEY: KEY, EMPTY_KEY: '' },
    upstreams: { '*': main.origin },
    sandbox: { size: 1 },
  });
  outputs.push(catalog.findings());
}, 30_000);

afterAll(async () => {
  await catalog?.close();
  await Promise.all([main?.close(), other?.close()]);
  project.remove();
});

async function call(
  name: string,
  args: unknown,
  options: { dryRun?: boolean } = {},
): Promise<{ result: CallResult | DryRunResult; sent: Recorded[]; elsewhere: Recorded[] }> {
  const marks = [main.records.length, other.records.length] as const;
  const result = await catalog.call(name, args, options);
  outputs.push(result);
  return { result: withoutRequests(result), sent: main.since(marks[0]), elsewhere: other.since(marks[1]) };
}

/** The result as these tests compare it: `requests`, the record of what the call sent, is test/observe/'s subject. */
function withoutRequests(result: CallResult | DryRunResult): CallResult | DryRunResult {
  if (!('requests' in result)) return result;
  const { requests: _sent, ...rest } = result;
  return rest as CallResult | DryRunResult;
}

function base(): Record<string, string> {
  return { host: `127.0.0.1:${main.port}`, connection: 'keep-alive' };
}

/** Sent by the HTTP client after the request's own headers, as the server's echo lists them. */
const ACCEPT_ENCODING = { 'accept-encoding': 'gzip, deflate, br' };

function get(url: string, headers: Record<string, string> = {}): Recorded {
  return { method: 'GET', url, headers: { ...base(), ...headers, ...ACCEPT_ENCODING }, body: '' };
}

function post(url: string, body: string, headers: Record<string, string> = {}): Recorded {
  return {
    method: 'POST',
    url,
    headers: {
      ...base(),
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      ...headers,
      ...ACCEPT_ENCODING,
    },
    body,
  };
}

/** The server's echo of a request, as the (redacted) result shows it. */
function echoed(request: Recorded): CallResult {
  return { ok: true, status: 200, content: { kind: 'json', value: { ...request } } };
}

describe('the key reaches the server in each declared slot, and the result shows it redacted', () => {
  it('{{SERVER_PARAM:CANARY_KEY}} as a query value', async () => {
    const { result, sent } = await call('keys_queryKey', { mode: 'json' });
    expect(sent).toEqual([get(`/behave/json?apikey=${KEY_URL}`)]);
    expect(result).toEqual(echoed(get(`/behave/json?apikey=${REDACTED}`)));
  });

  it('{{SERVER_PARAM:CANARY_KEY}} as a body value', async () => {
    const { result, sent } = await call('keys_bodyKey', { mode: 'json', name: 'n' });
    expect(sent).toEqual([post('/behave/json', `{"name":"n","token":"${KEY}"}`)]);
    expect(result).toEqual(
      echoed(
        post('/behave/json', `{"name":"n","token":"${REDACTED}"}`, {
          'content-length': String(Buffer.byteLength(sent[0]?.body ?? '')),
        }),
      ),
    );
  });

  it('bare {{CANARY_KEY}} in main.headers', async () => {
    const { result, sent } = await call('keyheader_headerKey', { mode: 'json' });
    expect(sent).toEqual([get('/behave/json', { 'x-api-key': KEY, accept: 'application/json' })]);
    expect(result).toEqual(echoed(get('/behave/json', { 'x-api-key': REDACTED, accept: 'application/json' })));
  });

  it('bare {{CANARY_KEY}} in the path', async () => {
    const { result, sent } = await call('keys_pathKey', {});
    expect(sent).toEqual([get(`/keys/${KEY_URL}/behave/json`)]);
    expect(result).toEqual(echoed(get(`/keys/${REDACTED}/behave/json`)));
  });

  it('bare {{CANARY_KEY}} in root (https://api.example.test/v1/{{CANARY_KEY}})', async () => {
    const { result, sent } = await call('keyroot_rootKey', { mode: 'json' });
    expect(sent).toEqual([get(`/v1/${KEY_URL}/behave/json`)]);
    expect(result).toEqual(echoed(get(`/v1/${REDACTED}/behave/json`)));
  });

  it('bare {{CANARY_KEY}} inside a literal query string, parameters appended with &', async () => {
    const { result, sent } = await call('keys_literalKey', { address: '0xabc' });
    expect(sent).toEqual([get(`/api?module=account&apikey=${KEY_URL}&address=0xabc`)]);
    expect(result).toEqual(echoed(get(`/api?module=account&apikey=${REDACTED}&address=0xabc`)));
  });

  it('a user argument spelling a placeholder is text, never the key', async () => {
    const query = await call('keys_queryKey', { mode: '{{CANARY_KEY}}', address: '{{SERVER_PARAM:CANARY_KEY}}' });
    expect(query.sent).toEqual([
      get(`/behave/%7B%7BCANARY_KEY%7D%7D?address=%7B%7BSERVER_PARAM%3ACANARY_KEY%7D%7D&apikey=${KEY_URL}`),
    ]);
    const body = await call('keys_bodyKey', { mode: 'json', name: '{{CANARY_KEY}}' });
    expect(body.sent).toEqual([post('/behave/json', `{"name":"{{CANARY_KEY}}","token":"${KEY}"}`)]);
  });

  it('same-origin redirects carry the declared header again; a redirect to another origin never reaches it', async () => {
    const same = await call('keyheader_headerKey', { mode: 'redirect-same' });
    expect(same.sent).toEqual([
      get('/behave/redirect-same', { 'x-api-key': KEY, accept: 'application/json' }),
      get('/behave/landing', { 'x-api-key': KEY, accept: 'application/json' }),
    ]);
    const away = await call('keyheader_headerKey', { mode: 'redirect-other' });
    expect(away.sent).toEqual([get('/behave/redirect-other', { 'x-api-key': KEY, accept: 'application/json' })]);
    expect(away.elsewhere).toEqual([]);
    expect(away.result).toEqual({
      ok: false,
      error: {
        kind: 'upstream-failure',
        message: `upstream request failed: redirect to another origin refused: ${other.origin}`,
      },
    });
  });
});

describe('a missing key', () => {
  it('an empty environment value hides the tool; calling it is a missing-keys error and nothing is sent', async () => {
    expect(catalog.visibleTools().map((tool) => tool.name)).not.toContain('missing_never');
    expect(catalog.tool('missing_never')?.missingKeys).toEqual(['EMPTY_KEY']);
    const { result, sent, elsewhere } = await call('missing_never', {});
    expect(result).toEqual({
      ok: false,
      error: { kind: 'missing-keys', message: 'missing_never needs EMPTY_KEY, which the server has no value for' },
    });
    expect([...sent, ...elsewhere]).toEqual([]);
    // A dry run needs no key (issue 27): it marks where the key would go, and sends nothing either.
    const dry = await call('missing_never', {}, { dryRun: true });
    expect(dry.result).toMatchObject({ ok: true, dryRun: { method: 'GET' } });
    expect(JSON.stringify(dry.result)).toContain('[EMPTY_KEY not set]');
    expect([...dry.sent, ...dry.elsewhere]).toEqual([]);
  });
});

describe('dry runs show the request with the key redacted and send nothing', () => {
  it('query, body, header, path and root slots', async () => {
    const cases: Array<[string, Record<string, unknown>, unknown]> = [
      [
        'keys_queryKey',
        { mode: 'json' },
        { method: 'GET', url: `${main.origin}/behave/json?apikey=${REDACTED}`, headers: {} },
      ],
      [
        'keys_bodyKey',
        { mode: 'json', name: 'n' },
        {
          method: 'POST',
          url: `${main.origin}/behave/json`,
          headers: { 'content-type': 'application/json' },
          body: `{"name":"n","token":"${REDACTED}"}`,
        },
      ],
      [
        'keyheader_headerKey',
        { mode: 'json' },
        {
          method: 'GET',
          url: `${main.origin}/behave/json`,
          headers: { 'x-api-key': REDACTED, accept: 'application/json' },
        },
      ],
      ['keys_pathKey', {}, { method: 'GET', url: `${main.origin}/keys/${REDACTED}/behave/json`, headers: {} }],
      [
        'keyroot_rootKey',
        { mode: 'json' },
        { method: 'GET', url: `${main.origin}/v1/${REDACTED}/behave/json`, headers: {} },
      ],
      [
        'canary_toHeaders',
        {},
        {
          method: 'GET',
          url: `${main.origin}/behave/json?apikey=${REDACTED}`,
          headers: {
            'x-api-key': REDACTED,
            'x-leak-url': expect.stringMatching(TOKEN),
            'x-leak-header': expect.stringMatching(TOKEN),
            authorization: expect.stringMatching(/^Bearer __secret_CANARY_KEY_[0-9a-f]+__$/),
            'X-API-KEY-2': expect.stringMatching(TOKEN),
          },
        },
      ],
    ];
    for (const [name, args, dryRun] of cases) {
      const { result, sent, elsewhere } = await call(name, args, { dryRun: true });
      expect({ name, result }).toEqual({ name, result: { ok: true, dryRun } });
      expect([...sent, ...elsewhere]).toEqual([]);
      expect(keyLeaks(result)).toEqual([]);
    }
  });
});

describe('errors that echo the key', () => {
  it('a 500 whose body echoes the request (URL and headers)', async () => {
    const query = await call('keys_queryKey', { mode: '500' });
    expect(query.result).toEqual({
      ok: false,
      // The excerpt is cut at 200 bytes.
      error: {
        kind: 'upstream-status',
        status: 500,
        message: `upstream answered 500: internal error while handling {"method":"GET","url":"/behave/500?apikey=${REDACTED}","headers":{"host":"127.0.0.1:${main.port}","connection":"keep-alive","accept-encoding":"gzip, deflate, br"},"bod…`,
      },
    });
    const header = await call('keyheader_headerKey', { mode: '500key' });
    expect(header.result).toEqual({
      ok: false,
      error: { kind: 'upstream-status', status: 500, message: `upstream answered 500: invalid api key ${REDACTED}` },
    });
    const body = await call('keys_bodyKey', { mode: '404', name: 'n' });
    expect(body.result).toEqual({
      ok: false,
      error: { kind: 'upstream-status', status: 404, message: 'upstream answered 404: {"error":"not found"}' },
    });
  });

  it('upstream failures (reset, too large, refused redirect), a text answer and a decode error of a short body', async () => {
    const expected: Record<string, CallResult> = {
      // Failures name the schema's origin, not the override the request went to.
      reset: {
        ok: false,
        error: {
          kind: 'upstream-failure',
          message: 'upstream request failed: connection to https://api.example.test was reset during the exchange',
        },
      },
      'big-declared': {
        ok: false,
        error: {
          kind: 'upstream-failure',
          message: 'upstream request failed: response body larger than 1048576 bytes (maxResponseBytes)',
        },
      },
      'redirect-other': {
        ok: false,
        error: {
          kind: 'upstream-failure',
          message: `upstream request failed: redirect to another origin refused: ${other.origin}`,
        },
      },
      text: { ok: true, status: 200, content: { kind: 'text', value: 'plain words, not JSON' } },
    };
    for (const [mode, result] of Object.entries(expected)) {
      const outcome = await call('keyroot_rootKey', { mode });
      expect({ mode, result: outcome.result }).toEqual({ mode, result });
      expect(outcome.elsewhere).toEqual([]);
    }
    const decode = await call('keyheader_headerKey', { mode: 'badjson' });
    expect(decode.result).toMatchObject({ ok: false, error: { kind: 'decode' } });
    expect(keyLeaks(decode.result)).toEqual([]);
  });

  it('an error excerpt cut inside the key leaks no part of it (500 status excerpt, 200 bytes)', async () => {
    const { result } = await call('keys_queryKey', { mode: '500cut' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'upstream-status', status: 500 } });
    expect(failureMessage(result).startsWith(`upstream answered 500: ${'x'.repeat(178)}`)).toBe(true);
    expect(keyLeaks(result), failureMessage(result)).toEqual([]);
  });

  it('an error excerpt cut inside the key leaks no part of it (decode error excerpt, 80 bytes)', async () => {
    const cut = await call('keys_queryKey', { mode: 'badjsoncut' });
    expect(cut.result).toMatchObject({ ok: false, error: { kind: 'decode' } });
    expect(keyLeaks(cut.result), failureMessage(cut.result)).toEqual([]);
    // The same through the plain echo: the URL with the key crosses the 80-byte cut.
    const echo = await call('keys_queryKey', { mode: 'badjson' });
    expect(keyLeaks(echo.result), failureMessage(echo.result)).toEqual([]);
  });
});

function failureMessage(result: CallResult | DryRunResult): string {
  return result.ok ? '' : result.error.message;
}

describe('hostile handlers', () => {
  it('copying the placeholders into other headers sends the placeholders, not the key', async () => {
    const { result, sent } = await call('canary_toHeaders', {});
    expect(sent).toEqual([
      get(`/behave/json?apikey=${KEY_URL}`, {
        'x-api-key': KEY,
        'x-leak-url': expect.stringMatching(TOKEN),
        'x-leak-header': expect.stringMatching(TOKEN),
        authorization: expect.stringMatching(/^Bearer __secret_CANARY_KEY_[0-9a-f]+__$/),
        'x-api-key-2': expect.stringMatching(TOKEN),
      }),
    ]);
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(keyLeaks(result)).toEqual([]);
  });

  for (const attack of ['otherHost', 'userinfo', 'lookalike', 'port', 'scheme', 'backslash']) {
    it(`moving the request with the placeholder off the origin (${attack}): origin error, nothing sent`, async () => {
      const { result, sent, elsewhere } = await call('canary_move', { attack });
      expect(result).toEqual({
        ok: false,
        error: { kind: 'origin', message: "the request left the schema's origin https://api.example.test; refused" },
      });
      expect([...sent, ...elsewhere]).toEqual([]);
    });
  }

  it('copying the placeholders into the body sends the placeholders, not the key', async () => {
    const { result, sent } = await call('canary_toBody', { name: 'n' });
    expect(sent).toHaveLength(1);
    const request = sent[0] as Recorded;
    expect(request).toEqual(post('/behave/json', request.body, { 'x-api-key': KEY }));
    expect(JSON.parse(request.body)).toEqual({
      name: 'n',
      stolen: [expect.stringMatching(TOKEN)],
      header: expect.stringMatching(TOKEN),
    });
    expect(keyLeaks(request.body)).toEqual([]);
    expect(keyLeaks(result)).toEqual([]);
  });

  it('a postRequest that returns the echoed request, struct and payload: the key shows as [redacted CANARY_KEY], struct holds only placeholders', async () => {
    const { result, sent } = await call('canary_echoStruct', { mode: 'json' });
    expect(sent).toEqual([get(`/behave/json?apikey=${KEY_URL}`, { 'x-api-key': KEY })]);
    expect(result).toEqual({
      ok: true,
      status: 200,
      content: {
        kind: 'json',
        value: {
          echoed: get(`/behave/json?apikey=${REDACTED}`, { 'x-api-key': REDACTED }),
          struct: {
            url: expect.stringMatching(
              /^https:\/\/api\.example\.test\/behave\/json\?apikey=__secret_CANARY_KEY_[0-9a-f]+__$/,
            ),
            method: 'GET',
            headers: { 'x-api-key': expect.stringMatching(TOKEN) },
            body: null,
          },
          payload: { mode: 'json' },
        },
      },
    });
  });

  it('moving a header-only placeholder into the URL (same origin, no key declared there) sends the placeholder', async () => {
    const { result, sent } = await call('canary_headerToUrl', {});
    expect(sent).toEqual([
      get(
        expect.stringMatching(
          /^\/behave\/json\?stolen=__secret_CANARY_KEY_[0-9a-f]+__&again=__secret_CANARY_KEY_[0-9a-f]+__$/,
        ) as unknown as string,
        { 'x-api-key': KEY },
      ),
    ]);
    expect(keyLeaks(result)).toEqual([]);
  });

  it('a header line smuggled after the key: refused before sending, the message holds no key', async () => {
    const { result, sent } = await call('canary_headerInject', {});
    expect(sent).toEqual([]);
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'upstream-failure',
        message: 'upstream request failed: request cannot be sent: invalid x-api-key header',
      },
    });
  });

  it('a postRequest that throws with the echoed request in its message: the handler error is redacted', async () => {
    const { result, sent } = await call('canary_throwEcho', {});
    expect(sent).toEqual([get(`/behave/json?apikey=${KEY_URL}`, { 'x-api-key': KEY })]);
    const echo = JSON.stringify(get(`/behave/json?apikey=${REDACTED}`, { 'x-api-key': REDACTED }));
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'handler',
        code: 'SEC107',
        message: `postRequest handler failed (SEC107): the handler threw: Error: upstream said ${echo}`,
      },
    });
  });

  it('a preRequest that throws with the struct in its message: placeholders only, nothing sent', async () => {
    const { result, sent } = await call('canary_throwStruct', {});
    expect(sent).toEqual([]);
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'handler',
        code: 'SEC107',
        message: expect.stringMatching(
          /^preRequest handler failed \(SEC107\): the handler threw: Error: cannot build \{"url":"https:\/\/api\.example\.test\/behave\/json\?apikey=__secret_CANARY_KEY_[0-9a-f]+__","method":"GET","headers":\{"x-api-key":"__secret_CANARY_KEY_[0-9a-f]+__"\},"body":null\}$/,
        ),
      },
    });
  });
});

describe('the sweep', () => {
  it('no result, error or finding of this file holds the key in any form', () => {
    expect(outputs.length).toBeGreaterThan(30);
    const leaking = outputs
      .filter((output) => keyLeaks(output).length > 0)
      .map((output) => JSON.stringify(output).slice(0, 300));
    expect(leaking).toEqual([]);
  });

  it('the servers received the key only in the declared slots of the schemas’ own requests', () => {
    expect(other.records).toEqual([]);
    let carrying = 0;
    for (const record of main.records) {
      const url = record.url
        .replace(`apikey=${KEY_URL}`, 'apikey=<slot>')
        .replace(`/keys/${KEY_URL}/`, '/keys/<slot>/')
        .replace(`/v1/${KEY_URL}/`, '/v1/<slot>/');
      const headers = { ...record.headers };
      if (headers['x-api-key'] === KEY) headers['x-api-key'] = '<slot>';
      const body = record.body.replace(`"token":"${KEY}"`, '"token":"<slot>"');
      if (url !== record.url || headers['x-api-key'] === '<slot>' || body !== record.body) carrying++;
      expect({ request: `${record.method} ${record.url}`, leaks: keyLeaks({ url, headers, body }) }).toEqual({
        request: `${record.method} ${record.url}`,
        leaks: [],
      });
    }
    expect(carrying).toBeGreaterThan(10);
  });
});
