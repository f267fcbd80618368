// decision R5 on the core's side: which origins the operator allows to go private, and the lookup
// that keeps only public addresses, failing with the core's errors. No test here opens a connection.
// Which addresses are public: test/net/public-address.test.ts.

import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ADDRESS_REFUSALS, NetworkPolicy } from '../../src/http/address-policy.js';
import { publicOnlyLookup } from '../../src/net/public-connector.js';
import { HttpError } from '../../src/http/errors.js';
import { UpstreamError } from '../../src/http/upstreams.js';

describe('NetworkPolicy', () => {
  it('allows no origin by default', () => {
    expect(new NetworkPolicy().allowsPrivate('https://127.0.0.1:8443')).toBe(false);
  });

  it('allowPrivate true allows every origin', () => {
    expect(new NetworkPolicy({ allowPrivate: true }).allowsPrivate('https://internal.example.com')).toBe(true);
  });

  it('an allowPrivate list allows exactly its origins, as URL writes them', () => {
    const policy = new NetworkPolicy({ allowPrivate: ['https://Internal.Example.com:443', 'http://127.0.0.1:8080/'] });
    expect(policy.allowsPrivate('https://internal.example.com')).toBe(true);
    expect(policy.allowsPrivate('http://127.0.0.1:8080')).toBe(true);
    expect(policy.allowsPrivate('https://127.0.0.1:8080')).toBe(false);
    expect(policy.allowsPrivate('http://127.0.0.1:8081')).toBe(false);
  });

  it('an allowPrivate entry that is no origin is an operator error naming it', () => {
    expect(() => new NetworkPolicy({ allowPrivate: ['https://internal.example.com/api'] })).toThrow(UpstreamError);
    expect(() => new NetworkPolicy({ allowPrivate: ['internal'] })).toThrow(
      "network.allowPrivate: 'internal' is not an origin (http(s)://host[:port])",
    );
  });
});

describe('publicOnlyLookup', () => {
  /** A resolver that answers every name with `addresses`, as node:dns does with `all: true`. */
  const resolver = (addresses: LookupAddress[]): LookupFunction =>
    ((_hostname: string, _options: unknown, callback: (error: null, found: LookupAddress[]) => void) =>
      callback(null, addresses)) as unknown as LookupFunction;

  const resolve = (lookup: LookupFunction, all: boolean) =>
    new Promise<{ error: unknown; address: unknown; family?: number }>((done) => {
      lookup('api.example.test', { all }, (error, address, family) => done({ error, address, family }));
    });

  it('keeps the public addresses of a name', async () => {
    const lookup = publicOnlyLookup(
      'https://api.example.test',
      ADDRESS_REFUSALS,
      resolver([
        { address: '127.0.0.1', family: 4 },
        { address: '93.184.216.34', family: 4 },
        { address: '::1', family: 6 },
      ]),
    );
    expect(await resolve(lookup, true)).toEqual({
      error: null,
      address: [{ address: '93.184.216.34', family: 4 }],
      family: undefined,
    });
    expect(await resolve(lookup, false)).toEqual({ error: null, address: '93.184.216.34', family: 4 });
  });

  it('fails a name with only non-public addresses, naming the origin, the address and the setting', async () => {
    const lookup = publicOnlyLookup(
      'https://api.example.test',
      ADDRESS_REFUSALS,
      resolver([
        { address: '10.0.0.5', family: 4 },
        { address: 'fd00::5', family: 6 },
      ]),
    );
    const { error } = await resolve(lookup, true);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).kind).toBe('private-address');
    expect((error as HttpError).message).toBe(
      'https://api.example.test resolves to a private address (10.0.0.5, private); refused. Allow it with network.allowPrivate in .flowmcp/config.json',
    );
  });

  it('passes a resolver error on', async () => {
    const failing = ((_h: string, _o: unknown, callback: (error: Error) => void) =>
      callback(Object.assign(new Error('no such name'), { code: 'ENOTFOUND' }))) as unknown as LookupFunction;
    const { error } = await resolve(publicOnlyLookup('https://nowhere.test', ADDRESS_REFUSALS, failing), true);
    expect((error as NodeJS.ErrnoException).code).toBe('ENOTFOUND');
  });
});
