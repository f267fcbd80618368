// Compiles the strings of a schema that carry placeholders (`root`, route paths, header values,
// fixed parameter values) into templates once, at load, so that nothing is parsed at call time.

import type { FindingSink } from '../report/findings.js';
import { openHost, STAND_IN_LABEL } from './marker-host.js';
import type { Template, TemplatePart } from './types.js';

export interface TemplateContext {
  sink: FindingSink;
  /** Keys listed in `main.requiredServerParams`. */
  serverKeys: ReadonlySet<string>;
}

export interface CompiledPath {
  template: Template;
  /** Insert slots named by `{{key}}` or `:key`. */
  slots: Set<string>;
  /** Names written `{key}` (the OpenAPI habit), sent as literal text; path-braces.ts reports them. */
  singleBraces: string[];
  hasQuery: boolean;
}

const DOUBLE_BRACE = /\{\{([^{}]*)\}\}/g;
const COLON_SLOT = /:([A-Za-z_][A-Za-z0-9_]*)/g;
const SINGLE_BRACE = /(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)\}(?!\})/g;
const MARKER = /--([a-z0-9]+(?:-[a-z0-9]+)*)--/g;
const SERVER_PREFIX = 'SERVER_PARAM:';

type Where = 'root' | 'path' | 'value';

/**
 * Turns one `{{...}}` placeholder into a template part, or reports why it cannot be one.
 * Bare `{{KEY}}` is the corpus spelling of `{{SERVER_PARAM:KEY}}` (R4); in a path, any other
 * bare name is an insert slot.
 */
function placeholderPart(inner: string, where: Where, path: string, ctx: TemplateContext): TemplatePart | null {
  const { sink, serverKeys } = ctx;
  if (inner.startsWith(SERVER_PREFIX)) {
    const key = inner.slice(SERVER_PREFIX.length);
    if (!serverKeys.has(key)) {
      sink.add(
        'VAL052',
        path,
        `{{${inner}}} names ${key}, which is not in requiredServerParams`,
        `add '${key}' to main.requiredServerParams`,
      );
      return null;
    }
    return { kind: 'secret', key };
  }
  // The bare form is the one the public catalogs and the authors' guide write: no finding
  // (VAL090, which reported it as information, is retired).
  if (serverKeys.has(inner)) return { kind: 'secret', key: inner };
  if (inner.includes(':')) {
    sink.add(
      'VAL047',
      path,
      `list interpolation {{${inner}}} is only allowed inside enum()`,
      `a list's values become a parameter's choices: z: { primitive: 'enum({{${inner}}})' }`,
    );
    return null;
  }
  if (inner === 'USER_PARAM') {
    sink.add(
      'VAL042',
      path,
      '{{USER_PARAM}} must be the whole parameter value',
      "use value: '{{USER_PARAM}}' and let a handler combine it",
    );
    return null;
  }
  if (where === 'path') return { kind: 'insert', key: inner };
  const userHint = where === 'value' ? "; if it stands for the caller's input, write '{{USER_PARAM}}'" : '';
  sink.add(
    'VAL052',
    path,
    `{{${inner}}} names no key in requiredServerParams`,
    `declare '${inner}' in main.requiredServerParams or remove the placeholder${userHint}`,
  );
  return null;
}

/** Splits text on `{{...}}` placeholders; `literal` handles the text between them. */
function compileParts(
  text: string,
  where: Where,
  path: string,
  ctx: TemplateContext,
  literal: (chunk: string, parts: TemplatePart[]) => void,
): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let last = 0;
  for (const match of text.matchAll(DOUBLE_BRACE)) {
    literal(text.slice(last, match.index), parts);
    const part = placeholderPart(match[1] ?? '', where, path, ctx);
    if (part) parts.push(part);
    last = match.index + match[0].length;
  }
  literal(text.slice(last), parts);
  return parts;
}

function pushLiteral(chunk: string, parts: TemplatePart[]): void {
  if (chunk) parts.push({ kind: 'literal', text: chunk });
}

/** A header value or fixed parameter value: literal text with optional secret slots. */
export function compileValueTemplate(text: string, path: string, ctx: TemplateContext): Template {
  return compileParts(text, 'value', path, ctx, pushLiteral);
}

/**
 * `main.root`: an https origin and base path, with secret slots and `--marker--` labels. A
 * trailing slash (corpus idiom) is removed, since every route path starts with one (VAL018).
 */
