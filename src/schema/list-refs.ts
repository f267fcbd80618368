// `main.sharedLists`: the semantic checks of each list reference, its canonical form, and
// whether a declared list is used at all. Ajv has already checked the shape (an array of
// objects with string `ref`, string `version`, optional object `filter`); where that shape is
// wrong this module stays silent, so nothing is reported twice.

import { childPath, type FindingSink } from '../report/findings.js';
import { applyFilter } from '../lists/filter.js';
import { SEMVER } from '../lists/list-shape.js';
import {
  isListScalar,
  type ListFilter,
  type ListRegistry,
  type ResolvedList,
  type SharedList,
} from '../lists/types.js';
import { isRecord } from '../shared/raw.js';
import type { CanonicalRoute, ListRef } from './types.js';

const PATH = 'main.sharedLists';
const LIST_NAME = /^[a-zA-Z][a-zA-Z0-9]*$/;
const PATH_SEPARATOR = /[/\\]/;
const LIST_FILE_EXTENSION = /\.m?js$/;
const KEBAB_STEP = /-([a-zA-Z0-9])/g;
/** A character that continues an identifier: a list name is found in handler code only as a whole word. */
const WORD_CHAR = /[\p{ID_Continue}$]/u;

/** The three filter conditions: how each is checked and turned into its canonical filter. */
const FILTER_FORMS: Record<string, { build: (key: string, value: unknown) => ListFilter | undefined; rule: string }> = {
  exists: {
    build: (key, value) => (value === true ? { key, exists: true } : undefined),
    rule: '`exists` must be true (leave the filter out to keep every entry)',
  },
  value: {
    build: (key, value) => (isListScalar(value) ? { key, value } : undefined),
    rule: '`value` must be a string, number or boolean',
  },
  in: {
    build: (key, value) =>
      Array.isArray(value) && value.length > 0 && value.every(isListScalar) ? { key, in: [...value] } : undefined,
    rule: '`in` must be a non-empty array of strings, numbers or booleans',
  },
};
const FILTER_FIELDS: ReadonlySet<string> = new Set(['key', ...Object.keys(FILTER_FORMS)]);
const FILTER_HINT = 'a filter is { key, exists: true }, { key, value } or { key, in: [...] }';

/**
 * Where each returned reference was declared. References with errors are left out of the
 * result, so a reference's position in it need not be its index in `main.sharedLists`.
 */
const declaredAt = new WeakMap<ListRef, number>();

/** Checks `main.sharedLists` and returns the references that have no error, first of a name wins. */
export function checkListRefs(raw: unknown, sink: FindingSink): ListRef[] {
  if (!Array.isArray(raw)) return []; // absent, or Ajv: VAL024
  const firstAt = new Map<string, string>();
  return raw.flatMap((item, index) => {
    const ref = isRecord(item) ? checkListRef(item, childPath(PATH, index), firstAt, sink) : undefined; // else Ajv: VAL024
    if (!ref) return [];
    declaredAt.set(ref, index);
    return [ref];
  });
}

/**
 * VAL075 for every declared list that no enum interpolates and the handlers' source does not
 * name. `handlerSource` is the text of the handlers factory, or null when there are none.
 */
export function checkListUsage(
  refs: ListRef[],
  routes: CanonicalRoute[],
  handlerSource: string | null,
  sink: FindingSink,
): void {
  const inEnums = new Set(
    routes
      .flatMap((route) => route.parameters)
      .flatMap((param) => (param.type.kind === 'enum' ? param.type.lists.map((field) => field.list) : [])),
  );
  refs.forEach((ref, position) => {
    if (inEnums.has(ref.ref) || (handlerSource !== null && hasWord(handlerSource, ref.ref))) return;
    sink.add(
      'VAL075',
      childPath(PATH, declaredAt.get(ref) ?? position),
      `list '${ref.ref}' is declared but used neither in an enum nor by handlers`,
      `interpolate it in an enum ({{${ref.ref}:field}}), read sharedLists.${ref.ref} in a handler, or remove the declaration`,
    );
  });
}

/** Whether `word` occurs in `text` as a whole identifier (searched, not split: handler code can be long). */
function hasWord(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    const before = text[at - 1];
    const after = text[at + word.length];
    if ((before === undefined || !WORD_CHAR.test(before)) && (after === undefined || !WORD_CHAR.test(after)))
      return true;
  }
  return false;
}

/**
 * Looks each reference up in the registry: the list must be loaded (VAL072), in the pinned
 * version (VAL073, decision R10), and a filter must name one of its fields with values of the
 * field's type (VAL074). Returns the filtered, frozen entries of every reference that holds.
 */
export function resolveListRefs(
  refs: readonly ListRef[],
  registry: ListRegistry,
  sink: FindingSink,
): Map<string, ResolvedList> {
  const resolved = new Map<string, ResolvedList>();
  refs.forEach((ref, position) => {
    const path = childPath(PATH, declaredAt.get(ref) ?? position);
    const list = registry.lists.get(ref.ref);
    if (!list) {
      sink.add('VAL072', childPath(path, 'ref'), `no list named '${ref.ref}' is loaded`, registryHint(registry));
    } else if (list.version !== ref.version) {
      sink.add(
        'VAL073',
        childPath(path, 'version'),
        `pins ${ref.ref}@${ref.version}, but the loaded ${ref.ref} is ${list.version}`,
        `pin '${list.version}'; only one version of a list can be loaded`,
      );
    } else if (!ref.filter || filterFits(ref.filter, list, childPath(path, 'filter'), sink)) {
      resolved.set(ref.ref, { list, entries: applyFilter(list.entries, ref.filter) });
    }
  });
  return resolved;
}

