// The rules of one list file's data (SPEC-NOTES §7.1, LST001–LST008, LST012, LST013): `meta`,
// its field definitions, and every entry against them. Each reader reports all it finds and
// returns what it could read; a list with any error is not returned at all.

import { basename } from 'node:path';
import deepFreeze from 'deep-freeze-strict';
import { childPath, type Code, type FindingSink } from '../report/findings.js';
import { isRecord, type RawObject } from '../shared/raw.js';
import type { ListDependency, ListEntry, ListField, ListFieldType, ListScalar, SharedList } from './types.js';

/** A list version and every pin to one: plain `major.minor.patch` (LST003, R10). */
export const SEMVER = /^\d+\.\d+\.\d+$/;
const CAMEL_CASE = /^[a-z][a-zA-Z0-9]*$/;
/** Field keys are identifiers so that `{{list:field}}` can name them. */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const FIELD_TYPES: ReadonlySet<string> = new Set<ListFieldType>(['string', 'number', 'boolean']);
const LIST_KEYS: ReadonlySet<string> = new Set(['meta', 'entries']);
const META_KEYS: ReadonlySet<string> = new Set(['name', 'version', 'description', 'fields', 'dependsOn']);
const FIELD_KEYS: ReadonlySet<string> = new Set(['key', 'type', 'description', 'optional']);
const DEPENDENCY_KEYS: ReadonlySet<string> = new Set(['ref', 'version', 'condition']);
const CONDITION_KEYS: ReadonlySet<string> = new Set(['field', 'value']);

const SHAPE_HINT = 'a list is { meta: { name, version, description, fields, dependsOn? }, entries: [...] }';
const FIELD_HINT = "a field is { key, type: 'string' | 'number' | 'boolean', description, optional? }";
const DEPENDENCY_HINT = "a dependency is { ref: 'parentList', version: '1.0.0', condition?: { field, value } }";

interface Meta {
  name: string;
  version: string;
  description: string;
  /** Null when a definition is broken: entries are then checked only for their shape. */
  fields: ListField[] | null;
  dependsOn: ListDependency[];
}

/** Checks the data of `export const list` read from `file`; the list, deep-frozen, when it has no error. */
export function checkListData(value: unknown, file: string, sink: FindingSink): SharedList | null {
  if (!isRecord(value)) {
    sink.add('LST001', 'list', '`list` is not an object', SHAPE_HINT);
    return null;
  }
  reportUnknownKeys(value, LIST_KEYS, 'list', 'LST001', sink);
  const meta = readMeta(value.meta, sink);
  const entries = readEntries(value.entries, meta?.fields ?? null, sink);
  if (meta && CAMEL_CASE.test(meta.name) && basename(file) !== `${kebabCase(meta.name)}.mjs`) {
    sink.add('LST013', 'list.meta.name', `the list '${meta.name}' is in ${basename(file)}`, `name the file ${kebabCase(meta.name)}.mjs`);
  }
  if (!meta?.fields || sink.hasErrors()) return null;
  const { name, version, description, fields, dependsOn } = meta;
  return deepFreeze({ name, version, description, fields, entries, dependsOn, file });
}

/** `evmChains` → `evm-chains`: the file name a list's name asks for. */
export function kebabCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

