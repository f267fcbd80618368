// Where a request goes, as the client sends it: the URL's text, its origin, and the path with
// the query. Most requests are the core's own, built from a route's plan with no preRequest
// between: for most routes the WHATWG URL parser would give the built text back unchanged, so
// the origin the plan was checked for at load is the origin, and the text is not parsed again on
// every call (with an upstream override, it was parsed twice per call, and each origin asked of
// a URL is computed anew).
//
// The proof, made once per route at load (`stableOrigin`): the root is literal text whose origin
// is the URL's, and the URL built with every argument and key in place parses back to itself,
// each as text and each empty (`?{{q}}` with q empty leaves a `?` the parser drops from the path).
// What a call puts in cannot change that: a path argument is encodeURIComponent's output (no `/`,
// `?`, `#`, `\`, space or `%` but in `%XX` of a byte other than `.`), a query name or value the
// form encoding's, a key's value encodeURIComponent's. Left to check per call (`stableTarget`):
// a `'`, which the parser escapes in a query. What the parser does with context, a segment of
// dots only, cannot arise: a segment an argument or key stands in holds a literal character other
// than a dot, or is one argument alone, which the call pipeline refuses as `.` or `..`.

import type { RequestPlan } from './request.js';
import type { TemplatePart } from '../schema/types.js';

export interface RequestTarget {
  /** The URL's text, as WHATWG URL serialises it. */
  href: string;
  /** The origin, as URL#origin writes it. */
  origin: string;
  /** The path and the query, as URL#pathname + URL#search. */
  path: string;
}

/** A parsed URL as a target. */
export function targetOf(url: URL): RequestTarget {
  return { href: url.href, origin: url.origin, path: url.pathname + url.search };
}

/** The URL built from a plan that `stableOrigin` proved stable: not parsed, unless a `'` is in it. */
export function stableTarget(url: string, origin: string): RequestTarget | null {
  return url.includes("'") ? null : { href: url, origin, path: url.slice(origin.length) };
}

/** What an argument or key is stood for by, in the URLs built at load (and by nothing: it may be empty). */
const STAND_IN = 'x';

/**
 * The origin of every URL built from `plan` without a preRequest, where each of them parses back
 * to itself (but for a `'`); null where the plan is not proved so, and its URLs are parsed.
 */
export function stableOrigin(
  plan: Pick<RequestPlan, 'root' | 'path' | 'query' | 'pathHasQuery' | 'textAround'>,
): string | null {
  if (!plan.root.every((part) => part.kind === 'literal')) return null;
  // An argument sent inside text of its own could be made `..` by that text: such a route is parsed.
  if (plan.path.some((part) => part.kind === 'insert' && plan.textAround.has(part.key))) return null;
  const parts = [...plan.root, ...plan.path];
  if (!segmentsHoldNoDots(parts)) return null;
  let url: URL;
  try {
    url = new URL(parts.map((part) => standIn(part, STAND_IN)).join(''));
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const origin = url.origin;
  // An argument may be empty too: `?{{q}}` with q empty ends the URL in a `?` the parser drops.
  for (const standing of [STAND_IN, '']) {
    const built = parts.map((part) => standIn(part, standing)).join('');
    // Without the plan's query parameters (each may be left out) and with all of them.
    const query = plan.query.map(({ name }) => `${name}=${standing}`).join('&');
    const withQuery = query === '' ? built : `${built}${plan.pathHasQuery ? '&' : '?'}${query}`;
    if (!parsesToItself(built, origin) || !parsesToItself(withQuery, origin)) return null;
  }
  return origin;
}

/** Whether `text` is a URL of `origin` that serialises to itself, and is its origin, path and query alone. */
function parsesToItself(text: string, origin: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return url.href === text && url.origin === origin && text === origin + url.pathname + url.search;
}

function standIn(part: TemplatePart, standing: string): string {
  switch (part.kind) {
    case 'literal':
      return part.text;
    case 'marker':
      return `--${part.name}--`;
    case 'insert':
    case 'secret':
      return standing;
  }
}

/**
 * Whether no segment of the path could become `.` or `..` (or their `%2e` forms) whatever is put
 * in: no literal `%` at all, and every segment with an argument or key in it holds a literal
 * character other than a dot, or is one argument alone.
 */
function segmentsHoldNoDots(parts: readonly TemplatePart[]): boolean {
  let filled = 0; // arguments and keys in the current segment
  let inserts = 0;
  let literalOtherThanDot = false;
  let literalDots = false;
  const segmentEnds = () => filled === 0 || literalOtherThanDot || (filled === 1 && inserts === 1 && !literalDots);
  for (const part of parts) {
    if (part.kind === 'insert' || part.kind === 'secret') {
      filled++;
      if (part.kind === 'insert') inserts++;
      continue;
    }
    const text = part.kind === 'literal' ? part.text : `--${part.name}--`;
    if (text.includes('%')) return false;
    for (const char of text) {
      if (char === '/' || char === '?') {
        if (!segmentEnds()) return false;
        // The query's characters are escaped or not one by one; it has no segments.
        if (char === '?') return true;
        filled = inserts = 0;
        literalOtherThanDot = literalDots = false;
      } else if (char === '.') literalDots = true;
      else literalOtherThanDot = true;
    }
  }
  return segmentEnds();
}
