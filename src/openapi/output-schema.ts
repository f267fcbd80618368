// A 2xx JSON response schema written as a FlowMCP output schema: the subset of keywords the
// checker accepts (type, properties, items, description, nullable, enum, format), at most four
// levels deep counting the root as one and `items` as a level (decision R10). A node whose type
// the document leaves open (oneOf of different types, no type) is left out of its parent's
// properties: the output schema has no `required`, so a missing property is never a mismatch,
// while a guessed type would be.

import { MAX_OUTPUT_DEPTH } from '../schema/output.js';
import { isRecord, type RawObject } from '../shared/raw.js';
import { cutDescription, flattenAllOf, typeOf, type JsonType } from './json-schema.js';

const FORMATS = new Set(['date-time', 'uri']);

/** The output schema of a response schema, or null where its root is no object or array. */
export function outputSchemaOf(schema: RawObject): RawObject | null {
  const node = convert(schema, 1);
  return node && (node.type === 'object' || node.type === 'array') ? node : null;
}

function convert(raw: RawObject, depth: number): RawObject | null {
  const schema = flattenAllOf(sameTypedAlternatives(raw));
  const { type, nullable } = typeOf(schema);
  if (!type) return null;
  const node: RawObject = { type: outputType(type) };
  const description = cutDescription(schema.description, 200);
  if (description) node.description = description;
  if (nullable) node.nullable = true;
  if (
    Array.isArray(schema.enum) &&
    schema.enum.length > 0 &&
    schema.enum.every((value) => typeof value === (type === 'integer' ? 'number' : type))
  )
    node.enum = schema.enum;
  if (type === 'string' && typeof schema.format === 'string' && FORMATS.has(schema.format)) node.format = schema.format;
  if (depth >= MAX_OUTPUT_DEPTH) return node;
  if (type === 'object' && isRecord(schema.properties)) {
    const properties: RawObject = {};
    for (const [key, value] of Object.entries(schema.properties)) {
      const child = isRecord(value) ? convert(value, depth + 1) : null;
      if (child) properties[key] = child;
    }
    if (Object.keys(properties).length > 0) node.properties = properties;
  }
  if (type === 'array' && isRecord(schema.items)) {
    const items = convert(schema.items, depth + 1);
    if (items) node.items = items;
  }
  return node;
}

function outputType(type: JsonType): string {
  return type === 'integer' ? 'number' : type;
}

/** `oneOf`/`anyOf` whose members share one type read as that type (the members' properties merged). */
function sameTypedAlternatives(schema: RawObject): RawObject {
  const alternatives = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : null;
  if (!alternatives || schema.type !== undefined) return schema;
  const members = alternatives.filter(isRecord);
  const nonNull = members.filter((member) => member.type !== 'null');
  const types = new Set(nonNull.map((member) => typeOf(flattenAllOf(member)).type));
  if (types.size !== 1 || types.has(undefined)) return schema;
  const nullable = nonNull.length < members.length;
  return { ...schema, oneOf: undefined, anyOf: undefined, allOf: nonNull, ...(nullable ? { nullable: true } : {}) };
}