function readMeta(raw: unknown, sink: FindingSink): Meta | null {
  const path = 'list.meta';
  if (!isRecord(raw)) {
    sink.add('LST001', path, '`meta` is missing or not an object', SHAPE_HINT);
    return null;
  }
  reportUnknownKeys(raw, META_KEYS, path, 'LST001', sink);
  const { name, version, description } = raw;
  if (typeof name !== 'string' || !CAMEL_CASE.test(name)) {
    sink.add('LST002', childPath(path, 'name'), `\`meta.name\` ${typeof name === 'string' ? `'${name}' is not camelCase` : 'is missing or not a string'}`, 'a list name is camelCase, e.g. evmChains');
  }
  if (typeof version !== 'string' || !SEMVER.test(version)) {
    sink.add('LST003', childPath(path, 'version'), `\`meta.version\` ${typeof version === 'string' ? `'${version}' is not semver` : 'is missing or not a string'}`, "write major.minor.patch, e.g. '2.0.0'");
  }
  if (typeof description !== 'string' || description === '') {
    sink.add('LST001', childPath(path, 'description'), '`meta.description` is missing or not a non-empty string', SHAPE_HINT);
  }
  return {
    name: typeof name === 'string' ? name : '',
    version: typeof version === 'string' ? version : '',
    description: typeof description === 'string' ? description : '',
    fields: readFields(raw.fields, childPath(path, 'fields'), sink),
    dependsOn: raw.dependsOn === undefined ? [] : readDependencies(raw.dependsOn, childPath(path, 'dependsOn'), sink),
  };
}

// --- field definitions -----------------------------------------------------------------------

function readFields(raw: unknown, path: string, sink: FindingSink): ListField[] | null {
  if (!Array.isArray(raw) || raw.length === 0) {
    sink.add('LST004', path, '`meta.fields` is missing, not an array, or empty', FIELD_HINT);
    return null;
  }
  const fields: ListField[] = [];
  raw.forEach((item, index) => {
    const field = readField(item, childPath(path, index), sink);
    if (field && fields.some((other) => other.key === field.key)) sink.add('LST004', childPath(childPath(path, index), 'key'), `a second field '${field.key}'`, 'give each field its own key');
    else if (field) fields.push(field);
  });
  return fields.length === raw.length ? fields : null;
}

function readField(raw: unknown, path: string, sink: FindingSink): ListField | null {
  if (!isRecord(raw)) {
    sink.add('LST004', path, 'a field definition is not an object', FIELD_HINT);
    return null;
  }
  const errors = reportUnknownKeys(raw, FIELD_KEYS, path, 'LST004', sink);
  const { key, type, description, optional } = raw;
  const problems = [
    typeof key === 'string' && IDENTIFIER.test(key) ? null : { at: 'key', message: '`key` is not an identifier (letters, digits, _ and $)' },
    typeof type === 'string' && FIELD_TYPES.has(type) ? null : { at: 'type', message: "`type` is not 'string', 'number' or 'boolean'" },
    optional === undefined || typeof optional === 'boolean' ? null : { at: 'optional', message: '`optional` is not true or false' },
    description === undefined || (typeof description === 'string' && description !== '') ? null : { at: 'description', message: '`description` is not a non-empty string' },
  ].filter((problem) => problem !== null);
  for (const { at, message } of problems) sink.add('LST004', childPath(path, at), message, FIELD_HINT);
  if (description === undefined) {
    // `key` is unchecked data here: an object such as `{ toString: 0 }` cannot become text.
    const named = typeof key === 'string' ? `the field '${key}'` : 'the field';
    sink.add('LST005', path, `${named} has no description`, 'say what the value means and where it comes from; schema authors read it');
  }
  if (errors > 0 || problems.length > 0) return null;
  return { key: key as string, type: type as ListFieldType, description: (description as string | undefined) ?? '', optional: optional === true };
}

// --- dependencies ----------------------------------------------------------------------------

function readDependencies(raw: unknown, path: string, sink: FindingSink): ListDependency[] {
  if (!Array.isArray(raw)) {
    sink.add('LST009', path, '`meta.dependsOn` is not an array', DEPENDENCY_HINT);
    return [];
  }
  return raw.flatMap((item, index) => {
    const dependency = readDependency(item, childPath(path, index), sink);
    return dependency ? [dependency] : [];
  });
}

