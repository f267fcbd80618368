// Issue 23, guarantees 5 and 7 (src/http/egress.ts): what a request may carry when it leaves.
// Real parts: the schemas of test/fixtures/egress load in the real sandbox; preRequest and
// executeRequest handlers attack; loopback servers stand for the schema's API and for a collector
// at another origin of the schema's reach, and record every request that reaches them.
//
// - The host that was checked is the host that is reached: a handler that sets `Host` (beside
//   the filled-in key), a forwarding, proxy, override or hop-by-hop header is refused, on the
//   core's own path and on the bridge, and nothing reaches the upstream.
// - No key value leaves to an unbound origin: a handler that got the key past redaction (the
//   upstream echoes it reversed) and sends it on in any form redaction knows, or that sends
//   another schema's key value, is refused (`KEY_NOT_ALLOWED:`) and the collector sees nothing.

import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallResult } from '../../src/call/outcome.js';
import { Catalog } from '../../src/runtime/catalog.js';
import { tempProject } from '../kit/project.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'egress');
const FRONT_KEY = 'sk-front-8Qw/3+Zp9Lm=Xy7';
const VICTIM_KEY = 'vk-victim-5Tr/9+Hb2Nc=Qa1';

/** Headers a handler may not set, each with a value that would reroute or reframe the request. */
const ROUTING_HEADERS: Array<[string, string]> = [
  ['Host', 'victim.example'],
  ['hOsT', 'victim.example'],
  ['X-Forwarded-Host', 'victim.example'],
  ['X-Forwarded-For', '10.0.0.1'],
  ['Forwarded', 'host=victim.example'],
  ['X-Original-URL', '/admin'],
  ['X-Rewrite-URL', '/admin'],
  ['X-Original-Host', 'victim.example'],
  ['X-Host', 'victim.example'],
  ['X-Real-IP', '10.0.0.1'],
  ['True-Client-IP', '10.0.0.1'],
  ['Proxy-Authorization', 'Basic eDp5'],
  ['Via', '1.1 victim.example'],
  ['X-HTTP-Method-Override', 'DELETE'],
  ['Connection', 'close'],
  ['Keep-Alive', 'timeout=5'],
  ['Transfer-Encoding', 'chunked'],
  ['Content-Length', '5'],
  ['TE', 'trailers'],
  ['Trailer', 'x-checksum'],
  ['Upgrade', 'websocket'],
  ['Expect', '100-continue'],
];

let api: Upstream;
let collector: Upstream;
let catalog: Catalog;
const project = tempProject({ config: { network: { maxRequestsPerCall: 5 } } });

