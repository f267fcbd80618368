// Compiles a route's raw `parameters` into canonical params. The Ajv shape check has already
// reported every malformed field; this module only reads parameters whose shape is sound and
// applies the semantic rules of the z grammar (SPEC-NOTES §5, decision R6). Each z string is
// parsed once, by plain string scanning; its options are applied by z-options.ts. Corpus idioms are read as their authors meant
// them, each with a finding that says how: a body parameter on GET or DELETE goes into the query
// (VAL051), `{{USER_PARAM}}` inside text (VAL095) and `{{LATITUDE}}` for the key `latitude`
// (VAL099) are the caller's input, and loosely written z options are read leniently (VAL059).

import { childPath, type FindingSink } from '../report/findings.js';
import type { ListEntry, ResolvedList } from '../lists/types.js';
import { isRecord } from '../shared/raw.js';
import { compileSource } from './param-source.js';
import { LITERAL_FORM, readTyped, UNREADABLE, violation } from './z-values.js';
import {
  applyOption,
  INTERPOLATION,
  LIST_HINT,
  splitJoinedOptions,
  withCorrection,
  type Kind,
  type ZState,
} from './z-options.js';
import type { CanonicalParam, HttpMethod, ListFieldRef, ParamLocation, ParamSource, ParamType } from './types.js';

export interface ParamContext {
  sink: FindingSink;
  /** Keys listed in main.requiredServerParams. */
  serverKeys: ReadonlySet<string>;
  /** `ref`s declared in main.sharedLists. */
  declaredLists: ReadonlySet<string>;
  /** The declared lists the registry resolved, by name; absent without a registry, so interpolations stay unresolved. */
  lists?: ReadonlyMap<string, ResolvedList>;
  /** The route's method, if valid. */
  method: HttpMethod | undefined;
  /** Insert slots found in the route path ({{key}} and :key). */
  pathSlots: ReadonlySet<string>;
}

type EnumType = ParamType & { kind: 'enum' };

/** A parameter whose shape passed: every field has the type the Ajv schema demands. */
interface RawParam {
  key: string;
  value: string;
  location: ParamLocation;
  primitive: string;
  options: string[];
  /** Next to `position` and `z`, or (some 4.x files) inside `z`. */
  description?: string;
}

const LOCATIONS: ReadonlySet<string> = new Set(['insert', 'query', 'body']);
const BODYLESS_METHODS: ReadonlySet<string> = new Set(['GET', 'DELETE']);
const CAMEL_CASE = /^[a-z][a-zA-Z0-9]*$/;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const SIMPLE_PRIMITIVES: ReadonlyMap<string, Kind> = new Map([
  ['string()', 'string'],
  ['number()', 'number'],
  ['boolean()', 'boolean'],
  ['array()', 'array'],
  ['object()', 'object'],
]);

/** Compiles a route's raw `parameters` (at finding path `path`, e.g. `main.routes.getPrice.parameters`) into canonical params, reporting every problem. Parameters whose shape is broken are left out. */
export function compileParameters(raw: unknown, path: string, ctx: ParamContext): CanonicalParam[] {
  if (!Array.isArray(raw)) return [];
  const params: CanonicalParam[] = [];
  const userKeys = new Set<string>();
  raw.forEach((item, index) => {
    const shape = readShape(item);
    if (!shape) return;
    const param = compileParameter(shape, childPath(path, index), ctx, userKeys);
    if (param) params.push(param);
  });
  return params;
}

// --- one parameter -------------------------------------------------------------------------

function readShape(item: unknown): RawParam | null {
  if (!isRecord(item) || !isRecord(item.position) || !isRecord(item.z)) return null;
  const { key, value, location } = item.position;
  const { primitive, options } = item.z;
  if (typeof key !== 'string' || key === '' || typeof value !== 'string') return null;
  if (typeof location !== 'string' || !LOCATIONS.has(location)) return null;
  if (typeof primitive !== 'string' || !Array.isArray(options) || !options.every((o) => typeof o === 'string'))
    return null;
  const description =
    typeof item.description === 'string'
      ? item.description
      : typeof item.z.description === 'string'
        ? item.z.description
        : undefined;
  const shape: RawParam = { key, value, location: location as ParamLocation, primitive, options: options as string[] };
  if (description) shape.description = description;
  return shape;
}

