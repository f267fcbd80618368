// The requests the resource server itself makes: the issuer's metadata, its key set (JWKS) and
// token introspection. Each is bounded in time and size, follows no redirect, and goes only where
// the operator pointed it: an origin the config or a flag names, or one the issuer's metadata
// names over https at a public address. A loopback or private address is reached only when the
// operator configured that very origin (an issuer on this machine in a test or a sidecar), never
// because a document fetched from elsewhere named it: such an origin connects through the core's
// public-only connector (src/net/), which judges every DNS answer and the socket's address, so a
// name that resolves to 10.0.0.5 is refused as surely as the literal.

import { isIP, type LookupFunction } from 'node:net';
import type { Agent } from 'undici';
import { nonPublicBlock } from '../net/public-address.js';
import { publicOnlyConnector, type Refusals } from '../net/public-connector.js';
import { undici } from '../shared/deps.js';

/** Largest metadata, key set or introspection answer read, in bytes. */
export const MAX_ANSWER_BYTES = 256 * 1024;
/** Longest wait for one of them, in milliseconds. */
const FETCH_TIMEOUT_MS = 5000;

/** A fetch refused or failed; the message names the URL and why. */
export class AccessFetchError extends Error {}

const REFUSALS: Refusals = {
  privateAddress: (origin, address, block) =>
    new AccessFetchError(
      `${origin} resolves to a ${block} address (${address}): a private or loopback address is fetched only where the config names it`,
    ),
  noAddress: (origin) => new AccessFetchError(`${origin} resolves to no address`),
};

export class BoundedFetch {
  private readonly trusted: ReadonlySet<string>;
  /** Connections to the origins the operator did not name: public addresses only. */
  private readonly publicOnly: Agent;

  /**
   * `configured`: the URLs the operator gave; their origins may be reached whatever their address.
   * `lookup`: node:dns's unless a test resolves names itself.
   */
  constructor(configured: readonly string[], lookup?: LookupFunction) {
    this.trusted = new Set(configured.map((url) => new URL(url).origin));
    const { Agent, Pool } = undici();
    this.publicOnly = new Agent({
      factory: (origin, options) =>
        new Pool(origin, {
          ...options,
          connect: publicOnlyConnector(String(origin), FETCH_TIMEOUT_MS, REFUSALS, lookup),
        }),
    });
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
    // A literal address is judged at once, so that setup can say so; a name is judged on every
    // address it resolves to and on the socket, as it is connected to (publicOnly).
    if (isIP(host) !== 0 && nonPublicBlock(host) !== null)
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
    const trusted = this.trusted.has(new URL(href).origin);
    let response: Response;
    try {
      const { fetch } = undici();
      // The callers' init holds strings only (headers, a form body): the same in both fetch types.
      const options = { ...(init as Parameters<typeof fetch>[1]), signal, redirect: 'manual' as const };
      response = (await fetch(
        href,
        trusted ? options : { ...options, dispatcher: this.publicOnly },
      )) as unknown as Response;
    } catch (error) {
      // undici's fetch fails with "fetch failed"; why (a refused address, a reset) is its cause.
      const cause = (error as Error).cause;
      const why = (cause instanceof Error ? cause.message : ((error as Error).message ?? String(error))).slice(0, 300);
      throw new AccessFetchError(
        `${href.slice(0, 300)} could not be fetched: ${timeout.aborted ? `no answer within ${FETCH_TIMEOUT_MS} ms` : why}`,
      );
    }
    let body: Uint8Array;
    try {
      body = await readCapped(response, href);
    } catch (error) {
      if (error instanceof AccessFetchError) throw error;
      // The body stopped coming (the time ran out, the connection broke): a refusal like any other, not a fault.
      const why = timeout.aborted ? `no answer within ${FETCH_TIMEOUT_MS} ms` : String((error as Error).message);
      throw new AccessFetchError(`${href.slice(0, 300)} could not be read: ${why.slice(0, 300)}`);
    }
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
