// decision R5: which addresses count as public, which origins the operator allows to go private,
// and the lookup that keeps only public addresses. No test here opens a connection.

import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { describe, expect, it } from 'vitest';
import { NetworkPolicy, nonPublicBlock } from '../../src/http/address-policy.js';
import { publicOnlyLookup } from '../../src/http/connector.js';
import { HttpError } from '../../src/http/errors.js';
import { UpstreamError } from '../../src/http/upstreams.js';

describe('nonPublicBlock: IPv4', () => {
  // First and last address of every block, with the public neighbours just outside it.
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.255.255.255', 'unspecified'],
    ['10.0.0.0', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.0', 'CGNAT'],
    ['100.127.255.255', 'CGNAT'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.0.0', 'link-local'],
    ['169.254.169.254', 'link-local'],
    ['172.16.0.0', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['192.88.99.1', 'reserved'],
    ['192.168.0.1', 'private'],
    ['192.168.255.255', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.255', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
  ])('%s is %s', (address, block) => {
    expect(nonPublicBlock(address)).toBe(block);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.0.1.0',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '93.184.216.34',
  ])('%s is public', (address) => {
    expect(nonPublicBlock(address)).toBeNull();
  });
});

describe('nonPublicBlock: IPv6', () => {
  it.each([
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['ff05::1:3', 'multicast'],
    ['fec0::1', 'reserved'],
    ['::2', 'reserved'],
    ['::7f00:1', 'reserved'], // IPv4-compatible ::127.0.0.1 (deprecated)
    ['100::1', 'reserved'], // discard-only
    ['2001::1', 'reserved'], // Teredo
    ['2001:2::1', 'reserved'], // benchmarking
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['64:ff9b:1::1', 'reserved'], // local-use NAT64
    // IPv6 forms that carry an IPv4 address are judged by it.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['0:0:0:0:0:ffff:c0a8:0101', 'private'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:7f00:1::1', 'loopback'], // 6to4 of 127.0.0.1
    ['2002:c0a8:101::', 'private'], // 6to4 of 192.168.1.1
  ])('%s is %s', (address, block) => {
    expect(nonPublicBlock(address)).toBe(block);
  });

  it.each([
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001:82b::200e',
    '2001:200::1',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
    '3fff:1000::1',
  ])('%s is public', (address) => {
    expect(nonPublicBlock(address)).toBeNull();
  });

  it('text that is no IP address is never public', () => {
    expect(nonPublicBlock('localhost')).toBe('not an IP address');
    expect(nonPublicBlock('')).toBe('not an IP address');
  });
});

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
    const { error } = await resolve(publicOnlyLookup('https://nowhere.test', failing), true);
    expect((error as NodeJS.ErrnoException).code).toBe('ENOTFOUND');
  });
});
