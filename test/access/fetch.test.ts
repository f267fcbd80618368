// The resource server's own fetches (metadata, key set, introspection) reach a private address
// only where the operator named that origin. Attacked with a name the issuer's metadata could give
// (`jwks.internal.test`) that resolves to loopback: refused at the connection, before a byte is
// sent, by the same public-only connector as the core's requests; a loopback server counts every
// connection it is offered.

import { createServer, type AddressInfo, type LookupFunction, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessFetchError, BoundedFetch } from '../../src/access/fetch.js';

/** A resolver that answers every name with 127.0.0.1, as a name in a hostile document could. */
const toLoopback = ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
  options.all
    ? callback(null, [{ address: '127.0.0.1', family: 4 }])
    : callback(null, '127.0.0.1', 4)) as unknown as LookupFunction;

let server: Server;
let port: number;
let connections = 0;

beforeAll(async () => {
  server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('BoundedFetch', () => {
  it('refuses a name the operator did not give when it resolves to a loopback address: no connection is made', async () => {
    const fetcher = new BoundedFetch([], toLoopback);
    const before = connections;
    const failure = await fetcher.fetch(`https://jwks.internal.test:${port}/jwks`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AccessFetchError);
    expect((failure as Error).message).toMatch(
      /could not be fetched: https:\/\/jwks\.internal\.test:\d+ resolves to a loopback address \(127\.0\.0\.1\): a private or loopback address is fetched only where the config names it/,
    );
    expect(connections).toBe(before);
  });

  it('refuses a literal private address at once, without a lookup', () => {
    const fetcher = new BoundedFetch([], toLoopback);
    expect(fetcher.refusal('https://10.1.2.3/jwks')).toMatch(/private or loopback address/);
    expect(fetcher.refusal('https://[::ffff:127.0.0.1]/jwks')).toMatch(/private or loopback address/);
    expect(fetcher.refusal(`https://jwks.internal.test:${port}/jwks`)).toBeUndefined();
  });

  it('reaches the same loopback server when the operator named its origin (the control: the server counts the connection)', async () => {
    const origin = `https://127.0.0.1:${port}`;
    const fetcher = new BoundedFetch([origin], toLoopback);
    const before = connections;
    // The server is no TLS server: the fetch fails after connecting; what counts is that it connected.
    await expect(fetcher.fetch(`${origin}/jwks`)).rejects.toThrow(AccessFetchError);
    expect(connections).toBe(before + 1);
  });
});
