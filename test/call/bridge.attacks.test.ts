// An outside reviewer's attacks on the bridge (security promises 3, 4, 5 and 11): a hostile
// executeRequest handler asks the core for requests in every spelling a URL, a header or a body
// can take, hoping that one of them is judged as one thing and sent as another. Each attack must
// be refused before anything is sent (the servers standing for forbidden places see nothing), and
// the controls show that the same request in its plain form does go out.
//
// Real parts: the real sandbox (one process, so the prober and the victim share it), loopback
// servers for the upstreams: `api` behind the prober's own origins (an `upstreams` override),
// `internal` for an address only the victim may reach (network.allow and network.allowPrivate),
// and `internalTls` for one more, an https service the prober's text writes (so in its reach).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { tempProject } from '../support/project.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const KEY = 'probe-key-value-1123581321';
const PARAM = (key: string) =>
  `[{ position: { key: '${key}', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: [] } }]`;

// `spec` (JSON): url, method, headers as [name, value] pairs handed over as an object, the pairs
// or a Headers, and a body as text, bytes, URLSearchParams, chunks or an async generator of them.
// `$KEY$` anywhere stands for the key's token, which the handler holds.
const PROBER = (written: string) => `export const main = {
    namespace: 'prober', name: 'Prober', description: 'Asks the core for requests in every spelling.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.prober.test',
    requiredServerParams: ['PROBE_KEY'],
    routes: { probe: { method: 'GET', path: '/p', description: 'One request as the spec says.', parameters: ${PARAM('spec')}, tests: [{ _description: 'a', spec: '{}' }] } }
};
// Also in its reach, with no key bound: https://other.prober.test, and what it merely writes: ${written}
export const handlers = () => ({
    probe: { executeRequest: async ({ payload }) => {
        const spec = JSON.parse(payload.userParams.spec);
        const put = (text) => String(text).split('$KEY$').join(payload.serverParams.PROBE_KEY);
        const pairs = (spec.headers ?? []).map(([name, value]) => [put(name), put(value)]);
        const headers = spec.headersAs === 'pairs' ? pairs : spec.headersAs === 'Headers' ? new Headers(pairs) : Object.fromEntries(pairs);
        const text = spec.body === undefined ? undefined : put(spec.body);
        const chunks = () => (text.match(/[^]{1,3}/g) ?? []).map((piece) => new TextEncoder().encode(piece));
        const bodies = {
            text: () => text,
            bytes: () => new TextEncoder().encode(text),
            params: () => new URLSearchParams({ k: text }),
            chunks,
            asyncChunks: () => (async function* () { for (const chunk of chunks()) yield chunk; })(),
        };
        const body = text === undefined ? undefined : bodies[spec.bodyAs ?? 'text']();
        try {
            const answer = await fetch(put(spec.url), { method: spec.method ?? 'GET', headers, body });
            return { response: { status: answer.status, text: await answer.text() } };
        } catch (error) {
            return { response: { error: String(error.message) } };
        }
    } }
});
`;

const VICTIM = `export const main = {
    namespace: 'victim', name: 'Victim', description: 'Waits on its own upstream.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.victim.test',
    routes: {
        wait: { method: 'GET', path: '/slow', description: 'A slow request.', parameters: ${PARAM('ms')}, tests: [{ _description: 'a', ms: '1' }] },
        reach: { method: 'GET', path: '/any', description: 'Fetches the URL it is given.', parameters: ${PARAM('url')}, tests: [{ _description: 'a', url: 'x' }] }
    }
};
export const handlers = () => ({
    reach: { executeRequest: async ({ payload }) => {
        try { return { response: (await fetch(payload.userParams.url)).status }; } catch (error) { return { response: String(error.message) }; }
    } },
    wait: { executeRequest: async ({ payload }) => {
        const answer = await fetch('https://api.victim.test/slow?ms=' + payload.userParams.ms);
        return { response: await answer.json() };
    } }
});
`;

