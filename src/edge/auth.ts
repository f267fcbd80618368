// Who may call the Streamable HTTP endpoint, checked before a request reaches MCP:
//
// - Host: the request's `Host` header must name the address the server is bound to (for a
//   loopback bind also localhost, 127.0.0.1 and [::1]; for a wildcard bind, 0.0.0.0 or ::, every
//   address of this machine's interfaces) or a host the operator allowed (`--allow-host`,
//   `http.allowedHosts`). A page on an attacker's name that re-resolves to this server (DNS
//   rebinding) sends its own name, and is refused. Only the name is compared, not the port: a
//   load balancer or proxy in front may use another port.
// - Bearer tokens: from `--auth-token`, the environment variable FLOWGUARD_AUTH_TOKEN, or the
//   config's `http.authTokens` as `sha256:<hex>` digests (so the config holds no secret). Every
//   token is kept only as its SHA-256 digest; a presented token is hashed and compared with
//   each digest by crypto.timingSafeEqual, all of them every time, so neither the comparison nor
//   the number of tokens tried leaks through timing.
//   A token of `identities.<name>.tokens` stands for that identity (src/access/identities.ts).
// - A server bound to anything but loopback needs a token or OAuth (src/access/): creating the
//   gate without either fails with a message that says how to set one.

import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { FlowguardError } from '../errors/flowguard-error.js';

export const AUTH_TOKEN_ENV = 'FLOWGUARD_AUTH_TOKEN';
/** Shorter tokens are refused: they can be guessed. */
const MIN_TOKEN_LENGTH = 16;
/** The challenge of a 401 (RFC 6750; what MCP clients expect of a resource server). */
export const BEARER_REALM = 'Bearer realm="flowguard"';

const TOKEN_DIGEST = /^sha256:([0-9a-fA-F]{64})$/;
const BEARER = /^Bearer +(\S+) *$/i;
const LOOPBACK_NAMES: readonly string[] = ['localhost', '127.0.0.1', '::1'];
const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::', '']);

export interface AccessOptions {
  /** The address or name the server binds to. */
  host: string;
  /** Further host names or addresses a request's `Host` header may name. */
  allowedHosts?: readonly string[];
  /** Tokens in clear (`--auth-token`, FLOWGUARD_AUTH_TOKEN). */
  tokens?: readonly string[];
  /** Tokens as `sha256:<hex>` digests (`http.authTokens`). */
  tokenDigests?: readonly string[];
  /** Tokens as digests that stand for an identity (`identities.<name>.tokens`). */
  namedTokens?: ReadonlyArray<{ identity: string; digest: string }>;
  /** OAuth access tokens are verified too (src/access/): a non-loopback bind needs no static token then. */
  oauth?: boolean;
}

/** A token or host setting that cannot be used; the message names it and says what to do. */
export class AccessConfigError extends FlowguardError {
  constructor(message: string) {
    super('ERR004', message);
  }
}

export type TokenCheck = 'accepted' | 'missing' | 'invalid';

export class AccessGate {
  private constructor(
    private readonly hosts: ReadonlySet<string>,
    private readonly digests: readonly Buffer[],
    /** The identity each digest stands for, by its index; undefined for a token of no identity. */
    private readonly identities: ReadonlyArray<string | undefined>,
  ) {}

  static create(options: AccessOptions): AccessGate {
    const digests = [
      ...(options.tokens ?? []).map((token) => {
        if (token.length < MIN_TOKEN_LENGTH)
          throw new AccessConfigError(
            `an auth token must be at least ${MIN_TOKEN_LENGTH} characters long (one is ${token.length}); make one with: openssl rand -hex 32`,
          );
        return sha256(token);
      }),
      ...(options.tokenDigests ?? []).map((text) => {
        const hex = TOKEN_DIGEST.exec(text)?.[1];
        if (!hex)
          throw new AccessConfigError(
            `http.authTokens: '${text.slice(0, 80)}' is not sha256:<64 hex digits>; make one with: echo "sha256:$(printf %s "$TOKEN" | sha256sum | cut -d" " -f1)"`,
          );
        return Buffer.from(hex, 'hex');
      }),
    ];
    const identities: Array<string | undefined> = digests.map(() => undefined);
    for (const { identity, digest } of options.namedTokens ?? []) {
      const hex = TOKEN_DIGEST.exec(digest)?.[1];
      if (!hex)
        throw new AccessConfigError(
          `identities.${identity}.tokens: '${digest.slice(0, 80)}' is not sha256:<64 hex digits>`,
        );
      digests.push(Buffer.from(hex, 'hex'));
      identities.push(identity);
    }
    if (digests.length === 0 && !options.oauth && !isLoopback(options.host)) {
      throw new AccessConfigError(
        `refusing to listen on ${options.host} without an auth token: anyone who can reach it could call every tool. ` +
          `Set one with ${AUTH_TOKEN_ENV}=<token> in the environment (e.g. ${AUTH_TOKEN_ENV}=$(openssl rand -hex 32)), ` +
          `--auth-token <token>, or http.authTokens: ["sha256:<hex of the token>"] in .flowmcp/config.json; or bind to 127.0.0.1`,
      );
    }
    const hosts = new Set(boundNames(options.host));
    for (const name of options.allowedHosts ?? []) hosts.add(parseAllowedHost(name));
    return new AccessGate(hosts, digests, identities);
  }

