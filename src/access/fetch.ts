// The requests the resource server itself makes: the issuer's metadata, its key set (JWKS) and
// token introspection. Each is bounded in time and size, follows no redirect, and goes only where
// the operator pointed it: an origin the config or a flag names, or one the issuer's metadata
// names over https at a public address. A loopback or private address is reached only when the
// operator configured that very origin (an issuer on this machine in a test or a sidecar), never
// because a document fetched from elsewhere named it.

import { BlockList, isIP } from 'node:net';

/** Largest metadata, key set or introspection answer read, in bytes. */
export const MAX_ANSWER_BYTES = 256 * 1024;
/** Longest wait for one of them, in milliseconds. */
export const FETCH_TIMEOUT_MS = 5000;

/** A fetch refused or failed; the message names the URL and why. */
export class AccessFetchError extends Error {}

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['100.64.0.0', 10],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['::', 128],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6');

export class BoundedFetch {
  private readonly trusted: ReadonlySet<string>;

  /** `configured`: the URLs the operator gave; their origins may be reached whatever their address. */
  constructor(configured: readonly string[]) {
    this.trusted = new Set(configured.map((url) => new URL(url).origin));
  }

  /** Why `url` may not be fetched, or undefined when it may. */
  refusal(url: string): string | undefined {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return 'it is not a URL';
    }
    if (this.trusted.has(parsed.origin)) return undefined;
    if (parsed.protocol !== 'https:') return 'only https is fetched from an origin the config does not name';
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    if (host === 'localhost' || host.endsWith('.localhost'))
      return 'a loopback name is fetched only where the config names it';
    const family = isIP(host);
    if (family !== 0 && PRIVATE.check(host, family === 4 ? 'ipv4' : 'ipv6'))
      return 'a private or loopback address is fetched only where the config names it';
    return undefined;
  }

  /** The answer, its body read up to MAX_ANSWER_BYTES, as a Response (what jose's customFetch expects). */
  readonly fetch = async (url: string | URL, init: RequestInit = {}): Promise<Response> => {
    const href = String(url);
    const refused = this.refusal(href);
    if (refused) throw new AccessFetchError(`${href.slice(0, 300)} is not fetched: ${refused}`);
    const timeout = AbortSignal.timeout(FETCH_TIMEOUT_MS);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await fetch(href, { ...init, signal, redirect: 'manual' });
    } catch (error) {
      throw new AccessFetchError(
        `${href.slice(0, 300)} could not be fetched: ${timeout.aborted ? `no answer within ${FETCH_TIMEOUT_MS} ms` : ((error as Error).message ?? String(error))}`,
      );
    }
    const body = await readCapped(response, href);
    return new Response(body, { status: response.status, headers: response.headers });
  };

  /** A JSON object from `url` (GET, or POST of a form), or an AccessFetchError naming what went wrong. */
  async json(url: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
    const response = await this.fetch(url, {
      ...init,
      headers: { accept: 'application/json', ...(init.headers as Record<string, string> | undefined) },
    });
    if (response.status !== 200) throw new AccessFetchError(`${url.slice(0, 300)} answered HTTP ${response.status}`);
    let value: unknown;
    try {
      value = await response.json();
    } catch {
      throw new AccessFetchError(`${url.slice(0, 300)} did not answer JSON`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new AccessFetchError(`${url.slice(0, 300)} did not answer a JSON object`);
    return value as Record<string, unknown>;
  }
}

async function readCapped(response: Response, href: string): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > MAX_ANSWER_BYTES) {
    await response.body?.cancel().catch(() => undefined);
    throw new AccessFetchError(`${href.slice(0, 300)} answered more than ${MAX_ANSWER_BYTES} bytes`);
  }
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const read = await reader?.read();
    if (!read || read.done) break;
    size += read.value.length;
    if (size > MAX_ANSWER_BYTES) {
      await reader?.cancel().catch(() => undefined);
      throw new AccessFetchError(`${href.slice(0, 300)} answered more than ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks);
}