/** 64 MiB of zeros, gzipped to about 64 kB. */
const BOMB = gzipSync(Buffer.alloc(64 * 1024 * 1024));

let api: Upstream;
let internal: Upstream;
let internalTls: Upstream;
let project: { dir: string; remove: () => void };
let catalog: Catalog;

beforeAll(async () => {
  api = await startUpstream((req, res, entry) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/redirect') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
      return;
    }
    if (url.pathname === '/bomb') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(BOMB);
      return;
    }
    if (url.pathname === '/huge') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(4 * 1024 * 1024));
      return;
    }
    const ms = Number(url.searchParams.get('ms') ?? 0);
    setTimeout(
      () =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ path: req.url, length: entry.bytes.length })),
      ms,
    );
  });
  internal = await startUpstream((_req, res) => res.writeHead(200).end('internal'));
  // Its certificate is trusted by no one: a connection is counted, then the handshake fails.
  internalTls = await startUpstream(undefined, { tls: true });
  const privateOrigins = [internal.origin, internalTls.origin];
  project = tempProject({ network: { allow: { victim: privateOrigins }, allowPrivate: privateOrigins } });
  mkdirSync(join(project.dir, 'schemas'));
  writeFileSync(join(project.dir, 'schemas', 'prober.mjs'), PROBER(internalTls.origin));
  writeFileSync(join(project.dir, 'schemas', 'victim.mjs'), VICTIM);
  catalog = await Catalog.load({
    schemas: join(project.dir, 'schemas'),
    project: project.dir,
    env: {},
    keys: { PROBE_KEY: KEY },
    upstreams: {
      'https://api.prober.test': api.origin,
      'https://other.prober.test': api.origin,
      'https://api.victim.test': api.origin,
    },
    sandbox: { size: 1 },
  });
  expect(catalog.findings().filter((finding) => finding.severity === 'error')).toEqual([]);
}, 30_000);
afterAll(async () => {
  await catalog?.close();
  project?.remove();
  await Promise.all([api?.close(), internal?.close(), internalTls?.close()]);
});

interface Spec {
  url: string;
  method?: string;
  headers?: Array<[string, string]>;
  headersAs?: 'object' | 'pairs' | 'Headers';
  body?: string;
  bodyAs?: 'text' | 'bytes' | 'params' | 'chunks' | 'asyncChunks';
}

/** What the handler got back: the answer, or the message its fetch rejected with. */
async function probe(spec: Spec): Promise<{ status?: number; text?: string; error?: string }> {
  const result = await catalog.call('prober_probe', { spec: JSON.stringify(spec) });
  if (!result.ok) throw new Error(JSON.stringify(result).slice(0, 800));
  const value = (result as { content: { value: { status?: number; text?: string; error?: string } } }).content.value;
  if (process.env.PEEK) console.log(JSON.stringify(spec).slice(0, 100), '=>', JSON.stringify(value).slice(0, 220));
  return value;
}

/** Runs `attack`, and says what reached the two servers meanwhile (requests and connections). */
async function reached<T>(attack: () => Promise<T>): Promise<{ outcome: T; api: number; internal: number }> {
  const before = { api: api.hits(), internal: internal.hits(), connections: internal.connections() };
  const outcome = await attack();
  return {
    outcome,
    api: api.hits() - before.api,
    internal: internal.hits() - before.internal + internal.connections() - before.connections,
  };
}

