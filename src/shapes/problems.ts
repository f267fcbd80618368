// The one mapper from a shape's validator errors to problems: what is wrong, where, and what it
// means (vocabulary.ts). Every document flowguard reads as data goes through it: `main`, shared
// lists and groups.json as findings, the config as the lines of its usage error.

import type { ErrorObject } from 'ajv/dist/2020.js';
import { childPath, type FindingSink } from '../report/findings.js';
import { type Code } from '../report/codes.js';
import { withSuggestion } from '../report/did-you-mean.js';
import { isRecord } from '../shared/raw.js';
import type { Meaning, Shape } from './vocabulary.js';

/** A generated validator: Ajv's signature, its errors verbose (each carries its parentSchema). */
export interface ShapeValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

export interface ShapeProblem {
  /** The subschema's x-code; undefined in a shape without codes (the config). */
  code: Code | undefined;
  /** Finding path of the value at fault (a missing or unknown property included); undefined for the document itself. */
  path: string | undefined;
  /** The JSON Schema keyword that failed: `additionalProperties` for an unknown key. */
  keyword: string;
  /** Steps to the value the failing keyword looked at (the object, for a missing or unknown property). */
  at: ReadonlyArray<string | number>;
  message: string;
  hint: string | undefined;
}

/** Message templates by keyword where a shape gives none; `*` for every other keyword. */
export type MessageDefaults = Readonly<Record<string, string>>;

/** The wording of findings where the shape gives none (`main`): the field in backticks, then Ajv's words. */
const FINDING_MESSAGES: MessageDefaults = {
  required: '`{key}` is required',
  additionalProperties: 'unknown field `{key}`',
  enum: '`{key}` must be one of {allowed}',
  '*': '`{key}` {detail}',
};

export interface ShapeReading {
  /** Finding path of the document: `main`, `list`, or '' for a JSON file (its top-level keys are paths of their own). */
  root: string;
  /** Defaults: FINDING_MESSAGES. */
  messages?: MessageDefaults;
  /** Names the templates may use besides their own, e.g. `{ group: 'trading' }`. */
  vars?: Readonly<Record<string, string>>;
  /** A string that is none of an enum's values gets the closest one as a did-you-mean (the config's settings). */
  suggestValues?: boolean;
}

/** Keywords whose error only repeats what the errors of their subschemas already said. */
const WRAPPERS: ReadonlySet<string> = new Set(['allOf', 'propertyNames']);

/** Every problem of `data` against a shape, in the validator's order; none when it passes. */
export function shapeProblems(validate: ShapeValidator, data: unknown, reading: ShapeReading): ShapeProblem[] {
  const valid = validate(data);
  if (valid) return [];
  return (validate.errors ?? [])
    .filter((error) => !WRAPPERS.has(error.keyword))
    .map((error) => readError(error, data, reading));
}

/**
 * Checks `data` against a coded shape and adds every problem to `sink` as a finding. A failure
 * the shape leaves uncoded becomes `fallback` (test/shapes/ keeps every coded shape coded).
 */
export function checkShape(
  validate: ShapeValidator,
  data: unknown,
  reading: ShapeReading & { fallback: Code },
  sink: FindingSink,
): ShapeProblem[] {
  const problems = shapeProblems(validate, data, reading);
  for (const problem of problems)
    sink.add(problem.code ?? reading.fallback, problem.path, problem.message, problem.hint);
  return problems;
}

/** Whether a problem lies at `path` or below it. */
export function isBelow(problem: ShapeProblem, path: string): boolean {
  const at = problem.path;
  if (at === undefined || !at.startsWith(path)) return false;
  const next = at.charAt(path.length);
  return next === '' || next === '.' || next === '[';
}

