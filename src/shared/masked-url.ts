// A URL as it may be shown (usage errors, logs, the start-up summary): never with the password
// of its user information. A text that does not parse as a URL is masked up to its last `@`, so
// that a refused or mistyped URL cannot echo its credentials either.

/** `url` with its password (or, without one, its user name, which some clients read as one) replaced by `***`. */
export function maskedUrl(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  // `user:secret@host` parses too, as an opaque URL of scheme `user:`: only a URL with a host has its parts.
  if (parsed && parsed.host !== '') {
    if (parsed.password) parsed.password = '***';
    else if (parsed.username) parsed.username = '***';
    return parsed.href;
  }
  const at = url.lastIndexOf('@');
  if (at < 0) return url;
  const scheme = /^[a-z][a-z0-9+.-]*:\/*/i.exec(url)?.[0] ?? '';
  return `${scheme}***${url.slice(at)}`;
}