describe('an address only another schema may reach, in every spelling of its URL', () => {
  const port = () => internal.port;
  it.each([
    ['as the operator wrote it', () => `${internal.origin}/a`],
    ['short IPv4', () => `http://127.1:${port()}/a`],
    ['hex IPv4', () => `http://0x7f.0.0.1:${port()}/a`],
    ['one decimal number', () => `http://2130706433:${port()}/a`],
    ['IPv4-mapped IPv6', () => `http://[::ffff:127.0.0.1]:${port()}/a`],
    ['IPv6 loopback', () => `http://[::1]:${port()}/a`],
    ['localhost', () => `http://localhost:${port()}/a`],
    ['a trailing dot', () => `http://127.0.0.1.:${port()}/a`],
    ['a percent-encoded host', () => `http://%31%32%37.0.0.1:${port()}/a`],
    ['an upper-case scheme', () => `HTTP://127.0.0.1:${port()}/a`],
    ['behind userinfo naming the own origin', () => `https://api.prober.test@127.0.0.1:${port()}/a`],
    ['behind userinfo with the key', () => `http://$KEY$@127.0.0.1:${port()}/a`],
    ['the override base of its own origin', () => `${api.origin}/a`],
  ])('%s: refused, nothing reaches it', async (_name, url) => {
    const { outcome, internal: touched, api: apiTouched } = await reached(() => probe({ url: url() }));
    expect(outcome.error).toMatch(/^(HOST_NOT_ALLOWED|INVALID_URL): /);
    expect(touched).toBe(0);
    expect(apiTouched).toBe(0);
  });

  it('the control: the victim reaches it, and the prober asking while the victim is parked on the network is still refused', async () => {
    const { outcome, internal: touched } = await reached(() =>
      Promise.all([catalog.call('victim_wait', { ms: '300' }), probe({ url: `${internal.origin}/during` })]),
    );
    expect(outcome[0]).toMatchObject({ ok: true, content: { value: { path: '/slow?ms=300' } } });
    expect(outcome[1].error).toMatch(/^HOST_NOT_ALLOWED: /);
    expect(touched).toBe(0);
  });
});

describe('a private address the operator allowed for another schema, written in the prober’s text', () => {
  it('is in the prober’s reach as text, yet no connection is opened to it; the victim, whose network.allow names it, connects', async () => {
    const before = internalTls.connections();
    const outcome = await probe({ url: `${internalTls.origin}/erp` });
    expect(outcome.error).toMatch(/^HOST_NOT_ALLOWED: /);
    expect(internalTls.connections()).toBe(before);
    const victim = await catalog.call('victim_reach', { url: `${internalTls.origin}/erp` });
    expect(JSON.stringify(victim)).toMatch(/SELF_SIGNED|certificate/i);
    expect(internalTls.connections()).toBe(before + 1);
  });
});

describe("the key's origin in other spellings", () => {
  it('the own origin in upper case with its default port is the same origin: the key goes out (the control)', async () => {
    const mark = api.records.length;
    expect(await probe({ url: 'HTTPS://API.Prober.TEST:443/ok?k=$KEY$' })).toMatchObject({ status: 200 });
    expect(api.records.slice(mark).map((entry) => entry.url)).toEqual([`/ok?k=${KEY}`]);
  });

  it.each([
    ['http instead of https', 'http://api.prober.test/x?k=$KEY$', 'HOST_NOT_ALLOWED'],
    ['another port', 'https://api.prober.test:8443/x?k=$KEY$', 'HOST_NOT_ALLOWED'],
    ['a trailing dot', 'https://api.prober.test./x?k=$KEY$', 'HOST_NOT_ALLOWED'],
    ['a look-alike host (IDNA)', 'https://\u0430pi.prober.test/x?k=$KEY$', 'HOST_NOT_ALLOWED'],
    ['a sibling in the reach where the key is not bound', 'https://OTHER.prober.test:443/x?k=$KEY$', 'KEY_NOT_ALLOWED'],
    ['the key as a subdomain of its own host', 'https://$KEY$.api.prober.test/x', 'HOST_NOT_ALLOWED'],
  ])('%s: refused, nothing sent', async (_name, url, prefix) => {
    const { outcome, api: touched } = await reached(() => probe({ url }));
    expect(outcome.error?.startsWith(`${prefix}: `)).toBe(true);
    expect(touched).toBe(0);
  });

  it('a redirect out of the reach, or down to http, is not followed', async () => {
    for (const to of [`${internal.origin}/r`, 'http://api.prober.test/r', 'https://other.prober.test/r?k=1']) {
      const {
        outcome,
        internal: touched,
        api: apiTouched,
      } = await reached(() =>
        probe({
          url: `https://api.prober.test/redirect?to=${encodeURIComponent(to)}`,
          headers: [['x-api-key', '$KEY$']],
        }),
      );
      expect(outcome.error).toMatch(/^upstream request failed: .*redirect/i);
      expect(touched).toBe(0);
      // Only the first hop, to the own origin.
      expect(apiTouched).toBe(1);
    }
  });
});