function readError(error: ErrorObject, document: unknown, reading: ShapeReading): ShapeProblem {
  const at = steps(error.instancePath, document);
  const parent = (error.parentSchema ?? {}) as Shape;
  const params = error.params as Record<string, unknown>;
  let meaning = meaningOf(parent);
  let key: string | undefined;
  let value: unknown = error.data;
  let where: Array<string | number> = at;
  switch (error.keyword) {
    case 'required': {
      key = String(params.missingProperty);
      const property = isRecord(parent.properties) ? parent.properties[key] : undefined;
      if (isRecord(property) && property['x-code'] !== undefined) meaning = meaningOf(property);
      value = undefined;
      if (parent['x-missing'] !== 'object') where = [...at, key];
      break;
    }
    case 'dependentRequired':
      key = String(params.property);
      value = isRecord(error.data) ? error.data[key] : undefined;
      where = [...at, key];
      break;
    case 'additionalProperties':
      key = String(params.additionalProperty);
      meaning = isRecord(parent['x-unknown']) ? (parent['x-unknown'] as Meaning) : {};
      value = isRecord(error.data) ? error.data[key] : undefined;
      where = [...at, key];
      break;
    default:
      // A failure under propertyNames is about one key of the object.
      if (error.propertyName !== undefined) {
        key = error.propertyName;
        where = [...at, key];
      }
  }
  const path = findingPath(reading.root, where);
  const defaults = reading.messages ?? FINDING_MESSAGES;
  const template = meaning.message ?? defaults[error.keyword] ?? defaults['*'] ?? '{detail}';
  const fill = filler(error, parent, key ?? lastField(path ?? reading.root), value, reading.vars ?? {});
  let hint = meaning.hint === undefined ? undefined : fill(meaning.hint);
  // An unknown field is most often a misspelt known one; too far from any, the known ones are the way on.
  if (error.keyword === 'additionalProperties' && key !== undefined && isRecord(parent.properties)) {
    const known = Object.keys(parent.properties);
    hint = withSuggestion(key, known, hint) ?? (known.length > 0 ? `the keys here: ${known.join(', ')}` : undefined);
  }
  if (
    error.keyword === 'enum' &&
    reading.suggestValues &&
    typeof value === 'string' &&
    Array.isArray(params.allowedValues)
  )
    hint = withSuggestion(value, params.allowedValues.map(String), hint);
  return { code: meaning.code, keyword: error.keyword, path, at, message: fill(template), hint };
}

function meaningOf(schema: Shape): Meaning {
  return {
    code: schema['x-code'] as Code | undefined,
    message: schema['x-message'] as string | undefined,
    hint: schema['x-hint'] as string | undefined,
  };
}

/** Fills a template's {names}; a name it does not know stays as written. */
function filler(
  error: ErrorObject,
  parent: Shape,
  key: string,
  value: unknown,
  vars: Readonly<Record<string, string>>,
): (template: string) => string {
  const params = error.params as Record<string, unknown>;
  const values: Record<string, () => string> = {
    key: () => key,
    value: () => valueText(value),
    found: () => describeValue(value),
    count: () => String(Array.isArray(value) ? value.length : isRecord(value) ? Object.keys(value).length : 0),
    limit: () => String(params.limit),
    missing: () => String(params.missingProperty),
    allowed: () =>
      Array.isArray(params.allowedValues)
        ? params.allowedValues.join(', ')
        : Object.keys(isRecord(parent.properties) ? parent.properties : {}).join(', '),
    detail: () => error.message ?? 'is invalid',
  };
  return (template) =>
    template.replace(/\{(\w+)\}/g, (text, name: string) => {
      if (Object.hasOwn(vars, name)) return vars[name] as string;
      return Object.hasOwn(values, name) ? (values[name] as () => string)() : text;
    });
}

/** `/routes/get.price/parameters/0` → ['routes', 'get.price', 'parameters', 0], walking the data to tell arrays apart. */
function steps(pointer: string, data: unknown): Array<string | number> {
  const result: Array<string | number> = [];
  let current: unknown = data;
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) {
      const index = Number(segment);
      result.push(index);
      current = current[index];
    } else {
      result.push(segment);
      current = isRecord(current) ? current[segment] : undefined;
    }
  }
  return result;
}

function findingPath(root: string, where: ReadonlyArray<string | number>): string | undefined {
  let path = root;
  for (const step of where) path = childPath(path, step);
  if (root === '') path = path.replace(/^\./, '');
  return path === '' ? undefined : path;
}

/** The last field of a path as findings name it: `method` of `main.routes.get.method`, `docs[0]` of `main.docs[0]`. */
function lastField(path: string): string {
  return path.slice(path.lastIndexOf('.') + 1);
}

/** A value as text for a message: strings as they are, anything else briefly. */
function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return describeValue(value);
}

/** `nothing`, `null`, `an array`, `an object`, or the type and a short JSON text: `number 7`. */
function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return `a ${typeof value}`;
  const text = JSON.stringify(value);
  return `${typeof value} ${text.length > 40 ? `${text.slice(0, 37)}...` : text}`;
}
