// A URL as it may be shown (usage errors, logs, the start-up summary): never with the password
// of its user information, nor with credentials in its query, where a Redis client reads them
// too (`?password=`, `?username=`, names percent-decoded). A text that does not parse as a URL is
// masked up to its last `@`, and its query whole, so that a refused or mistyped URL cannot echo
// its credentials either.

/** Query parameters a client reads as credentials (ioredis takes any query parameter as an option). */
const QUERY_CREDENTIALS: ReadonlySet<string> = new Set(['password', 'username']);

/** `url` with its password (or, without one, its user name, which some clients read as one) and its query's credentials replaced by `***`. */
export function maskedUrl(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  // `user:secret@host` parses too, as an opaque URL of scheme `user:`: only a URL with a host has its parts.
  if (parsed && parsed.host !== '') {
    if (parsed.password) parsed.password = '***';
    else if (parsed.username) parsed.username = '***';
    for (const name of [...parsed.searchParams.keys()])
      if (QUERY_CREDENTIALS.has(name.toLowerCase())) parsed.searchParams.set(name, '***');
    return parsed.href;
  }
  const query = url.indexOf('?');
  const text = query < 0 ? url : `${url.slice(0, query)}?***`;
  const at = text.lastIndexOf('@');
  if (at < 0) return text;
  const scheme = /^[a-z][a-z0-9+.-]*:\/*/i.exec(text)?.[0] ?? '';
  return `${scheme}***${text.slice(at)}`;
}
