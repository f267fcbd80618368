// Values against their z (decision R6): reading literal text as a value of a primitive (fixed
// values, defaults), unquoting string defaults, and why a value breaks its type. Shared by the
// parameter, test and input-schema checks, so they all judge a value the same way.

import { isRecord } from '../shared/raw.js';
import { linearPattern } from '../shared/pattern.js';
import type { ParamType } from './types.js';

type Kind = ParamType['kind'];
type EnumType = ParamType & { kind: 'enum' };

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
/** What a literal of each kind must look like, for messages. */
export const LITERAL_FORM: Partial<Record<Kind, string>> = {
  number: 'a number',
  boolean: 'true or false',
  array: 'a JSON array',
  object: 'a JSON object',
};
/** Returned by readTyped when text cannot be read as the kind asked for. */
export const UNREADABLE = Symbol('unreadable');

/** Why `value` does not satisfy `type` (as a short phrase, e.g. 'is shorter than 3 characters'), or null when it does. Used for fixed values, defaults and test values. */
export function violation(type: ParamType, value: unknown): string | null {
  switch (type.kind) {
    case 'string':
      return stringViolation(type, value);
    case 'number':
      return numberViolation(type, value);
    case 'boolean':
      return typeof value === 'boolean' ? null : 'is not true or false';
    case 'enum':
      return enumViolation(type, value);
    case 'array':
      return arrayViolation(type, value);
    case 'object':
      return isRecord(value) ? null : 'is not an object';
  }
}

/** The one reading of numeric text (number() defaults and fixed values, numeric enums of R6); null if not a finite decimal. */
export function numericText(text: string): number | null {
  if (!DECIMAL.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** Reads text as a value of `kind` (R6); UNREADABLE when it is not one. String and enum text is itself. */
export function readTyped(kind: Kind, text: string): unknown {
  switch (kind) {
    case 'number':
      return numericText(text) ?? UNREADABLE;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : UNREADABLE;
    case 'array': {
      const value = parseJson(text);
      return Array.isArray(value) ? value : UNREADABLE;
    }
    case 'object': {
      const value = parseJson(text);
      return isRecord(value) ? value : UNREADABLE;
    }
    default:
      return text;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // JSON.parse throws only on text that is no JSON: UNREADABLE is the answer, reported by the caller.
    return UNREADABLE;
  }
}

/**
 * One pair of matching surrounding quotes, ' or ", is removed (R6), and so are the escapes
 * inside them: `default("a \"b\"")` is the text `a "b"`. Double-quoted text is read as a
 * JSON string; single-quoted text loses the backslash before a quote or a backslash.
 */
export function unquote(text: string): string {
  const first = text[0];
  if (text.length < 2 || (first !== "'" && first !== '"') || !text.endsWith(first)) return text;
  if (first === '"') {
    const parsed = parseJson(text);
    if (typeof parsed === 'string') return parsed;
  }
  return text.slice(1, -1).replace(/\\(['"\\])/g, '$1');
}

/** Whether `regex(pattern)` can be applied: read alike by JavaScript and matched in linear time (shared/pattern.ts). */
export function compilesAsPattern(pattern: string): boolean {
  return linearPattern(pattern) !== null;
}

function stringViolation(type: ParamType & { kind: 'string' }, value: unknown): string | null {
  if (typeof value !== 'string') return 'is not a string';
  const { minLength, maxLength, pattern } = type;
  if (minLength !== undefined || maxLength !== undefined) {
    const length = codePointLength(value);
    if (minLength !== undefined && length < minLength) return `is shorter than ${minLength} characters`;
    if (maxLength !== undefined && length > maxLength) return `is longer than ${maxLength} characters`;
  }
  if (pattern !== undefined && linearPattern(pattern)?.test(value) !== true) return `does not match ${pattern}`;
  return null;
}

/** Characters as JSON Schema counts them: code points, a surrogate pair is one. */
function codePointLength(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i += 1, length += 1) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i += 1;
  }
  return length;
}

function numberViolation(type: ParamType & { kind: 'number' }, value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'is not a finite number';
  if (type.minimum !== undefined && value < type.minimum) return `is less than ${type.minimum}`;
  if (type.maximum !== undefined && value > type.maximum) return `is greater than ${type.maximum}`;
  return null;
}

function enumViolation(type: EnumType, value: unknown): string | null {
  const isNumber = typeof value === 'number' && Number.isFinite(value);
  // Values behind list interpolations are known only once lists resolve; an enum without any
  // values was reported as VAL046. Either way only the kind of value can be judged here.
  if (!type.listsResolved || type.values.length === 0)
    return typeof value === 'string' || isNumber ? null : 'is not a string or number';
  if (typeof value === 'string' && type.values.includes(value)) return null;
  if (isNumber && numericEnumAccepts(type.values, value)) return null;
  return `is not one of ${type.values.slice(0, 10).join(', ')}${type.values.length > 10 ? ', …' : ''}`;
}

/** R6: where every enum value is numeric, the matching number is accepted too. */
function numericEnumAccepts(values: readonly string[], value: number): boolean {
  let matched = false;
  for (const text of values) {
    const n = numericText(text);
    if (n === null) return false;
    if (n === value) matched = true;
  }
  return matched;
}

function arrayViolation(type: ParamType & { kind: 'array' }, value: unknown): string | null {
  if (!Array.isArray(value)) return 'is not an array';
  if (type.minItems !== undefined && value.length < type.minItems) return `has fewer than ${type.minItems} items`;
  if (type.maxItems !== undefined && value.length > type.maxItems) return `has more than ${type.maxItems} items`;
  return null;
}
