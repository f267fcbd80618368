// What an upstream's `Cache-Control` says about keeping its answer in the response cache.
//
// flowguard's cache is an application cache whose lifetimes the schema author and the operator
// set (policy.ts); it is not an HTTP cache, so only the directives that forbid keeping an answer
// at all count:
// - `no-store`: the answer is not stored, whatever the schema or config says.
// - `no-cache`: it may be kept only if revalidated before every use; the cache never
//   revalidates, so it is not stored either.
// - `private` (decided, README "Response cache"): stored. It forbids shared caches that serve
//   several users; the upstream sees every client of this server as one user, the holder of the
//   key the request carried, and an entry is bound to that key's fingerprint (cache-key.ts), so an
//   answer is never served to a call made with another key.
// - `max-age`, `s-maxage`, `must-revalidate` and the rest: the configured lifetime wins.

const FORBIDDING = new Set(['no-store', 'no-cache']);

/** Whether an answer whose `Cache-Control` header values are `values` may be stored. */
export function mayStore(values: readonly string[]): boolean {
  return !values.some((value) => directiveNames(value).some((name) => FORBIDDING.has(name)));
}

/**
 * The directive names of one header value, lower-case: `private="a, b", No-Store` gives
 * `private` and `no-store` (a comma inside a quoted argument separates nothing).
 */
export function directiveNames(value: string): string[] {
  const names: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i <= value.length; i += 1) {
    const char = value[i];
    // Inside quotes a backslash takes the next character as it is (RFC 9110 quoted-pair), so `"x\\"` ends at its quote.
    if (quoted && char === '\\') i += 1;
    else if (char === '"') quoted = !quoted;
    if ((char === ',' && !quoted) || i === value.length) {
      const name = value.slice(start, i).split('=')[0]?.trim().toLowerCase();
      if (name) names.push(name);
      start = i + 1;
    }
  }
  return names;
}
