// decision R5: which addresses count as public: every block of the table with its first and last
// address and the public neighbours just outside it, and the IPv6 forms that carry an IPv4 address.

import { describe, expect, it } from 'vitest';
import { nonPublicBlock } from '../../src/net/public-address.js';

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