function registryHint(registry: ListRegistry): string {
  const names = [...registry.lists.keys()];
  return names.length === 0
    ? 'no lists are loaded; point --lists at the folder of list files'
    : `loaded lists: ${names.join(', ')}`;
}

/** The filter's key is a field of the list, and what it compares with has the field's type. */
function filterFits(filter: ListFilter, list: SharedList, path: string, sink: FindingSink): boolean {
  const field = list.fields.find((candidate) => candidate.key === filter.key);
  if (!field) {
    sink.add(
      'VAL074',
      childPath(path, 'key'),
      `'${filter.key}' is no field of ${list.name}`,
      `fields of ${list.name}: ${list.fields.map((f) => f.key).join(', ')}`,
    );
    return false;
  }
  const compared = 'value' in filter ? [filter.value] : 'in' in filter ? filter.in : [];
  const stray = compared.find((value) => typeof value !== field.type);
  if (stray === undefined) return true;
  sink.add(
    'VAL074',
    childPath(path, 'value' in filter ? 'value' : 'in'),
    `${JSON.stringify(stray)} can never match: ${list.name}.${field.key} holds ${field.type}s`,
    `compare with a ${field.type}`,
  );
  return false;
}

/**
 * Every field is checked so that all of an entry's problems are reported together.
 * `firstAt` maps each list name declared so far to the path of its `ref`.
 */
function checkListRef(
  item: Record<string, unknown>,
  path: string,
  firstAt: Map<string, string>,
  sink: FindingSink,
): ListRef | undefined {
  const ref = checkName(item.ref, childPath(path, 'ref'), firstAt, sink);
  const version = checkVersion(item.version, childPath(path, 'version'), sink);
  const filter = item.filter === undefined ? undefined : checkFilter(item.filter, childPath(path, 'filter'), sink);
  if (ref === undefined || version === undefined || (item.filter !== undefined && !filter)) return undefined;
  return filter ? { ref, version, filter } : { ref, version };
}

function checkName(ref: unknown, path: string, firstAt: Map<string, string>, sink: FindingSink): string | undefined {
  if (typeof ref !== 'string') return undefined; // Ajv: VAL070
  if (!LIST_NAME.test(ref)) {
    sink.add('VAL070', path, `list ref '${ref}' is not a list name`, nameHint(ref));
    return undefined;
  }
  const first = firstAt.get(ref);
  if (first === undefined) {
    firstAt.set(ref, path);
    return ref;
  }
  sink.add(
    'VAL070',
    path,
    `list '${ref}' is declared twice`,
    `it is already declared at ${first}; handlers see one sharedLists.${ref}`,
  );
  return undefined;
}

/** A ref written as a path (`lists/evm-chains`, `../x.mjs`) most likely means the list in that file. */
function nameHint(ref: string): string {
  const rule = 'a list ref is a letter followed by letters and digits, e.g. evmChains';
  if (!PATH_SEPARATOR.test(ref) && !LIST_FILE_EXTENSION.test(ref)) return rule;
  const file = ref.split(PATH_SEPARATOR).pop() ?? '';
  const guess = file.replace(LIST_FILE_EXTENSION, '').replace(KEBAB_STEP, (_, letter: string) => letter.toUpperCase());
  const suggestion = LIST_NAME.test(guess) ? ` — '${guess}'?` : '';
  return `list refs are list names, not paths${suggestion}; ${rule}`;
}

function checkVersion(version: unknown, path: string, sink: FindingSink): string | undefined {
  if (typeof version !== 'string') return undefined; // Ajv: VAL071
  if (SEMVER.test(version)) return version;
  sink.add(
    'VAL071',
    path,
    `list version '${version}' is not semver`,
    "pin the exact version as major.minor.patch, e.g. '2.0.0'",
  );
  return undefined;
}

/** Exactly one condition with a non-empty `key`; whether the key is a field of the list is the registry's check. */
function checkFilter(raw: unknown, path: string, sink: FindingSink): ListFilter | undefined {
  if (!isRecord(raw)) return undefined; // Ajv: VAL074
  let problems = 0;
  const fail = (at: string, message: string): void => {
    problems += 1;
    sink.add('VAL074', at, message, FILTER_HINT);
  };
  for (const field of Object.keys(raw)) {
    if (!FILTER_FIELDS.has(field)) fail(childPath(path, field), `unknown filter field '${field}'`);
  }
  const key = typeof raw.key === 'string' && raw.key !== '' ? raw.key : undefined;
  if (key === undefined)
    fail(raw.key === undefined ? path : childPath(path, 'key'), 'filter `key` must be a non-empty string');
  const forms = Object.entries(FILTER_FORMS).filter(([form]) => raw[form] !== undefined);
  if (forms.length !== 1) {
    fail(
      path,
      forms.length === 0
        ? 'filter has no condition'
        : `filter has ${forms.length} conditions: ${forms.map(([form]) => form).join(', ')}`,
    );
  }
  let filter: ListFilter | undefined;
  for (const [form, { build, rule }] of forms) {
    filter = build(key ?? '', raw[form]);
    if (!filter) fail(childPath(path, form), rule);
  }
  return problems === 0 ? filter : undefined;
}
