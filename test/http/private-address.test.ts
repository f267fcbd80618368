// decision R5 at the HTTP client: no connection to a loopback, private or other non-public
// address unless the operator allows the origin. A TLS server on 127.0.0.1 stands in for an
// internal service; every refusal must leave it without a single TCP connection.

import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, HttpError, type HttpNetworkOptions } from '../../src/http/client.js';
import { Upstreams } from '../../src/http/upstreams.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

let internal: Upstream;
let allowedUpstream: Upstream;

beforeAll(async () => {
  internal = await startUpstream(
    (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('internal service'),
    { tls: true },
  );
  allowedUpstream = await startUpstream((req, res) => {
    if (req.url === '/to-internal')
      res.writeHead(302, { location: `https://localhost:${internal.port}/secrets` }).end();
    else if (req.url === '/same-origin') res.writeHead(302, { location: '/landed', connection: 'close' }).end();
    else res.writeHead(200, { 'content-type': 'text/plain' }).end(`reached ${req.url}`);
  });
});

afterAll(async () => {
  await internal.close();
  await allowedUpstream.close();
});

async function attempt(
  url: string,
  network?: HttpNetworkOptions,
  aimedAt?: string,
): Promise<{ error: HttpError | null; connections: number }> {
  const client = new HttpClient({ connectTimeoutMs: 2_000 }, network);
  const before = internal.connections();
  try {
    await client.request(
      { method: 'GET', url, headers: { 'x-api-key': 'SECRET-KEY-VALUE' } },
      aimedAt ? { origin: aimedAt } : {},
    );
    return { error: null, connections: internal.connections() - before };
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return { error, connections: internal.connections() - before };
  } finally {
    await client.close();
  }
}

/** A resolver that puts every name on `address` (no DNS is asked), counting its calls. */
function resolvingTo(address: string): LookupFunction & { calls: number } {
  const lookup = ((
    _hostname: string,
    options: { all?: boolean },
    callback: (error: null, found: string | LookupAddress[], family?: number) => void,
  ) => {
    lookup.calls++;
    if (options.all) callback(null, [{ address, family: 4 }]);
    else callback(null, address, 4);
  }) as unknown as LookupFunction & { calls: number };
  lookup.calls = 0;
  return lookup;
}

describe('refused by default, before any connection', () => {
  it.each([
    ['the loopback literal', () => `https://127.0.0.1:${internal.port}/`, '127.0.0.1, loopback'],
    ['a name that resolves to loopback', () => `https://localhost:${internal.port}/`, 'loopback'],
    [
      '0.0.0.0, which Linux connects to the local host',
      () => `https://0.0.0.0:${internal.port}/`,
      '0.0.0.0, unspecified',
    ],
    ['127.0.0.1 written as one number', () => `https://2130706433:${internal.port}/`, '127.0.0.1, loopback'],
    [
      '127.0.0.1 as an IPv4-mapped IPv6 literal',
      () => `https://[::ffff:127.0.0.1]:${internal.port}/`,
      '::ffff:7f00:1, loopback',
    ],
    ['the IPv6 loopback literal', () => `https://[::1]:${internal.port}/`, '::1, loopback'],
  ])('%s', async (_name, url, detail) => {
    const { error, connections } = await attempt(url());
    expect(connections).toBe(0);
    expect(error?.kind).toBe('private-address');
    expect(error?.message).toMatch(
      /resolves to a private address \(.+\); refused\. Allow it with network\.allowPrivate in \.flowmcp\/config\.json$/,
    );
    expect(error?.message).toContain(detail);
    expect(error?.message).not.toContain('SECRET');
  });

  it('a name resolved to a private address is refused however it is resolved', async () => {
    const lookup = resolvingTo('127.0.0.1');
    const { error, connections } = await attempt(`https://internal.test:${internal.port}/`, { lookup });
    expect(lookup.calls).toBeGreaterThan(0);
    expect(connections).toBe(0);
    expect(error?.message).toBe(
      `https://internal.test:${internal.port} resolves to a private address (127.0.0.1, loopback); refused. Allow it with network.allowPrivate in .flowmcp/config.json`,
    );
  });

  it('an allowed origin redirecting to a private one is refused without contacting it', async () => {
    const { error, connections } = await attempt(`${allowedUpstream.origin}/to-internal`, {
      allowPrivate: [allowedUpstream.origin],
    });
    expect(connections).toBe(0);
    expect(error?.kind).toBe('redirect-refused');
  });

  it('an allowPrivate list allows only its own origins', async () => {
    const { error, connections } = await attempt(`https://localhost:${internal.port}/`, {
      allowPrivate: [`https://127.0.0.1:${internal.port}`],
    });
    expect([error?.kind, connections]).toEqual(['private-address', 0]);
  });
});

describe('allowed by the operator', () => {
  // The internal service's certificate is self-signed: a request that reaches it connects, then
  // fails its TLS handshake. The connection count is what these tests look at.
  it('network.allowPrivate: true', async () => {
    const { error, connections } = await attempt(`https://127.0.0.1:${internal.port}/`, { allowPrivate: true });
    expect(connections).toBe(1);
    expect(error?.kind).toBe('connect');
  });

  it('network.allowPrivate listing the origin', async () => {
    const { connections } = await attempt(`https://localhost:${internal.port}/`, {
      allowPrivate: [`https://localhost:${internal.port}`],
    });
    expect(connections).toBe(1);
  });

  it('a request an upstream override routes to its base', async () => {
    const upstreams = new Upstreams({ 'https://api.example.test': `https://127.0.0.1:${internal.port}` });
    const { connections } = await attempt(
      `https://127.0.0.1:${internal.port}/`,
      { upstreams },
      'https://api.example.test',
    );
    expect(connections).toBe(1);
  });

  it('not a request aimed at the override base itself, nor one aimed at an origin the override does not map (issue 23)', async () => {
    const upstreams = new Upstreams({ 'https://api.example.test': `https://127.0.0.1:${internal.port}` });
    const direct = await attempt(`https://127.0.0.1:${internal.port}/`, { upstreams });
    expect([direct.error?.kind, direct.connections]).toEqual(['private-address', 0]);
    const other = await attempt(`https://127.0.0.1:${internal.port}/`, { upstreams }, 'https://other.example.test');
    expect([other.error?.kind, other.connections]).toEqual(['private-address', 0]);
  });

  it('one client keeps them apart: a routed request does not open the way for a direct one to the same address', async () => {
    const upstreams = new Upstreams({ 'https://api.example.test': `https://127.0.0.1:${internal.port}` });
    const client = new HttpClient({ connectTimeoutMs: 2_000 }, { upstreams });
    const url = `https://127.0.0.1:${internal.port}/`;
    try {
      const before = internal.connections();
      await expect(
        client.request({ method: 'GET', url, headers: {} }, { origin: 'https://api.example.test' }),
      ).rejects.toMatchObject({ kind: 'connect' });
      expect(internal.connections()).toBe(before + 1);
      await expect(client.request({ method: 'GET', url, headers: {} })).rejects.toMatchObject({
        kind: 'private-address',
      });
      expect(internal.connections()).toBe(before + 1);
    } finally {
      await client.close();
    }
  });

  it('a same-origin redirect of an allowed origin is followed over a new connection', async () => {
    const client = new HttpClient({}, { allowPrivate: [allowedUpstream.origin] });
    try {
      const response = await client.request({
        method: 'GET',
        url: `${allowedUpstream.origin}/same-origin`,
        headers: {},
      });
      expect([response.status, response.redirects, response.body.toString()]).toEqual([200, 1, 'reached /landed']);
    } finally {
      await client.close();
    }
  });
});

describe('a name that resolves privately', () => {
  it('is looked up and judged again for every new connection: no verdict is kept per origin', async () => {
    const lookup = resolvingTo('127.0.0.1');
    const client = new HttpClient({}, { lookup });
    try {
      for (let i = 0; i < 2; i++) {
        const before = internal.connections();
        await expect(
          client.request({ method: 'GET', url: `https://rebind.test:${internal.port}/`, headers: {} }),
        ).rejects.toMatchObject({ kind: 'private-address' });
        expect(internal.connections()).toBe(before);
      }
      expect(lookup.calls).toBe(2);
    } finally {
      await client.close();
    }
  });
});