function compileParameter(
  raw: RawParam,
  path: string,
  ctx: ParamContext,
  userKeys: Set<string>,
): CanonicalParam | null {
  const { sink } = ctx;
  const position = childPath(path, 'position');
  const keyPath = childPath(position, 'key');
  const source = compileSource(raw, childPath(position, 'value'), ctx);
  if (source.kind === 'user') checkUserKey(raw.key, raw.location, keyPath, sink, userKeys);
  let location = raw.location;
  if (location === 'body' && ctx.method && BODYLESS_METHODS.has(ctx.method)) {
    // A GET or DELETE request carries no body; the value goes where such a request can carry it.
    location = 'query';
    sink.add(
      'VAL051',
      childPath(position, 'location'),
      `body parameter \`${raw.key}\` on a ${ctx.method} route is sent in the query string`,
      'use location query, or make the route POST or PUT',
    );
  }
  const handlerOnly = location === 'insert' && !ctx.pathSlots.has(raw.key);
  if (handlerOnly)
    sink.add(
      'VAL094',
      keyPath,
      `insert parameter \`${raw.key}\` has no {{${raw.key}}} or :${raw.key} slot in the path; only handlers read it`,
    );
  const z = compileZ(raw.primitive, raw.options, childPath(path, 'z'), ctx);
  if (!z) return null;
  if (source.kind === 'template') checkFixedValue(raw.value, source, z.type, childPath(position, 'value'), sink);
  const param: CanonicalParam = { key: raw.key, location, source, type: z.type, optional: z.optional, handlerOnly };
  if (z.defaultValue) param.default = z.defaultValue.value;
  if (raw.description) param.description = raw.description;
  return param;
}

/**
 * Naming convention (the key is the input name the AI sees) and uniqueness among user params.
 * A query or body key is also the name the API receives (GitHub reads `per_page`, not
 * `perPage`), so the API's own spelling is right there; only an insert key, which never reaches
 * the wire, has to be camelCase.
 */
function checkUserKey(key: string, location: string, path: string, sink: FindingSink, userKeys: Set<string>): void {
  if (location === 'insert' && !CAMEL_CASE.test(key))
    sink.add(
      'VAL019',
      path,
      `parameter key \`${key}\` is not camelCase`,
      "an insert parameter's key is only the name the AI sees: camelCase, e.g. chainId",
    );
  if (userKeys.has(key))
    sink.add(
      'VAL055',
      path,
      `a user parameter named \`${key}\` already exists in this route`,
      'give each user parameter its own key',
    );
  userKeys.add(key);
}

/** A fixed value is text; it must read as its z (VAL053). Values with secrets are only known at call time. */
function checkFixedValue(
  value: string,
  source: ParamSource & { kind: 'template' },
  type: ParamType,
  path: string,
  sink: FindingSink,
): void {
  let text = '';
  for (const part of source.template) {
    if (part.kind !== 'literal') return;
    text += part.text;
  }
  // A placeholder the template dropped was reported there; the rest is not the real value.
  if (text !== value) return;
  const typed = readTyped(type.kind, text);
  const why = typed === UNREADABLE ? `is not ${LITERAL_FORM[type.kind]}` : violation(type, typed);
  if (why) sink.add('VAL053', path, `fixed value ${JSON.stringify(value)} ${why}`, 'fix the value or its z block');
  else source.typed = typed;
}

// --- the z block -----------------------------------------------------------------------------

function compileZ(primitive: string, options: string[], path: string, ctx: ParamContext): ZState | null {
  const { sink } = ctx;
  const primitivePath = childPath(path, 'primitive');
  const type = parsePrimitive(primitive, primitivePath, ctx);
  if (!type) return null;
  const state: ZState = { type, optional: false, valuesGiven: false };
  const optionsPath = childPath(path, 'options');
  options.forEach((text, index) => {
    const at = childPath(optionsPath, index);
    for (const option of splitJoinedOptions(text, at, sink)) applyOption(option, at, state, sink);
  });
  if (type.kind === 'enum' && type.values.length === 0 && type.lists.length === 0 && !state.valuesGiven) {
    sink.add('VAL046', primitivePath, 'enum() has no values', 'list them: enum(a,b,c)');
  }
  if (state.defaultValue) {
    state.optional = true;
    const why = violation(type, state.defaultValue.value);
    if (why)
      sink.add(
        'VAL056',
        state.defaultValue.path,
        `default ${JSON.stringify(state.defaultValue.value)} ${why}`,
        'pick a default the z block accepts',
      );
  }
  return state;
}

