// Upstream overrides for staging and tests (`--upstream ORIGIN=BASEURL`, `upstreams` in
// `.flowmcp/config.json`). The request is built and pinned for the schema's own origin; only
// then is it sent to the override's base URL, path and query carried over. The base may be a
// private address for the requests its override routes there, and for no other (client.ts).

import { FlowguardError } from '../errors/flowguard-error.js';
import type { RequestTarget } from './stable-target.js';

/** An upstream override (`--upstream`, `upstreams` of the config) that cannot be used (ERR003). */
export class UpstreamError extends FlowguardError {
  constructor(message: string) {
    super('ERR003', message);
  }
}

/** An override's base as a request needs it: its origin, and the text a routed URL starts with. */
interface Base {
  origin: string;
  /** The base's path without its last `/`: the routed request's path follows. */
  path: string;
  /** The origin and that path. */
  prefix: string;
}

export class Upstreams {
  private readonly bases: ReadonlyMap<string, Base>;

  /** `overrides` maps an origin (`https://api.example.com`) or `*` (every origin) to a base URL. */
  constructor(overrides: Readonly<Record<string, string>> = {}) {
    const bases = new Map<string, Base>();
    for (const [origin, text] of Object.entries(overrides)) {
      const base = baseOf(text);
      // Read once here: a URL's origin is computed anew each time it is asked for.
      const path = base.pathname.endsWith('/') ? base.pathname.slice(0, -1) : base.pathname;
      bases.set(origin === '*' ? '*' : originOf(origin), { origin: base.origin, path, prefix: base.origin + path });
    }
    this.bases = bases;
  }

  /** Reads `ORIGIN=BASEURL` flags. */
  static parseFlags(flags: readonly string[]): Record<string, string> {
    const overrides: Record<string, string> = {};
    for (const flag of flags) {
      const at = flag.indexOf('=');
      if (at <= 0)
        throw new UpstreamError(
          `--upstream ${flag}: expected ORIGIN=BASEURL, e.g. https://api.example.com=http://127.0.0.1:8080`,
        );
      overrides[flag.slice(0, at)] = flag.slice(at + 1);
    }
    return overrides;
  }

  /**
   * Whether an override sends a request aimed at `aimedAt` to `sentTo` (both origins): only such
   * a request may connect to the override's base at a private address (R5). The operator wrote
   * the override for that origin; a schema or handler that names the base's address itself
   * gets no such trust.
   */
  routes(aimedAt: string, sentTo: string): boolean {
    return this.baseFor(aimedAt)?.origin === sentTo;
  }

  /** Where a request for `url` (already parsed and checked) is sent: `url` itself when no override routes it. */
  route(url: URL): URL {
    const base = this.baseFor(url.origin);
    if (!base) return url;
    return new URL(base.prefix + url.pathname + url.search);
  }

  /**
   * Where a request for `target` (already checked) is sent: `target` itself when no override
   * routes it. Its path and query are written as a URL writes them, and the base's were written
   * by one: the routed text is a URL as it would parse, and is not parsed again.
   */
  routeTarget(target: RequestTarget): RequestTarget {
    const base = this.baseFor(target.origin);
    if (!base) return target;
    return { href: base.prefix + target.path, origin: base.origin, path: base.path + target.path };
  }

  /** The override for requests aimed at `origin`: its own, else the `*` one (no lookup at all without overrides, the usual case). */
  private baseFor(origin: string): Base | undefined {
    return this.bases.size === 0 ? undefined : (this.bases.get(origin) ?? this.bases.get('*'));
  }
}

function originOf(text: string): string {
  try {
    const url = new URL(text);
    if (url.pathname !== '/' || url.search || url.hash) throw new Error('not an origin');
    return url.origin;
  } catch {
    throw new UpstreamError(`upstream origin '${text}' must be scheme://host[:port] or *`);
  }
}

function baseOf(text: string): URL {
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    return url;
  } catch {
    throw new UpstreamError(`upstream base '${text}' must be an http(s) URL`);
  }
}