function readDependency(raw: unknown, path: string, sink: FindingSink): ListDependency | null {
  if (!isRecord(raw)) {
    sink.add('LST009', path, 'a dependency is not an object', DEPENDENCY_HINT);
    return null;
  }
  let errors = reportUnknownKeys(raw, DEPENDENCY_KEYS, path, 'LST009', sink);
  const fail = (at: string, message: string): void => {
    errors += 1;
    sink.add('LST009', childPath(path, at), message, DEPENDENCY_HINT);
  };
  const { ref, version, condition } = raw;
  if (typeof ref !== 'string' || !CAMEL_CASE.test(ref)) fail('ref', '`ref` is not a list name');
  if (typeof version !== 'string' || !SEMVER.test(version)) fail('version', '`version` is not an exact semver pin');
  if (condition !== undefined && !isCondition(condition)) fail('condition', '`condition` is not { field, value } with a string, number or boolean value');
  if (isRecord(condition)) errors += reportUnknownKeys(condition, CONDITION_KEYS, childPath(path, 'condition'), 'LST009', sink);
  if (errors > 0) return null;
  const dependency: ListDependency = { ref: ref as string, version: version as string };
  if (isCondition(condition)) dependency.condition = { field: condition.field, value: condition.value };
  return dependency;
}

function isCondition(raw: unknown): raw is { field: string; value: ListScalar } {
  return isRecord(raw) && typeof raw.field === 'string' && raw.field !== '' && isScalar(raw.value);
}

// --- entries ---------------------------------------------------------------------------------

/** `fields` is null when `meta` could not be read: entries are then checked only for their shape. */
function readEntries(raw: unknown, fields: readonly ListField[] | null, sink: FindingSink): ListEntry[] {
  const path = 'list.entries';
  if (!Array.isArray(raw)) {
    sink.add('LST001', path, '`entries` is missing or not an array', SHAPE_HINT);
    return [];
  }
  if (raw.length === 0) sink.add('LST006', path, '`entries` is empty', 'a list holds at least one entry');
  const known = fields ? new Map(fields.map((field) => [field.key, field])) : null;
  raw.forEach((entry, index) => {
    if (!isRecord(entry)) sink.add('LST006', childPath(path, index), 'an entry is not an object', 'entries are flat objects of field values');
    else if (known) checkEntry(entry, known, childPath(path, index), sink);
  });
  return raw as ListEntry[];
}

function checkEntry(entry: RawObject, fields: ReadonlyMap<string, ListField>, path: string, sink: FindingSink): void {
  for (const field of fields.values()) {
    if (!Object.hasOwn(entry, field.key)) {
      if (!field.optional) sink.add('LST007', path, `the entry lacks the required field '${field.key}'`, 'give every entry a value for each field that is not optional');
      continue;
    }
    const why = valueProblem(entry[field.key], field);
    if (why) sink.add('LST008', childPath(path, field.key), `'${field.key}' ${why}`, `the field '${field.key}' holds a ${field.type}${field.optional ? ' or null' : ''}`);
  }
  for (const key of Object.keys(entry)) {
    if (!fields.has(key)) sink.add('LST012', childPath(path, key), `'${key}' is no field of the list`, 'declare it in meta.fields or remove it from the entry');
  }
}

/** Types must match exactly ('1' is no number); null stands for a missing optional value. */
function valueProblem(value: unknown, field: ListField): string | null {
  if (value === null) return field.optional ? null : 'is null, but the field is required';
  if (typeof value === field.type) return null;
  return `is ${describeValue(value)}, not a ${field.type}`;
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (isScalar(value)) return `${JSON.stringify(value)} (a ${typeof value})`;
  return 'an object';
}

function isScalar(value: unknown): value is ListScalar {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** Reports every key of `raw` outside `allowed`; returns how many there were. */
function reportUnknownKeys(raw: RawObject, allowed: ReadonlySet<string>, path: string, code: Code, sink: FindingSink): number {
  const unknown = Object.keys(raw).filter((key) => !allowed.has(key));
  for (const key of unknown) sink.add(code, childPath(path, key), `unknown field '${key}'`, `allowed here: ${[...allowed].join(', ')}`);
  return unknown.length;
}
