// Connections that reach public addresses only (decision R5): every new connection, a redirect's
// included, is judged on the address it uses, after DNS, before a byte of the request is written.
// The core's HTTP client and the resource server's own fetches both connect through this.
//
// - A literal IP host is judged before anything is opened.
// - A name is resolved through a lookup that keeps public addresses only; when none is left the
//   connection fails before it is opened.
// - Once connected, the socket's remote address is judged again (a last line behind the lookup).

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { buildConnector } from 'undici';
import { undici } from '../shared/deps.js';
import { nonPublicBlock } from './public-address.js';

type Connector = buildConnector.connector;

/** The errors a refused connection fails with, in the caller's own error model. */
export interface Refusals {
  /** `origin` resolved to, or names, `address`, which is `block` (loopback, private, ...). */
  privateAddress(origin: string, address: string, block: string): Error;
  /** `origin`'s name resolved to no address at all. */
  noAddress(origin: string): Error;
}

/** A connector for `origin` that refuses non-public addresses. `lookup` is node:dns's by default. */
export function publicOnlyConnector(
  origin: string,
  timeoutMs: number,
  refusals: Refusals,
  lookup: LookupFunction = dnsLookup,
): Connector {
  const connect = undici().buildConnector({ timeout: timeoutMs, lookup: publicOnlyLookup(origin, refusals, lookup) });
  return (options, callback) => {
    if (isIP(options.hostname) !== 0) {
      const block = nonPublicBlock(options.hostname);
      // Asynchronous, as a real connection failure would be: undici is inside its connect step.
      if (block !== null)
        return queueMicrotask(() => callback(refusals.privateAddress(origin, options.hostname, block), null));
    }
    connect(options, (error, socket) => {
      if (error !== null) return callback(error, null);
      const address = socket.remoteAddress ?? 'an unknown address';
      const block = nonPublicBlock(address);
      if (block === null) return callback(null, socket);
      socket.destroy();
      callback(refusals.privateAddress(origin, address, block), null);
    });
  };
}

/** Resolves as `lookup` does, minus non-public addresses; fails when only those are found. */
export function publicOnlyLookup(origin: string, refusals: Refusals, lookup: LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, found) => {
      if (error) return callback(error, '');
      const addresses = found as LookupAddress[];
      const usable = addresses.filter(({ address }) => nonPublicBlock(address) === null);
      const first = usable[0];
      if (first === undefined) {
        const refused = addresses[0];
        const reason =
          refused === undefined
            ? refusals.noAddress(origin)
            : refusals.privateAddress(origin, refused.address, nonPublicBlock(refused.address) ?? '');
        return callback(reason as NodeJS.ErrnoException, '');
      }
      if (options.all) callback(null, usable);
      else callback(null, first.address, first.family);
    });
  };
}