beforeAll(async () => {
  api = await startUpstream((req, res, entry) => {
    // The key, reversed: a spelling no redaction knows, so the handler gets it.
    if (entry.url.startsWith('/reversed'))
      res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end([...String(req.headers['x-api-key'])].reverse().join(''));
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  collector = await startUpstream();
  catalog = await Catalog.load({
    schemas: SCHEMAS,
    project: project.dir,
    keys: { FRONT_KEY, VICTIM_KEY },
    upstreams: {
      'https://api.front.test': api.origin,
      'https://collect.front.test': collector.origin,
      'https://api.victim.test': api.origin,
    },
    sandbox: { size: 1 },
  });
}, 30_000);

afterAll(async () => {
  await catalog?.close();
  await Promise.all([api?.close(), collector?.close()]);
  project.remove();
});

/** The requests a call recorded. */
const requestsOf = (result: CallResult): Array<{ origin: string; status: number; error?: string }> =>
  'requests' in result ? (result.requests ?? []) : [];

/** The call's error message; the test fails if the call succeeded. */
function refusal(result: CallResult): string {
  expect(result.ok, JSON.stringify(result)).toBe(false);
  return result.ok ? '' : result.error.message;
}

describe('the host that was checked is the host that is reached', () => {
  it('loads both schemas without errors; a harmless header goes out with one Host line, the core’s', async () => {
    expect(catalog.findings().filter((finding) => finding.severity === 'error')).toEqual([]);
    for (const tool of ['front_fronted', 'front_relay']) {
      const mark = api.records.length;
      const result = await catalog.call(tool, { name: 'x-note', value: '1' });
      expect(result.ok, JSON.stringify(result)).toBe(true);
      const [entry] = api.records.slice(mark);
      // Every Host line as it arrived (rawHeaders keeps repeated lines that `headers` would fold).
      const raw = entry?.rawHeaders ?? [];
      const hosts = raw.filter((_, at) => at % 2 === 1 && raw[at - 1]?.toLowerCase() === 'host');
      expect(hosts).toEqual([`127.0.0.1:${api.port}`]);
      expect(entry?.headers['x-api-key']).toBe(FRONT_KEY);
      expect(entry?.headers['x-note']).toBe('1');
    }
  });

  it.each(ROUTING_HEADERS)(
    'preRequest sets %s: refused before anything is sent, with a message that names the header',
    async (name, value) => {
      const hits = api.hits();
      const result = await catalog.call('front_fronted', { name, value });
      expect(refusal(result)).toContain(`HEADER_NOT_ALLOWED: the request sets "${name}"`);
      expect(result.ok ? null : result.error.kind).toBe('origin');
      expect(api.hits()).toBe(hits);
    },
  );

  it.each([...ROUTING_HEADERS, ['host-twice', 'victim.example'] as [string, string]])(
    'a bridged request sets %s: refused before anything is sent',
    async (name, value) => {
      const hits = api.hits();
      const result = await catalog.call('front_relay', { name, value });
      expect(refusal(result)).toContain('HEADER_NOT_ALLOWED: the request sets "');
      expect(requestsOf(result)[0]?.error).toMatch(/^HEADER_NOT_ALLOWED: /);
      expect(api.hits()).toBe(hits);
    },
  );
});

describe('no key value leaves to an origin not bound to it', () => {
  const SMUGGLED = [
    'query',
    'path',
    'url-tabs',
    'header-basic',
    'header-name',
    'body-json',
    'body-slashes',
    'body-utf16',
    'token',
  ];

  it.each(SMUGGLED)(
    'the key, got past redaction, sent on to another origin of the reach (%s): refused, the collector sees nothing',
    async (mode) => {
      const hits = collector.hits();
      const result = await catalog.call('front_smuggle', { mode });
      expect(refusal(result)).toMatch(
        /KEY_NOT_ALLOWED: the request to https:\/\/collect\.front\.test carries the (value of the )?key FRONT_KEY/,
      );
      expect(collector.hits()).toBe(hits);
      // It did get the key: the upstream at the bound origin echoed it (reversed) first.
      expect(requestsOf(result)[0]).toMatchObject({ origin: 'https://api.front.test', status: 200 });
    },
  );

  it('the key sent back to its own origin, where it is bound, goes out', async () => {
    const mark = api.records.length;
    const result = await catalog.call('front_smuggle', { mode: 'query-home' });
    expect(result.ok, JSON.stringify(result)).toBe(true);
    expect(api.records.slice(mark).map((entry) => entry.url)).toContain(`/c?k=${encodeURIComponent(FRONT_KEY)}`);
  });

  it.each(['query-home', 'header-basic-home', 'body-utf16-home'])(
    'another schema’s key, sent to this schema’s own origin (%s): refused, nothing sent',
    async (mode) => {
      const hits = api.hits();
      const result = await catalog.call('front_smuggle', { mode, secret: VICTIM_KEY });
      expect(refusal(result)).toContain(
        'KEY_NOT_ALLOWED: the request to https://api.front.test carries the value of the key VICTIM_KEY',
      );
      expect(api.hits()).toBe(hits);
    },
  );

  it('on the core’s own path too: preRequest that puts another schema’s key into the URL is refused; its own key goes out', async () => {
    const hits = api.hits();
    const refused = await catalog.call('front_carry', { secret: VICTIM_KEY });
    expect(refusal(refused)).toContain(
      'KEY_NOT_ALLOWED: the request to https://api.front.test carries the value of the key VICTIM_KEY in the URL',
    );
    expect(api.hits()).toBe(hits);
    const own = await catalog.call('front_carry', { secret: FRONT_KEY });
    expect(own.ok, JSON.stringify(own)).toBe(true);
    expect(api.hits()).toBe(hits + 1);
  });

  it('no refusal message carries a key', async () => {
    const results = await Promise.all([
      catalog.call('front_smuggle', { mode: 'header-name' }),
      catalog.call('front_carry', { secret: VICTIM_KEY }),
    ]);
    const text = JSON.stringify(results);
    for (const key of [FRONT_KEY, VICTIM_KEY]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(Buffer.from(key).toString('hex'));
    }
  });
});

describe('on the wire (a raw TCP server that records every byte it receives)', () => {
  let server: Server;
  let port = 0;
  const heads: string[] = [];
  let received = 0;
  let wired: Catalog;

  beforeAll(async () => {
    server = createServer((socket) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        text += chunk.toString('latin1');
        if (!text.includes('\r\n\r\n')) return;
        heads.push(text.slice(0, text.indexOf('\r\n\r\n')));
        socket.end(
          'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\nconnection: close\r\n\r\n{"ok":true}',
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    wired = await Catalog.load({
      schemas: SCHEMAS,
      project: project.dir,
      keys: { FRONT_KEY, VICTIM_KEY },
      upstreams: { 'https://api.front.test': `http://127.0.0.1:${port}` },
      sandbox: { size: 1 },
    });
  }, 30_000);

  afterAll(async () => {
    await wired?.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('a request goes out with exactly one Host line, the one for the address the core checked, beside the key', async () => {
    for (const tool of ['front_fronted', 'front_relay']) {
      const mark = heads.length;
      const result = await wired.call(tool, { name: 'x-note', value: '1' });
      expect(result.ok, JSON.stringify(result)).toBe(true);
      const lines = heads.slice(mark).join('\r\n').split('\r\n');
      expect(lines.filter((line) => /^host:/i.test(line))).toEqual([`host: 127.0.0.1:${port}`]);
      expect(lines).toContain(`x-api-key: ${FRONT_KEY}`);
    }
  });

  it.each([
    ['front_fronted', 'Host'],
    ['front_relay', 'Host'],
    ['front_relay', 'host-twice'],
    ['front_fronted', 'X-Forwarded-Host'],
  ])('%s setting %s: not one byte reaches the wire', async (tool, name) => {
    const [before, mark] = [received, heads.length];
    const result = await wired.call(tool, { name, value: 'victim.example' });
    expect(heads.slice(mark).join('\n'), 'request heads on the wire').not.toMatch(/victim\.example/);
    expect(received).toBe(before);
    expect(refusal(result)).toContain('HEADER_NOT_ALLOWED: ');
  });
});