function parsePrimitive(text: string, path: string, ctx: ParamContext): ParamType | null {
  const kind = SIMPLE_PRIMITIVES.get(text);
  // A fresh object each time: options narrow it in place.
  if (kind) return { kind } as ParamType;
  if (text.startsWith('enum(') && text.endsWith(')')) return parseEnum(text.slice(5, -1), path, ctx);
  if (INTERPOLATION.test(text)) {
    ctx.sink.add(
      'VAL047',
      path,
      `list interpolation in ${JSON.stringify(text)}; it is only allowed inside enum()`,
      LIST_HINT,
    );
  } else {
    ctx.sink.add(
      'VAL044',
      path,
      `unknown primitive ${JSON.stringify(text)}`,
      withCorrection(text, PRIMITIVE_NAMES, 'use string(), number(), boolean(), enum(a,b), array() or object()'),
    );
  }
  return null;
}

/** `a,b,{{list:field}}`: values verbatim and in order (no spaces, case-sensitive), list references apart. */
function parseEnum(inner: string, path: string, ctx: ParamContext): ParamType {
  const values: string[] = [];
  const lists: ListFieldRef[] = [];
  for (const item of inner === '' ? [] : inner.split(',')) {
    const ref = listReference(item);
    if (ref) {
      if (!ctx.declaredLists.has(ref.list)) {
        ctx.sink.add(
          'VAL048',
          path,
          `enum interpolates list \`${ref.list}\`, which main.sharedLists does not declare`,
          `add { ref: '${ref.list}', version: ... } to main.sharedLists`,
        );
      }
      lists.push(ref);
    } else if (item === '') {
      // Corpus idiom: a trailing comma (`enum(a,b,)`). The reference's check accepts '' as a
      // choice, and corpus tests send it (bitget's `annType: ''`: all announcements), so it stays one.
      ctx.sink.add(
        'VAL059',
        path,
        `empty value in ${JSON.stringify(`enum(${inner})`)} read as the choice ''`,
        "remove the extra comma unless '' is meant",
      );
      if (!values.includes('')) values.push('');
    } else if (item.includes('{{') || item.includes('}}')) {
      ctx.sink.add(
        'VAL044',
        path,
        `enum value ${JSON.stringify(item)} is a malformed list interpolation`,
        'write values separated by single commas, lists as {{listName:fieldName}}',
      );
    } else {
      values.push(item);
    }
  }
  const type: EnumType = { kind: 'enum', values, lists, listsResolved: lists.length === 0 };
  if (ctx.lists && lists.length > 0) interpolate(type, ctx.lists, path, ctx.sink);
  return type;
}

/**
 * Adds the values of every `{{list:field}}`: each field over the filtered entries in order,
 * entries without it skipped, as text, after the static values and without repeats. Only an
 * enum whose every interpolation resolves is marked resolved; a list that did not resolve was
 * reported where it was declared (VAL048, VAL072–VAL074).
 */
function interpolate(type: EnumType, lists: ReadonlyMap<string, ResolvedList>, path: string, sink: FindingSink): void {
  const found: string[] = [];
  let complete = true;
  for (const { list, field } of type.lists) {
    const resolved = lists.get(list);
    const known = resolved?.list.fields.some((candidate) => candidate.key === field) ?? false;
    if (resolved && !known) {
      sink.add(
        'VAL049',
        path,
        `{{${list}:${field}}}: ${list} has no field \`${field}\``,
        `fields of ${list}: ${resolved.list.fields.map((f) => f.key).join(', ')}`,
      );
    }
    if (resolved && known) found.push(...fieldValues(resolved.entries, field));
    else complete = false;
  }
  if (!complete) return;
  type.values = [...new Set([...type.values, ...found])];
  type.listsResolved = true;
  if (type.values.length === 0)
    sink.add(
      'VAL046',
      path,
      'the enum has no values: its list interpolations yield none',
      "check the lists' filters in main.sharedLists",
    );
}

/** The values of `field` as text, in entry order; entries without it (absent or null) are skipped. */
function fieldValues(entries: readonly ListEntry[], field: string): string[] {
  return entries.flatMap((entry) => {
    const value = Object.hasOwn(entry, field) ? entry[field] : null;
    return value === null || value === undefined ? [] : [String(value)];
  });
}

/** `{{list:field}}` with two plain identifiers, else null. */
function listReference(item: string): ListFieldRef | null {
  if (!item.startsWith('{{') || !item.endsWith('}}')) return null;
  const [list, field, ...rest] = item.slice(2, -2).split(':');
  if (rest.length > 0 || !list || !field || !IDENTIFIER.test(list) || !IDENTIFIER.test(field)) return null;
  return { list, field };
}

const PRIMITIVE_NAMES = ['string', 'number', 'boolean', 'enum', 'array', 'object'];