describe('headers that say where a request goes, in other spellings', () => {
  it.each<[string, Spec['headersAs'], Array<[string, string]>]>([
    ['Host in mixed case', 'object', [['HoSt', 'victim.test']]],
    [
      'two Host names differing in case',
      'object',
      [
        ['host', 'api.prober.test'],
        ['HOST', 'victim.test'],
      ],
    ],
    ['Host as a pair', 'pairs', [['Host', 'victim.test']]],
    ['Transfer-Encoding in a Headers', 'Headers', [['Transfer-Encoding', 'chunked']]],
    ['X-Forwarded-Host', 'object', [['X-FORWARDED-HOST', 'victim.test']]],
    ['Proxy-Authorization', 'pairs', [['proxy-authorization', 'Basic $KEY$']]],
    ['Keep-Alive spelled with the Kelvin sign', 'object', [['\u212Aeep-Alive', 'timeout=5']]],
    ['a Content-Length that is not the body’s', 'object', [['content-length', '03']]],
  ])('%s: refused, nothing sent', async (_name, headersAs, extra) => {
    const { outcome, api: touched } = await reached(() =>
      probe({ url: 'https://api.prober.test/h', headers: [['x-api-key', '$KEY$'], ...extra], headersAs, body: 'abc' }),
    );
    expect(outcome.error).toMatch(/^HEADER_NOT_ALLOWED: /);
    expect(touched).toBe(0);
  });

  it.each<[string, Array<[string, string]>]>([
    ['a line break in a value', [['x-note', 'a\r\nHost: victim.test']]],
    ['a line break after the key', [['x-api-key', '$KEY$\r\nX-Forwarded-Host: victim.test']]],
    ['a name with a space', [['host ', 'victim.test']]],
    ['a name with a colon', [['x-a: b\r\nhost', 'victim.test']]],
  ])('%s: refused, nothing sent', async (_name, extra) => {
    const { outcome, api: touched } = await reached(() =>
      probe({ url: 'https://api.prober.test/h', headers: [['x-api-key', '$KEY$'], ...extra] }),
    );
    expect(outcome.error).toBeDefined();
    expect(touched).toBe(0);
  });
});

describe('the key in a body of every kind, to an origin it is not bound to', () => {
  it.each(['text', 'bytes', 'params', 'chunks', 'asyncChunks'] as const)(
    '%s: refused, nothing sent; to its own origin it goes out',
    async (bodyAs) => {
      const body = 'secret=$KEY$&more';
      const { outcome, api: touched } = await reached(() =>
        probe({ url: 'https://other.prober.test/b', method: 'POST', body, bodyAs }),
      );
      expect(outcome.error).toMatch(/^KEY_NOT_ALLOWED: /);
      expect(touched).toBe(0);
      const mark = api.records.length;
      expect(await probe({ url: 'https://api.prober.test/b', method: 'POST', body, bodyAs })).toMatchObject({
        status: 200,
      });
      expect(api.records.slice(mark)[0]?.body).toContain(KEY);
    },
  );
});

describe('bridged answers that would take the server down', () => {
  it('a gzip bomb stops at the size cap, with an error naming it', async () => {
    const outcome = await probe({ url: 'https://api.prober.test/bomb' });
    expect(outcome.error).toMatch(/too large|maxResponseBytes|TOO_MANY_BYTES/i);
  });

  it('an answer over the size cap is an error, not a truncated text', async () => {
    const outcome = await probe({ url: 'https://api.prober.test/huge' });
    expect(outcome.text).toBeUndefined();
    expect(outcome.error).toMatch(/too large|maxResponseBytes|TOO_MANY_BYTES/i);
  });
});
