// The rules of one list file's data (SPEC-NOTES §7.1, LST001–LST008, LST012, LST013): its shape
// (list-shape.ts: `meta`, field definitions, dependencies, entries as objects), checked by the
// shape's generated validator, and what a JSON Schema cannot say, checked here: entries against
// the fields the list defines, two fields with one key, a field without description, the file's
// name. Every problem is reported; a list with any error is not returned at all.

import { basename } from 'node:path';
import deepFreeze from 'deep-freeze-strict';
import { childPath, type FindingSink } from '../report/findings.js';
import { isRecord, type RawObject } from '../shared/raw.js';
import { checkShape, isBelow, type ShapeProblem } from '../shapes/problems.js';
import { LIST_NAME_PATTERN } from './list-shape.js';
import { validateList } from './list-shape.generated.js';
import {
  isListScalar,
  type ListDependency,
  type ListEntry,
  type ListField,
  type ListFieldType,
  type ListScalar,
  type SharedList,
} from './types.js';

const LIST_NAME = new RegExp(LIST_NAME_PATTERN);

/** Checks the data of `export const list` read from `file`; the list, deep-frozen, when it has no error. */
export function checkListData(value: unknown, file: string, sink: FindingSink): SharedList | null {
  const problems = checkShape(validateList, value, { root: 'list', fallback: 'LST001' }, sink);
  const meta = isRecord(value) && isRecord(value.meta) ? value.meta : null;
  const rawFields = meta && Array.isArray(meta.fields) ? meta.fields : [];
  reportUndescribedFields(rawFields, sink);
  // Entries are checked against the fields only when every definition is sound.
  const fields = meta ? readFields(rawFields, problems, sink) : null;
  if (fields && isRecord(value) && Array.isArray(value.entries)) checkEntries(value.entries, fields, sink);
  const name = meta?.name;
  if (typeof name === 'string' && LIST_NAME.test(name) && basename(file) !== `${kebabCase(name)}.mjs`) {
    sink.add(
      'LST013',
      'list.meta.name',
      `the list '${name}' is in ${basename(file)}`,
      `name the file ${kebabCase(name)}.mjs`,
    );
  }
  if (!meta || !fields || !isRecord(value) || sink.hasErrors()) return null;
  // The shape passed: every value below has the type it declares.
  return deepFreeze({
    name: meta.name as string,
    version: meta.version as string,
    description: meta.description as string,
    fields,
    entries: value.entries as ListEntry[],
    dependsOn: Array.isArray(meta.dependsOn) ? meta.dependsOn.map(readDependency) : [],
    file,
  });
}

/** `evmChains` → `evm-chains`: the file name a list's name asks for. */
export function kebabCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** LST005 for each field definition without a description: a warning, the list still loads. */
function reportUndescribedFields(raw: readonly unknown[], sink: FindingSink): void {
  raw.forEach((item, index) => {
    if (!isRecord(item) || item.description !== undefined) return;
    // `key` is unchecked data here: an object such as `{ toString: 0 }` cannot become text.
    const named = typeof item.key === 'string' ? `the field '${item.key}'` : 'the field';
    sink.add(
      'LST005',
      childPath('list.meta.fields', index),
      `${named} has no description`,
      'say what the value means and where it comes from; schema authors read it',
    );
  });
}

/**
 * The field definitions, typed, when every one passed the shape and no two share a key; else
 * null. A key repeated among the sound definitions is LST004, at the repeat.
 */
function readFields(raw: readonly unknown[], problems: readonly ShapeProblem[], sink: FindingSink): ListField[] | null {
  const fields: ListField[] = [];
  raw.forEach((item, index) => {
    const path = childPath('list.meta.fields', index);
    if (problems.some((problem) => isBelow(problem, path))) return;
    const { key, type, description, optional } = item as RawObject;
    if (fields.some((other) => other.key === key))
      sink.add('LST004', childPath(path, 'key'), `a second field '${key as string}'`, 'give each field its own key');
    else
      fields.push({
        key: key as string,
        type: type as ListFieldType,
        description: (description as string | undefined) ?? '',
        optional: optional === true,
      });
  });
  const sound = !problems.some((problem) => isBelow(problem, 'list.meta.fields'));
  return sound && fields.length === raw.length ? fields : null;
}

function readDependency(raw: unknown): ListDependency {
  const { ref, version, condition } = raw as RawObject;
  const dependency: ListDependency = { ref: ref as string, version: version as string };
  if (isRecord(condition))
    dependency.condition = { field: condition.field as string, value: condition.value as ListScalar };
  return dependency;
}

// --- entries against the fields ----------------------------------------------------------------

function checkEntries(entries: readonly unknown[], fields: readonly ListField[], sink: FindingSink): void {
  const known = new Map(fields.map((field) => [field.key, field]));
  entries.forEach((entry, index) => {
    if (isRecord(entry)) checkEntry(entry, known, childPath('list.entries', index), sink);
  });
}

function checkEntry(entry: RawObject, fields: ReadonlyMap<string, ListField>, path: string, sink: FindingSink): void {
  for (const field of fields.values()) {
    if (!Object.hasOwn(entry, field.key)) {
      if (!field.optional)
        sink.add(
          'LST007',
          path,
          `the entry lacks the required field '${field.key}'`,
          'give every entry a value for each field that is not optional',
        );
      continue;
    }
    const why = valueProblem(entry[field.key], field);
    if (why)
      sink.add(
        'LST008',
        childPath(path, field.key),
        `'${field.key}' ${why}`,
        `the field '${field.key}' holds a ${field.type}${field.optional ? ' or null' : ''}`,
      );
  }
  for (const key of Object.keys(entry)) {
    if (!fields.has(key))
      sink.add(
        'LST012',
        childPath(path, key),
        `'${key}' is no field of the list`,
        'declare it in meta.fields or remove it from the entry',
      );
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
  if (isListScalar(value)) return `${JSON.stringify(value)} (a ${typeof value})`;
  return 'an object';
}
