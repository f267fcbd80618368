// One OpenAPI parameter schema written as a FlowMCP `z` block: the primitive (`string()`,
// `number()`, `boolean()`, `enum(a,b)`, `array()`, `object()`) and its options (`min`, `max`,
// `length`, `regex`, `optional`, `default`). What the grammar cannot say is named in `dropped`,
// so the caller can report it; nothing is left out silently.

import { linearPattern } from '../shared/pattern.js';
import { isRecord, type RawObject } from '../shared/raw.js';
import { flattenAllOf, typeOf } from './json-schema.js';

export interface ZBlock {
  primitive: string;
  options: string[];
}

export interface ZConversion {
  z: ZBlock;
  /** The parameter's JSON type as FlowMCP will check it. */
  kind: 'string' | 'number' | 'boolean' | 'enum' | 'array' | 'object';
  /** The enum's values, for test values and checks. */
  values?: Array<string | number>;
  /** Constraints of the document the z grammar cannot express, in words. */
  dropped: string[];
}

export function zBlockOf(rawSchema: RawObject, required: boolean): ZConversion {
  const schema = flattenAllOf(rawSchema);
  const { type } = typeOf(schema);
  const dropped: string[] = [];
  const options: string[] = [];
  let conversion: ZConversion;
  const enumValues = Array.isArray(schema.enum) ? schema.enum.filter((value) => value !== null) : undefined;

  if (type === 'boolean') {
    conversion = { z: { primitive: 'boolean()', options }, kind: 'boolean', dropped };
  } else if (
    enumValues &&
    enumValues.length > 0 &&
    (type === 'string' || type === 'integer' || type === 'number' || type === undefined)
  ) {
    const texts = enumValues.map(String);
    if (
      enumValues.every((value) => typeof value === 'string' || typeof value === 'number') &&
      texts.every(expressibleEnumValue)
    ) {
      conversion = {
        z: { primitive: `enum(${texts.join(',')})`, options },
        kind: 'enum',
        values: enumValues as Array<string | number>,
        dropped,
      };
    } else {
      dropped.push(
        `enum ${JSON.stringify(enumValues)} (a value that is empty or holds a comma or braces cannot be listed in enum())`,
      );
      conversion = {
        z: { primitive: type === 'integer' || type === 'number' ? 'number()' : 'string()', options },
        kind: type === 'integer' || type === 'number' ? 'number' : 'string',
        dropped,
      };
    }
  } else if (type === 'integer' || type === 'number') {
    conversion = { z: { primitive: 'number()', options }, kind: 'number', dropped };
    numberBounds(schema, type === 'integer', options, dropped);
  } else if (type === 'array') {
    conversion = { z: { primitive: 'array()', options }, kind: 'array', dropped };
    if (typeof schema.minItems === 'number' && schema.minItems === schema.maxItems)
      options.push(`length(${schema.minItems})`);
    else if (schema.minItems !== undefined || schema.maxItems !== undefined) dropped.push('minItems/maxItems');
  } else if (type === 'object') {
    conversion = { z: { primitive: 'object()', options }, kind: 'object', dropped };
  } else {
    if (type === undefined && (schema.oneOf || schema.anyOf)) dropped.push('oneOf/anyOf (written as string())');
    conversion = { z: { primitive: 'string()', options }, kind: 'string', dropped };
    stringBounds(schema, options, dropped);
  }

  if (!required) options.push('optional()');
  const fallback = schema.default;
  if (fallback !== undefined && fallback !== null) {
    const written = defaultOption(fallback, conversion);
    if (written) options.push(written);
    else dropped.push(`default ${JSON.stringify(fallback)} (not a value of the parameter's type)`);
  }
  return conversion;
}

/** An enum value the grammar can carry: values are split at commas, lists are `{{...}}`. */
function expressibleEnumValue(text: string): boolean {
  return text !== '' && !text.includes(',') && !text.includes('{{') && !text.includes('}}');
}

function numberBounds(schema: RawObject, integer: boolean, options: string[], dropped: string[]): void {
  // 3.0 writes exclusive bounds as booleans beside minimum/maximum, 3.1 as numbers of their own.
  const lower = bound(schema.minimum, schema.exclusiveMinimum, integer, 1);
  const upper = bound(schema.maximum, schema.exclusiveMaximum, integer, -1);
  if (lower.value !== undefined) options.push(`min(${lower.value})`);
  if (upper.value !== undefined) options.push(`max(${upper.value})`);
  if (lower.dropped) dropped.push('an exclusive minimum (written as an inclusive one is wrong for non-integers)');
  if (upper.dropped) dropped.push('an exclusive maximum');
  if (schema.multipleOf !== undefined) dropped.push('multipleOf');
}

function bound(
  plain: unknown,
  exclusive: unknown,
  integer: boolean,
  step: number,
): { value?: number; dropped?: boolean } {
  const exclusiveValue =
    typeof exclusive === 'number' ? exclusive : exclusive === true && typeof plain === 'number' ? plain : undefined;
  if (exclusiveValue !== undefined) return integer ? { value: exclusiveValue + step } : { dropped: true };
  return typeof plain === 'number' && Number.isFinite(plain) ? { value: plain } : {};
}

function stringBounds(schema: RawObject, options: string[], dropped: string[]): void {
  if (typeof schema.minLength === 'number' && schema.minLength > 0) options.push(`min(${schema.minLength})`);
  if (typeof schema.maxLength === 'number') options.push(`max(${schema.maxLength})`);
  if (typeof schema.pattern === 'string') {
    // As regex() takes it: read as JavaScript writes it and matched in linear time (no lookaround).
    if (linearPattern(schema.pattern) !== null) options.push(`regex(${schema.pattern})`);
    else
      dropped.push(
        `pattern ${JSON.stringify(schema.pattern)} (not a JavaScript regular expression flowguard can match in linear time)`,
      );
  }
}

/** `default(x)` in the form the checker reads for the primitive (decision R6), or null when the value does not fit. */
function defaultOption(value: unknown, conversion: ZConversion): string | null {
  switch (conversion.kind) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? `default(${value})` : null;
    case 'boolean':
      return typeof value === 'boolean' ? `default(${value})` : null;
    case 'array':
      return Array.isArray(value) ? `default(${JSON.stringify(value)})` : null;
    case 'object':
      return isRecord(value) ? `default(${JSON.stringify(value)})` : null;
    case 'enum':
      return conversion.values?.some((item) => String(item) === String(value))
        ? `default(${JSON.stringify(String(value))})`
        : null;
    case 'string':
      return typeof value === 'string' || typeof value === 'number'
        ? `default(${JSON.stringify(String(value))})`
        : null;
  }
}