export function compileRoot(text: string, path: string, ctx: TemplateContext): Template {
  const { sink } = ctx;
  const markers = new Set<string>();
  const parts = compileParts(withoutTrailingSlash(text), 'root', path, ctx, (chunk, out) => {
    let last = 0;
    for (const match of chunk.matchAll(MARKER)) {
      pushLiteral(chunk.slice(last, match.index), out);
      out.push({ kind: 'marker', name: match[1] ?? '' });
      markers.add(match[0]);
      last = match.index + match[0].length;
    }
    pushLiteral(chunk.slice(last), out);
  });
  for (const marker of markers)
    sink.add('VAL097', path, `${marker} in root stands for one DNS label that a preRequest handler fills in`);
  const url = checkRootUrl(text, path, sink);
  if (url && markers.size > 0) checkMarkerHost(url.hostname, path, sink);
  return parts;
}

/** A marker stands for one label under a fixed domain (R5, marker-host.ts). */
function checkMarkerHost(hostname: string, path: string, sink: FindingSink): void {
  const open = openHost(hostname.replace(MARKER, STAND_IN_LABEL));
  if (open === null) return;
  const what =
    open === 'made of fill-in labels'
      ? `host ${hostname} is made of markers`
      : `markers make up the registrable domain of ${hostname}`;
  sink.add(
    'VAL027',
    path,
    `root ${what}, so a preRequest handler could send the request to any host`,
    'a --marker-- may only stand for a label under a fixed domain, as in https://--chain--.rpc.example.com',
  );
}

/** The root as a URL (placeholders stood in for), or null when it is none; reports what is wrong. */
function checkRootUrl(text: string, path: string, sink: FindingSink): URL | null {
  // Placeholders are not URL text; a neutral stand-in keeps the rest checkable.
  const probe = text.replace(DOUBLE_BRACE, 'x');
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/[^/?#]+/i.exec(probe);
  let url: URL | null = null;
  try {
    url = scheme ? new URL(probe) : null;
  } catch {
    // new URL throws only on a malformed URL: null is the answer (no URL), not a failure.
    url = null;
  }
  if (!url || url.search || url.hash) {
    sink.add(
      'VAL015',
      path,
      `root ${JSON.stringify(text)} is not a URL of the form https://host[/base]`,
      'write an absolute https URL without query or fragment',
    );
    return null;
  }
  if (url.protocol !== 'https:')
    sink.add(
      'VAL017',
      path,
      `root uses ${url.protocol.slice(0, -1)}, not https`,
      'the core only sends requests over https',
    );
  if (text.endsWith('/'))
    sink.add(
      'VAL018',
      path,
      `root ends with a slash; read as ${withoutTrailingSlash(text)}`,
      'remove the trailing slash; every route path starts with /',
    );
  return url;
}

function withoutTrailingSlash(root: string): string {
  let end = root.length;
  while (end > 0 && root[end - 1] === '/') end -= 1;
  return root.slice(0, end);
}

/**
 * A route path: literal text, `{{key}}` and `:key` insert slots, secret slots, and maybe `?query`.
 * `:key` opening a segment is always a slot; inside a segment (`/@:username`, `area=:lat,:lon`,
 * `:from..:to`) only where it names one of the route's insert parameters, as the reference fills
 * them, so that a literal colon (`claims:search`, `typeName=ns:layer`) stays text.
 */
export function compilePath(
  text: string,
  path: string,
  ctx: TemplateContext,
  insertKeys: ReadonlySet<string> = new Set(),
): CompiledPath {
  const { sink } = ctx;
  let colonSlots = 0;
  const parts = compileParts(text, 'path', path, ctx, (chunk, out) => {
    let last = 0;
    for (const match of chunk.matchAll(COLON_SLOT)) {
      const opensSegment = chunk[match.index - 1] === '/';
      if (!opensSegment && !insertKeys.has(match[1] ?? '')) continue;
      pushLiteral(chunk.slice(last, match.index), out);
      out.push({ kind: 'insert', key: match[1] ?? '' });
      colonSlots += 1;
      last = match.index + match[0].length;
    }
    pushLiteral(chunk.slice(last), out);
  });
  if (colonSlots > 0) sink.add('VAL091', path, ':key placeholders read as {{key}}');
  const singleBraces = [...text.matchAll(SINGLE_BRACE)].map((match) => match[1] ?? '');
  const hasQuery = text.includes('?');
  if (hasQuery) sink.add('VAL096', path, 'path carries a literal query string; query parameters are appended with &');
  const slots = new Set<string>();
  for (const part of parts) if (part.kind === 'insert') slots.add(part.key);
  return { template: parts, slots, singleBraces, hasQuery };
}
