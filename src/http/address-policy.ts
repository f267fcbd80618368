// Which addresses a request may connect to (decision R5): public unicast only, unless the operator
// allows an origin. The check runs on the address actually connected to (src/http/connector.ts),
// so a name that resolves to 127.0.0.1 is refused as surely as the literal.

import { isIPv4, isIPv6 } from 'node:net';
import { UpstreamError } from './upstreams.js';

/** An IPv4 block: first address as a 32-bit number, prefix length, and what it is. */
type Block = readonly [start: number, bits: number, name: string];

/** IANA special-purpose blocks (RFC 6890 and later) that are not publicly routed unicast. */
const IPV4_BLOCKS: readonly Block[] = [
  [ipv4('0.0.0.0'), 8, 'unspecified'], // "this network"
  [ipv4('10.0.0.0'), 8, 'private'],
  [ipv4('100.64.0.0'), 10, 'CGNAT'],
  [ipv4('127.0.0.0'), 8, 'loopback'],
  [ipv4('169.254.0.0'), 16, 'link-local'],
  [ipv4('172.16.0.0'), 12, 'private'],
  [ipv4('192.0.0.0'), 24, 'reserved'], // IETF protocol assignments
  [ipv4('192.0.2.0'), 24, 'documentation'],
  [ipv4('192.88.99.0'), 24, 'reserved'], // the deprecated 6to4 relay anycast
  [ipv4('192.168.0.0'), 16, 'private'],
  [ipv4('198.18.0.0'), 15, 'benchmarking'],
  [ipv4('198.51.100.0'), 24, 'documentation'],
  [ipv4('203.0.113.0'), 24, 'documentation'],
  [ipv4('224.0.0.0'), 4, 'multicast'],
  [ipv4('240.0.0.0'), 4, 'reserved'], // and the broadcast address
];

/**
 * What kind of non-public address `address` is (`loopback`, `private`, ...), or null when it is
 * public. IPv6 forms that carry an IPv4 address (IPv4-mapped, NAT64, 6to4) are judged by that
 * address. Text that is no IP address is `not an IP address`, never public.
 */
export function nonPublicBlock(address: string): string | null {
  if (isIPv4(address)) return ipv4Block(ipv4(address));
  if (isIPv6(address)) return ipv6Block(ipv6Groups(address));
  return 'not an IP address';
}

function ipv4Block(address: number): string | null {
  for (const [start, bits, name] of IPV4_BLOCKS) {
    if (address >>> (32 - bits) === start >>> (32 - bits)) return name;
  }
  return null;
}

/** Judged on the eight 16-bit groups; only 2000::/3 is global unicast. */
function ipv6Block(g: readonly number[]): string | null {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = (high: number, low: number) => ipv4Block(((high << 16) | low) >>> 0);
  if ((g0 | g1 | g2 | g3 | g4) === 0) {
    if (g5 === 0xffff) return embedded(g6, g7); // ::ffff:a.b.c.d, IPv4-mapped
    if ((g5 | g6) === 0 && g7 <= 1) return g7 === 0 ? 'unspecified' : 'loopback';
    return 'reserved'; // IPv4-compatible (deprecated) and the rest of ::/8
  }
  if (g0 === 0x64 && g1 === 0xff9b && (g2 | g3 | g4 | g5) === 0) return embedded(g6, g7); // NAT64
  if ((g0 & 0xfe00) === 0xfc00) return 'unique-local';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  if ((g0 & 0xe000) !== 0x2000) return 'reserved';
  if (g0 === 0x2001 && g1 < 0x200) return 'reserved'; // 2001::/23: Teredo, benchmarking, ORCHID
  if (g0 === 0x2001 && g1 === 0xdb8) return 'documentation';
  if (g0 === 0x3fff && g1 < 0x1000) return 'documentation'; // 3fff::/20
  if (g0 === 0x2002) return embedded(g1, g2); // 6to4
  return null;
}

/** A dotted IPv4 address (already checked by isIPv4) as an unsigned 32-bit number. */
function ipv4(text: string): number {
  return text.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
}

/** An IPv6 address (already checked by isIPv6) as its eight 16-bit groups. */
function ipv6Groups(text: string): number[] {
  let address = text.split('%')[0] as string; // a zone id names an interface, not an address
  const tail = address.slice(address.lastIndexOf(':') + 1);
  if (tail.includes('.')) {
    const value = ipv4(tail);
    address = `${address.slice(0, address.length - tail.length)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const [head = '', rest] = address.split('::');
  if (rest === undefined) return groups(head);
  const before = groups(head);
  const after = groups(rest);
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}

export interface NetworkOptions {
  /** Non-public addresses for every origin (`true`), or for the origins listed. */
  allowPrivate?: boolean | readonly string[];
}

/** The operator's exceptions, per origin (`https://host:port` as `URL#origin` writes it). */
export class NetworkPolicy {
  private readonly everyOrigin: boolean;
  /** The origins the operator listed one by one: each a service of its own, for the schemas that name it (call/bridge.ts). */
  readonly listed: ReadonlySet<string>;

  constructor(options: NetworkOptions = {}) {
    const { allowPrivate = false } = options;
    this.everyOrigin = allowPrivate === true;
    this.listed = new Set(Array.isArray(allowPrivate) ? allowPrivate.map(allowedOrigin) : []);
  }

  /** Whether requests to `origin` may connect to loopback, private and other non-public addresses. */
  allowsPrivate(origin: string): boolean {
    return this.everyOrigin || this.listed.has(origin);
  }
}

function allowedOrigin(text: string): string {
  try {
    const url = new URL(text);
    if (
      (url.protocol === 'https:' || url.protocol === 'http:') &&
      url.pathname === '/' &&
      !url.search &&
      !url.hash &&
      !url.username
    )
      return url.origin;
  } catch {
    // reported below
  }
  throw new UpstreamError(`network.allowPrivate: '${text.slice(0, 100)}' is not an origin (http(s)://host[:port])`);
}
