// Building a route's request, compiled once at load into a plan: at call time the plan is
// walked with the validated arguments and no template text is parsed. Secret slots get the
// call's placeholder tokens; the core fills in the values after preRequest (secrets.ts).

import type { CanonicalParam, CanonicalRoute, CanonicalSchema, HttpMethod, Template } from '../schema/types.js';
import type { OutgoingRequest, SecretSlots, SecretTokens } from './secrets.js';
import { stableOrigin } from './stable-target.js';

export interface RequestStruct {
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  /** A JSON-able object for POST/PUT routes (`{}` without body parameters), otherwise null; preRequest may make it text. */
  body: Record<string, unknown> | string | null;
}

type ValueSource = { kind: 'user'; key: string } | { kind: 'template'; template: Template; typed?: unknown };

export interface RequestPlan {
  method: HttpMethod;
  root: Template;
  path: Template;
  /** The path carries a literal query string: parameters join with `&`. */
  pathHasQuery: boolean;
  /** Arguments that fill a path segment of their own. */
  inserts: string[];
  query: Array<{ name: string; value: ValueSource }>;
  /** POST and PUT always send a JSON object, empty without body parameters (as the reference does). */
  body: Array<{ name: string; value: ValueSource }> | null;
  /** `main.headers`, one per lower-cased name. */
  headers: Array<{ name: string; value: Template }>;
  slots: SecretSlots;
  /** Arguments the request carries inside text (`%{{USER_PARAM}}%`): key → the text around each occurrence. */
  textAround: ReadonlyMap<string, readonly string[]>;
  /** The origin of every URL built from this plan, where each parses back to itself (stable-target.ts); null: parsed per call. */
  stableOrigin: string | null;
}

const BODY_METHODS: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT']);

export function planRequest(schema: CanonicalSchema, route: CanonicalRoute): RequestPlan {
  const valueOf = (param: CanonicalParam): ValueSource =>
    param.source.kind === 'user'
      ? { kind: 'user', key: param.key }
      : { kind: 'template', template: param.source.template, typed: param.source.typed };
  const query = route.parameters.filter((p) => p.location === 'query').map((p) => ({ name: p.key, value: valueOf(p) }));
  const bodyParams = route.parameters.filter((p) => p.location === 'body');
  const body = BODY_METHODS.has(route.method) ? bodyParams.map((p) => ({ name: p.key, value: valueOf(p) })) : null;
  const headers = [...oneHeaderPerName(Object.entries(schema.headers)).values()].map(([name, value]) => ({
    name,
    value,
  }));

  const urlKeys = new Set([
    ...secretKeys(schema.root),
    ...secretKeys(route.path),
    ...query.flatMap((q) => (q.value.kind === 'template' ? secretKeys(q.value.template) : [])),
  ]);
  const headerKeys = new Map(
    headers
      .map((h) => [h.name.toLowerCase(), new Set(secretKeys(h.value))] as const)
      .filter(([, keys]) => keys.size > 0),
  );
  const bodyKeys = new Set(
    (body ?? []).flatMap((b) => (b.value.kind === 'template' ? secretKeys(b.value.template) : [])),
  );
  const plan: Omit<RequestPlan, 'stableOrigin'> = {
    method: route.method,
    root: schema.root,
    path: route.path,
    pathHasQuery: route.pathHasQuery,
    inserts: route.path.flatMap((part) => (part.kind === 'insert' ? [part.key] : [])),
    query,
    body,
    headers,
    slots: { url: urlKeys, headers: headerKeys, body: bodyKeys },
    textAround: new Map(
      route.parameters.flatMap((p) =>
        p.source.kind === 'user' && p.source.around ? [[p.key, p.source.around] as const] : [],
      ),
    ),
  };
  return { ...plan, stableOrigin: stableOrigin(plan) };
}

/** The arguments as the request carries them: one written inside text is sent inside it (handlers see the argument itself). */
function inTheirText(
  args: Readonly<Record<string, unknown>>,
  textAround: RequestPlan['textAround'],
): Readonly<Record<string, unknown>> {
  if (textAround.size === 0) return args;
  const carried = { ...args };
  for (const [key, around] of textAround) {
    const value = carried[key];
    if (value === undefined || value === null) continue;
    carried[key] = around.join(
      Array.isArray(value) ? value.join(',') : typeof value === 'object' ? JSON.stringify(value) : String(value),
    );
  }
  return carried;
}

function secretKeys(template: Template): string[] {
  return template.flatMap((part) => (part.kind === 'secret' ? [part.key] : []));
}

/** Every key a route uses, wherever it is written: in root, headers, its path and its parameter values (a tool's required keys). */
export function routeKeys(schema: CanonicalSchema, route: CanonicalRoute): string[] {
  const templates = [
    schema.root,
    ...Object.values(schema.headers),
    route.path,
    ...route.parameters.flatMap((p) => (p.source.kind === 'template' ? [p.source.template] : [])),
  ];
  return [...new Set(templates.flatMap(secretKeys))];
}

/** The request as preRequest sees it: arguments in place, secrets as this call's tokens. */
export function buildRequest(
  plan: RequestPlan,
  given: Readonly<Record<string, unknown>>,
  tokens: SecretTokens,
): RequestStruct {
  const args = inTheirText(given, plan.textAround);
  let url = render(plan.root, args, tokens) + render(plan.path, args, tokens);
  let query = '';
  for (const { name, value } of plan.query) {
    const text = queryText(value.kind === 'user' ? args[value.key] : render(value.template, args, tokens));
    if (text !== undefined) query += `${query === '' ? '' : '&'}${formEncoded(name)}=${formEncoded(text)}`;
  }
  if (query) url += (plan.pathHasQuery ? '&' : '?') + query;

  const headers: Record<string, string> = {};
  for (const { name, value } of plan.headers) headers[name] = render(value, args, tokens);
  let body: Record<string, unknown> | null = null;
  if (plan.body) {
    body = {};
    for (const { name, value } of plan.body) {
      const typed =
        value.kind === 'user'
          ? args[value.key]
          : value.typed !== undefined
            ? value.typed
            : render(value.template, args, tokens);
      if (typed !== undefined) body[name] = typed;
    }
  }
  return { url, method: plan.method, headers, body };
}