  /** Whether requests must carry a bearer token. */
  get requiresToken(): boolean {
    return this.digests.length > 0;
  }

  /** Whether a `Host` header value names this server; a request without one is refused. */
  hostAllowed(header: string | undefined): boolean {
    const name = header === undefined ? undefined : hostNameOf(header);
    return name !== undefined && this.hosts.has(name);
  }

  /** The `Authorization` header against the tokens: accepted when none are set. */
  checkToken(authorization: string | undefined): TokenCheck {
    return this.matchToken(authorization).check;
  }

  /** As checkToken, and the identity the accepted token stands for, where it names one. */
  matchToken(authorization: string | undefined): { check: TokenCheck; identity?: string } {
    if (this.digests.length === 0) return { check: 'accepted' };
    if (authorization === undefined) return { check: 'missing' };
    if (!BEARER.test(authorization)) return { check: 'invalid' };
    const presented = presentedIdentity(authorization);
    // Every digest is compared, also after a match: the time taken says nothing about which.
    let found = -1;
    this.digests.forEach((digest, index) => {
      if (timingSafeEqual(presented, digest) && found < 0) found = index;
    });
    return found < 0 ? { check: 'invalid' } : { check: 'accepted', identity: this.identities[found] };
  }
}

/**
 * Who presented a request, for binding a session to it: the SHA-256 of its bearer token, or of
 * nothing when it carries none (a server without tokens). Never the token itself.
 */
export function presentedIdentity(authorization: string | undefined): Buffer {
  const match = authorization === undefined ? null : BEARER.exec(authorization);
  return sha256(match ? (match[1] as string) : '');
}

/** `sha256:<hex>` of a token, as `http.authTokens` holds it. */
export function tokenDigest(token: string): string {
  return `sha256:${sha256(token).toString('hex')}`;
}

/** 127.0.0.0/8, ::1 and localhost: only this machine can connect. */
export function isLoopback(host: string): boolean {
  const bare = unbracket(host.toLowerCase());
  return bare === 'localhost' || bare === '::1' || (isIP(bare) === 4 && bare.startsWith('127.'));
}

/** A `--allow-host` or `http.allowedHosts` entry: a host name or address, without scheme, port or path. */
function parseAllowedHost(text: string): string {
  const name = unbracket(text.trim().toLowerCase()).replace(/\.$/, '');
  const looksLikeName = /^[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?$/.test(name);
  if (!looksLikeName && isIP(name) !== 6) {
    throw new AccessConfigError(
      `allowed host '${text.slice(0, 100)}' must be a host name or address, without scheme, port or path (e.g. mcp.example.com)`,
    );
  }
  return name;
}

/** The names a request to this bind address may carry in its `Host` header. */
function boundNames(host: string): string[] {
  const bare = unbracket(host.toLowerCase());
  if (WILDCARD_ADDRESSES.has(bare)) {
    const addresses = Object.values(networkInterfaces()).flatMap((entries) =>
      (entries ?? []).map((entry) => entry.address.toLowerCase().replace(/%.*$/, '')),
    );
    return [...LOOPBACK_NAMES, ...addresses];
  }
  return isLoopback(bare) ? [...LOOPBACK_NAMES, bare] : [bare];
}

/** The host name of a `Host` header (`name`, `name:port`, `[v6]:port`), lower case; undefined when it is none. */
function hostNameOf(header: string): string | undefined {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    const rest = value.slice(end + 1);
    return end > 0 && (rest === '' || /^:\d+$/.test(rest)) ? value.slice(1, end) : undefined;
  }
  const match = /^([^:]+)(?::\d+)?$/.exec(value);
  return match ? (match[1] as string).replace(/\.$/, '') : undefined;
}

function unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
