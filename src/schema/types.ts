// The canonical, typed form of a schema that every later stage consumes, whatever spec version
// (2.x, 3.x, 4.x) the file was written in. Corpus idioms (bare {{KEY}}, :key, regex(), values(),
// handler-only inserts, literal query strings, --markers--, a root's trailing slash, body
// parameters on GET) are gone by the time a schema reaches this shape: there is exactly one way
// to say each thing.

import type { ListEntry, ListFilter } from '../lists/types.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type ParamLocation = 'insert' | 'query' | 'body';

/** A piece of a compiled string template: text, a secret slot, an insert slot or a root marker. */
export type TemplatePart =
  | { kind: 'literal'; text: string }
  /** A server key (from `requiredServerParams`) the core substitutes after preRequest. */
  | { kind: 'secret'; key: string }
  /** A path slot filled by the insert parameter of that key. */
  | { kind: 'insert'; key: string }
  /** A `--marker--` DNS label in `root`, rewritten by a preRequest handler. */
  | { kind: 'marker'; name: string };

export type Template = readonly TemplatePart[];

/**
 * Where a parameter's value comes from. A fixed value may embed secret slots; one without them
 * also carries its value typed by its z block (R6: a fixed `'100'` for `number()` is sent as 100).
 */
export type ParamSource =
  /**
   * The caller's argument. `around` is set where the schema wrote `{{USER_PARAM}}` inside text
   * (`%{{USER_PARAM}}%`): the text around each occurrence, so the request carries
   * `around.join(argument)`; handlers still see the argument itself.
   */
  { kind: 'user'; around?: readonly string[] } | { kind: 'template'; template: Template; typed?: unknown };

export type ParamType =
  | { kind: 'string'; minLength?: number; maxLength?: number; pattern?: string }
  | { kind: 'number'; minimum?: number; maximum?: number }
  | { kind: 'boolean' }
  /**
   * Static values in order, then (once `listsResolved`) the values the list interpolations
   * yield. Without a list registry, or where a list cannot be resolved, `values` holds only
   * the static values and `listsResolved` is false. An enum without interpolations is resolved.
   */
  | { kind: 'enum'; values: string[]; lists: ListFieldRef[]; listsResolved: boolean }
  | { kind: 'array'; minItems?: number; maxItems?: number }
  | { kind: 'object' };

export interface ListFieldRef {
  list: string;
  field: string;
}

export interface CanonicalParam {
  key: string;
  location: ParamLocation;
  source: ParamSource;
  type: ParamType;
  optional: boolean;
  /** Typed per R6; present only when `default(...)` was given. */
  default?: unknown;
  /** An insert parameter whose key has no slot in the path: only handlers read it. */
  handlerOnly: boolean;
  /** For the input schema (4.x `description`, next to `position` and `z` or inside `z`). */
  description?: string;
}

export interface OutputSpec {
  mimeType:
    | 'application/json'
    | 'image/png'
    | 'text/plain'
    | 'text/markdown'
    | 'application/rss+xml'
    | 'application/octet-stream';
  schema: Record<string, unknown>;
  /** 4.x `output.description`: what the tool returns, in words. */
  description?: string;
}

/** 4.x tool `meta` (its own, or `main.meta`): hints for MCP clients, never a rule for the core. */
export interface ToolMeta {
  readOnly: boolean;
  destructive: boolean;
  concurrencySafe: boolean;
  searchHint: string;
  aliases: string[];
  alwaysLoad: boolean;
}

export interface PreloadSpec {
  enabled: boolean;
  ttl: number;
  description?: string;
}

export type RouteTest = { _description: string } & Record<string, unknown>;

export interface CanonicalRoute {
  name: string;
  method: HttpMethod;
  description: string;
  /** Path template; a literal query string stays in the literal parts. */
  path: Template;
  /** The path already carries `?`: query parameters join with `&`. */
  pathHasQuery: boolean;
  parameters: CanonicalParam[];
  output?: OutputSpec;
  preload?: PreloadSpec;
  tests: RouteTest[];
  meta?: ToolMeta;
}

export interface ListRef {
  ref: string;
  version: string;
  filter?: ListFilter;
}

export interface HandlerHooks {
  preRequest: boolean;
  postRequest: boolean;
  executeRequest: boolean;
}

export interface HandlersInfo {
  /** Source text of the factory expression, evaluated only inside the sandbox. */
  factorySource: string;
  /**
   * Hooks per route as read from the factory without running it: from the returned object
   * literal, following a route's value to a local object or to a local function that returns
   * one (`x: build('x')`). A route whose hooks cannot be read that way maps to null; the whole
   * map is null when the factory returns no object literal.
   */
  routes: Record<string, HandlerHooks | null> | null;
}

/** The informational fields of `main` (4.x): kept and shown, never used to serve. */
export const INFO_FIELDS = [
  'termsOfService',
  'termsOfServiceCheckedAt',
  'termsOfServiceLanguage',
  'dataLicense',
  'dataLicenseName',
  'schemaVersion',
  'schemaHash',
] as const;
export type SchemaInfo = Partial<Record<(typeof INFO_FIELDS)[number], string | null>>;

export interface CanonicalSchema {
  file: string;
  namespace: string;
  name: string;
  description: string;
  version: string;
  /** The informational fields the file gives, as written. */
  info: SchemaInfo;
  root: Template;
  docs: string[];
  tags: string[];
  requiredServerParams: string[];
  requiredLibraries: string[];
  headers: Record<string, Template>;
  sharedLists: ListRef[];
  /** Per declared list name, its filtered entries, deep-frozen: what handlers get as `sharedLists`. Empty without a list registry. */
  resolvedLists: Readonly<Record<string, readonly ListEntry[]>>;
  /** The routes that can be served: those with an error of their own are left out (the check says which). */
  routes: CanonicalRoute[];
  handlers: HandlersInfo | null;
  /** The https origins written in the file and in the lists it references, as checked (reach-origins.ts). */
  reachOrigins: ReachOrigin[];
}

/** An https origin written in a schema file or in a shared list it references: part of the reach of its executeRequest handlers (R12). */
export interface ReachOrigin {
  /** `https://`, the host (literal labels, and a marker for each `${...}` label) and the port, if written. */
  template: Template;
  source: 'file' | 'list';
  /** The keys whose `{{KEY}}` placeholder the file's own text places after this origin: bound to it. A list binds none. */
  keys: string[];
}
