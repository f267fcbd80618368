// What a request may carry when it leaves, checked on the core's own request after
// preRequest and on every request an executeRequest handler asks for, before anything is sent:
//
// - The host that was checked is the host that is reached. Headers that say where a request goes
//   or how it travels (`Host`, hop-by-hop and framing headers, proxy and forwarding headers, URL
//   and method overrides) are the core's alone: the client writes its own from the URL it
//   checked. A request that sets one is refused, not silently changed (`HEADER_NOT_ALLOWED:`):
//   a `Host` beside a filled-in key would deliver the key to another site on the same server.
// - No key value leaves to an origin not bound to it. Behind redaction, which keeps keys from
//   handlers, a request that carries any form of any key the catalog holds (every form redaction
//   knows, in the URL as written and as sent, a header name or value, or the body's bytes) to an
//   origin where no key of that value is bound is refused (`KEY_NOT_ALLOWED:`), however the
//   value got there. A request carries key tokens, never values, until the core fills them in
//   after this check.

import type { Redactor } from './redact.js';

/** Request headers that name where a request goes or how it travels, by lower-case name. */
const ROUTING_HEADERS: ReadonlySet<string> = new Set([
  // The site reached, and the hop-by-hop and framing headers of RFC 9110 and 9112.
  'host',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'expect',
  // What proxies and front ends read as the original host, URL, method or client.
  'forwarded',
  'via',
  'x-host',
  'x-original-host',
  'x-original-url',
  'x-rewrite-url',
  'x-http-method-override',
  'x-http-method',
  'x-method-override',
  'x-real-ip',
  'x-client-ip',
  'x-cluster-client-ip',
  'true-client-ip',
  'cf-connecting-ip',
]);
// Whole families, by prefix (routingHeaderIn): `Proxy-Authorization`, `Proxy-Connection`,
// `X-Forwarded-Host`, `X-Forwarded-For`, ...

/**
 * The first header of `headers` that only the core may set, as it was spelled; undefined when
 * none. A Content-Length that states the body's real length is no override (ethers and other
 * HTTP libraries write one): it goes out as the core would write it.
 */
function routingHeaderIn(headers: Readonly<Record<string, string>>, body: LeavingRequest['body']): string | undefined {
  for (const name in headers) {
    const lower = name.toLowerCase();
    if (lower === 'content-length') {
      if (headers[name] !== String(bodyLength(body))) return name;
    } else if (ROUTING_HEADERS.has(lower) || lower.startsWith('proxy-') || lower.startsWith('x-forwarded-'))
      return name;
  }
  return undefined;
}

/**
 * Restates, in place, a Content-Length that routingHeaderIn let through as the length of `body`,
 * the body sent: it was judged on the body with the keys' tokens, and their values, filled in
 * after, have other lengths (a stale one fails the request, or would end the body early).
 */
export function restateLength(headers: Record<string, string>, body: LeavingRequest['body']): void {
  for (const name of Object.keys(headers))
    if (name.toLowerCase() === 'content-length') headers[name] = String(bodyLength(body));
}

function bodyLength(body: LeavingRequest['body']): number {
  return typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : (body?.byteLength ?? 0);
}

/** A request as it is about to leave: the body as text, or as bytes. */
interface LeavingRequest {
  url: string;
  headers: Readonly<Record<string, string>>;
  body?: string | Uint8Array | null;
}

/**
 * Why `request` may not leave for `url` (its URL, parsed or proved to parse to itself), with its stable prefix; null when it
 * may. `binds(key)` says whether `key` may go there: a form of a value is allowed where some key
 * of that value is.
 */
export function egressRefusal(
  request: LeavingRequest,
  url: Pick<URL, 'href' | 'origin'>,
  redactor: Redactor,
  binds: (key: string) => boolean,
): string | null {
  const { body } = request;
  const header = routingHeaderIn(request.headers, body);
  if (header !== undefined) {
    return `HEADER_NOT_ALLOWED: the request sets ${JSON.stringify(header)}, a header that decides where or how a request travels; only the core sets it, from the URL it checked. Nothing was sent`;
  }
  // Searched on every request, so each part is searched where it stands and its place is named
  // only once a key is found in it. The URL as written, and as it goes out: parsing drops tabs and
  // line breaks and escapes some characters, which can join a key that the text as written splits
  // (the same text twice is searched once).
  const href = url.href;
  const inUrl =
    unboundIn(request.url, false, redactor, binds) ??
    (href === request.url ? undefined : unboundIn(href, false, redactor, binds));
  if (inUrl !== undefined) return refusal(url, inUrl, 'the URL');
  for (const name in request.headers) {
    const inName = unboundIn(name, false, redactor, binds);
    if (inName !== undefined) return refusal(url, inName, 'a header name');
    const inValue = unboundIn(request.headers[name] as string, false, redactor, binds);
    if (inValue !== undefined)
      return refusal(url, inValue, `the header ${JSON.stringify(redactor.redact(name).slice(0, 60))}`);
  }
  // A text body leaves as UTF-8: its bytes are searched, so that a key in UTF-16 is found too.
  const bytes =
    typeof body === 'string'
      ? Buffer.from(body, 'utf8')
      : body
        ? Buffer.from(body.buffer, body.byteOffset, body.byteLength)
        : null;
  const inBody = bytes === null ? undefined : unboundIn(bytes.toString('latin1'), true, redactor, binds);
  return inBody === undefined ? null : refusal(url, inBody, 'the body');
}

/** A key whose value (some form of it) `text` holds and that may not go where `binds` says; undefined when none. */
function unboundIn(
  text: string,
  asBytes: boolean,
  redactor: Redactor,
  binds: (key: string) => boolean,
): string | undefined {
  return redactor.holdsKey(text, asBytes)
    ? redactor.keysIn(text, asBytes).find((keys) => !keys.some(binds))?.[0]
    : undefined;
}

function refusal(url: Pick<URL, 'origin'>, key: string, place: string): string {
  return `KEY_NOT_ALLOWED: the request to ${url.origin} carries the value of the key ${key} in ${place}, and that key is not bound to ${url.origin}. Nothing was sent`;
}
