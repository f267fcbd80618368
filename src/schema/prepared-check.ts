// A tool's argument check prepared at load from its input schema (tool-input.ts builds the
// schema): the defaults written into the arguments and each property judged by a small function
// made once, where Ajv's generated validator allocates its options, error objects and keeps
// `evaluated` state on every call. Measured in the plain-call benchmark's window, Ajv's validator
// was about a tenth of a call (docs/internals/performance.md).
//
// It is a shortcut, never a second judge: it says "valid" only where Ajv says so too, for the
// keywords below, exactly as Ajv's code tests them (strings' lengths in code points, numbers
// finite, patterns by the engine Ajv is given, shared/pattern.ts, enums by ===). For anything
// else it answers false and Ajv, which also words every problem, decides. A schema with a
// keyword not listed here gets no prepared check at all.

import type { JsonSchema } from './tool-input.js';
import { linearPattern } from '../shared/pattern.js';

/** Writes the defaults into `data` (as Ajv's useDefaults does) and says whether Ajv surely accepts it. */
export type PreparedCheck = (data: Record<string, unknown>) => boolean;

type Judge = (value: unknown) => boolean;

interface PropertyRule {
  key: string;
  required: boolean;
  /** Written when the argument is undefined, as Ajv's useDefaults does; undefined: none. */
  fallback: string | number | boolean | null | undefined;
  accepts: Judge;
}

const ROOT_KEYWORDS = new Set(['type', 'properties', 'additionalProperties', 'required']);
const PROPERTY_KEYWORDS = new Set([
  'type',
  'description',
  'default',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'enum',
  'minItems',
  'maxItems',
]);

const TYPES: Readonly<Record<string, Judge>> = {
  string: (value) => typeof value === 'string',
  // Ajv's `strictNumbers`: NaN and the infinities are not numbers.
  number: (value) => typeof value === 'number' && isFinite(value),
  boolean: (value) => typeof value === 'boolean',
  array: (value) => Array.isArray(value),
  object: (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
};

/** The prepared check of `schema`, or null when it holds anything the check does not know. */
export function prepareCheck(schema: JsonSchema): PreparedCheck | null {
  if (Object.keys(schema).some((keyword) => !ROOT_KEYWORDS.has(keyword))) return null;
  if (schema.type !== 'object' || schema.additionalProperties !== false) return null;
  const { properties = {}, required = [] } = schema as { properties?: unknown; required?: unknown };
  if (!isPlainObject(properties) || !Array.isArray(required)) return null;
  if (!required.every((key) => typeof key === 'string' && Object.hasOwn(properties, key))) return null;
  const rules: PropertyRule[] = [];
  for (const [key, property] of Object.entries(properties)) {
    const rule = isPlainObject(property) ? ruleFor(key, property, required.includes(key)) : null;
    if (rule === null) return null;
    rules.push(rule);
  }
  const names = new Set(rules.map((rule) => rule.key));
  return (data) => {
    // In Ajv's order: defaults first, then required and unknown arguments, then each value.
    for (const rule of rules)
      if (rule.fallback !== undefined && data[rule.key] === undefined) data[rule.key] = rule.fallback;
    for (const key in data) if (!names.has(key)) return false;
    for (const rule of rules) {
      const value = data[rule.key];
      if (value === undefined ? rule.required : !rule.accepts(value)) return false;
    }
    return true;
  };
}

function ruleFor(key: string, property: Record<string, unknown>, required: boolean): PropertyRule | null {
  if (Object.keys(property).some((keyword) => !PROPERTY_KEYWORDS.has(keyword))) return null;
  const fallback = property.default;
  if (fallback !== undefined && !isPrimitive(fallback)) return null;
  const judges: Judge[] = [];
  const typeNames = Array.isArray(property.type) ? property.type : [property.type];
  const types = typeNames.map((name) => (typeof name === 'string' && Object.hasOwn(TYPES, name) ? TYPES[name] : null));
  if (types.length === 0 || types.some((type) => type === null || type === undefined)) return null;
  const typeJudges = types as Judge[];
  judges.push(typeJudges.length === 1 ? (typeJudges[0] as Judge) : anyOf(typeJudges));
  const bounds = boundsOf(property);
  if (bounds === null) return null;
  const { minLength, maxLength, minimum, maximum, minItems, maxItems } = bounds;
  if (minLength !== undefined) judges.push((value) => typeof value !== 'string' || ucs2length(value) >= minLength);
  if (maxLength !== undefined) judges.push((value) => typeof value !== 'string' || ucs2length(value) <= maxLength);
  if (property.pattern !== undefined) {
    const regExp = typeof property.pattern === 'string' ? linearPattern(property.pattern) : null;
    if (regExp === null) return null;
    judges.push((value) => typeof value !== 'string' || regExp.test(value));
  }
  if (minimum !== undefined) judges.push((value) => typeof value !== 'number' || !(value < minimum || isNaN(value)));
  if (maximum !== undefined) judges.push((value) => typeof value !== 'number' || !(value > maximum || isNaN(value)));
  if (minItems !== undefined) judges.push((value) => !Array.isArray(value) || value.length >= minItems);
  if (maxItems !== undefined) judges.push((value) => !Array.isArray(value) || value.length <= maxItems);
  if (property.enum !== undefined) {
    if (!Array.isArray(property.enum) || !property.enum.every(isPrimitive)) return null;
    const allowed: readonly unknown[] = property.enum;
    // includes() finds NaN where === does not, but no NaN passes a type judge (numbers are finite).
    judges.push((value) => allowed.includes(value));
  }
  const accepts: Judge = judges.length === 1 ? (judges[0] as Judge) : allOf(judges);
  return { key, required, fallback, accepts };
}

/** Every judge accepts: a loop, since a callback of `every` would be a closure made on each call. */
function allOf(judges: readonly Judge[]): Judge {
  return (value) => {
    for (const judge of judges) if (!judge(value)) return false;
    return true;
  };
}

/** Some judge accepts. */
function anyOf(judges: readonly Judge[]): Judge {
  return (value) => {
    for (const judge of judges) if (judge(value)) return true;
    return false;
  };
}

/** A string's length in code points, as Ajv counts it for minLength and maxLength (ajv/dist/runtime/ucs2length). */
function ucs2length(text: string): number {
  const units = text.length;
  let length = 0;
  let position = 0;
  while (position < units) {
    length++;
    const unit = text.charCodeAt(position++);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && position < units && (text.charCodeAt(position) & 0xfc00) === 0xdc00)
      position++;
  }
  return length;
}

const BOUNDS = ['minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems'] as const;

/** The property's numeric bounds; null when one is not a finite number. */
function boundsOf(property: Record<string, unknown>): Partial<Record<(typeof BOUNDS)[number], number>> | null {
  const bounds: Partial<Record<(typeof BOUNDS)[number], number>> = {};
  for (const name of BOUNDS) {
    const value = property[name];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !isFinite(value)) return null;
    bounds[name] = value;
  }
  return bounds;
}

function isPrimitive(value: unknown): value is string | number | boolean | null {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
