// Which addresses a request may connect to (decision R5): public unicast only (src/net/), unless
// the operator allows an origin. The check runs on the address actually connected to, so a name
// that resolves to 127.0.0.1 is refused as surely as the literal.

import type { Refusals } from '../net/public-connector.js';
import { HttpError } from './errors.js';
import { UpstreamError } from './upstreams.js';

/** How the core's requests fail at a non-public address: the operator's setting named. */
export const ADDRESS_REFUSALS: Refusals = {
  privateAddress: (origin, address, block) =>
    new HttpError(
      'private-address',
      `${origin} resolves to a private address (${address}, ${block}); refused. Allow it with network.allowPrivate in .flowmcp/config.json`,
    ),
  noAddress: (origin) => new HttpError('connect', `cannot connect to ${origin} (no address found)`),
};

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