/**
 * The request as it leaves, after preRequest: header names are case-insensitive, so one header
 * per lower-cased name goes out (the one written last, so a handler's new spelling replaces the
 * schema's); a body is JSON text unless preRequest made it text already, and it goes out with
 * `content-type: application/json` unless a header of any spelling names its type.
 */
export function outgoingRequest(struct: RequestStruct, asBuilt = false): OutgoingRequest {
  // As buildRequest made it (no preRequest since), the headers are the plan's, one per lower-cased
  // name already, in an object of this call's own: copied only where a Content-Type is added.
  const headers = !asBuilt
    ? lastSpellings(struct.headers)
    : struct.body === null
      ? struct.headers
      : { ...struct.headers };
  if (struct.body === null) return { url: struct.url, headers };
  if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type'))
    headers['content-type'] = 'application/json';
  return {
    url: struct.url,
    headers,
    body: typeof struct.body === 'string' ? struct.body : JSON.stringify(struct.body),
  };
}

/**
 * The headers, one per lower-cased name, as oneHeaderPerName keeps them; made on every call, so
 * in one object, without the map and pairs of the plan's form.
 */
function lastSpellings(headers: Readonly<Record<string, string>>): Record<string, string> {
  const result: Record<string, string> = {};
  const spelled = new Map<string, string>();
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    const earlier = spelled.get(lower);
    if (earlier !== undefined) delete result[earlier]; // the survivor stands where it was last written
    spelled.set(lower, name);
    // A `__proto__` header stays a header, as Object.fromEntries would keep it, never a prototype.
    if (name === '__proto__')
      Object.defineProperty(result, name, {
        value: headers[name],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else result[name] = headers[name] as string;
  }
  return result;
}

/** Headers by lower-cased name; a later spelling of a name replaces an earlier one. */
function oneHeaderPerName<T>(headers: Array<[string, T]>): Map<string, [string, T]> {
  const byName = new Map<string, [string, T]>();
  for (const [name, value] of headers) {
    const key = name.toLowerCase();
    byName.delete(key); // the survivor stands where it was last written
    byName.set(key, [name, value]);
  }
  return byName;
}

function render(template: Template, args: Readonly<Record<string, unknown>>, tokens: SecretTokens): string {
  let text = '';
  for (const part of template) {
    switch (part.kind) {
      case 'literal':
        text += part.text;
        break;
      case 'secret':
        text += tokens.token(part.key);
        break;
      case 'insert':
        // One path segment: `/`, `?`, `#`, `%` and spaces cannot escape it.
        text += encodeURIComponent(scalarText(args[part.key]) ?? '');
        break;
      case 'marker':
        text += `--${part.name}--`;
        break;
    }
  }
  return text;
}

/** What encodeURIComponent leaves or writes otherwise than a query's form encoding does. */
const FORM_SPELLINGS: Readonly<Record<string, string>> = {
  '%20': '+',
  '!': '%21',
  "'": '%27',
  '(': '%28',
  ')': '%29',
  '~': '%7E',
};
/** Text the form encoding leaves as it is: ASCII letters and digits and `*-._` only. */
const FORM_AS_IS = /^[A-Za-z0-9*\-._]*$/;
/** Half of a surrogate pair without its other half: no Unicode text, and no UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/**
 * The first path argument holding a lone surrogate half, which encodeURIComponent throws on: text,
 * or an array of texts (joined as they are where the schema writes text around the argument).
 */
export function illFormedInsert(inserts: readonly string[], values: Record<string, unknown>): string | undefined {
  for (const key of inserts) {
    const value = values[key];
    if (illFormed(value) || (Array.isArray(value) && value.some(illFormed))) return key;
  }
  return undefined;
}

/**
 * The UTF-8 bytes the path's inserts write before percent-encoding, each use counted (a path may
 * name one argument many times: `/{{id}}/{{id}}`); counting stops once past `max`.
 */
export function insertedBytes(inserts: readonly string[], values: Record<string, unknown>, max: number): number {
  let bytes = 0;
  for (const key of inserts) {
    bytes += Buffer.byteLength(scalarText(values[key]) ?? '');
    if (bytes > max) break;
  }
  return bytes;
}

function illFormed(value: unknown): boolean {
  return typeof value === 'string' && LONE_SURROGATE.test(value);
}

/**
 * `text` as URLSearchParams writes it into a query (application/x-www-form-urlencoded: a lone
 * surrogate as U+FFFD, a space as `+`, every byte but letters, digits and `*-._` percent-encoded),
 * by the native encodeURIComponent: URLSearchParams, made and written on every call, is JavaScript.
 */
function formEncoded(text: string): string {
  // Most names and values are written as they are: the replacements below, cold, were about a
  // tenth of the pipeline's own time around the HTTP client.
  if (FORM_AS_IS.test(text)) return text;
  return encodeURIComponent(text.replace(LONE_SURROGATES, '\uFFFD')).replace(
    /%20|[!'()~]/g,
    (spelled) => FORM_SPELLINGS[spelled] as string,
  );
}

/** R6: arrays become one comma-joined value; omitted optional arguments are not sent. */
function queryText(value: unknown): string | undefined {
  if (Array.isArray(value)) return value.map((item) => scalarText(item) ?? '').join(',');
  return scalarText(value);
}

function scalarText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
