// What flowguard's document shapes say besides JSON Schema. Every document flowguard reads as
// data (`main`, a shared list, groups.json, the config) has its shape written as one JSON Schema
// 2020-12 document, annotated with what a failure means to the reader, so that one mapper
// (problems.ts) turns any error of its validator into a finding, with no code per document:
//
//   x-code     the finding code of a failure of this subschema's own keywords (type, pattern,
//              enum, minLength...), and of this property being missing where its object requires it
//   x-message  the message of such a failure (a template, below); without one, the document's
//              default wording for the keyword (problems.ts)
//   x-hint     the finding's hint (a template)
//   x-unknown  { code, message?, hint? } for a property refused by `additionalProperties: false`
//   x-missing  'object': a missing required property is reported at the object's path instead of
//              at the property's (in a JSON file a missing key has no position of its own)
//
// Templates fill {key} (the property at fault: missing, unknown, or the last step of the path),
// {value} (the value as text), {found} (a short description: `nothing`, `null`, `an array`,
// `number 7`), {count} (the items or properties of the value), {limit} (the keyword's bound),
// {missing} (the property another requires), {allowed} (an enum's values, or an object's
// properties), {detail} (Ajv's own words), and the names a caller supplies (e.g. {group}).
//
// Shapes are compiled at build time into standalone validators (scripts/generate.ts writes the
// `*.generated.ts` beside each shape), so no check loads or compiles Ajv.

import type { Code } from '../report/codes.js';

/** A JSON Schema object, annotated or not. */
export type Shape = { [keyword: string]: unknown };

/** What a failure means: its code, message and hint (templates). */
export interface Meaning {
  code?: Code;
  message?: string;
  hint?: string;
}

/** The annotation keywords, for Ajv to accept and ignore (scripts/generate.ts). */
export const ANNOTATION_KEYWORDS = [
  { keyword: 'x-code', schemaType: 'string' },
  { keyword: 'x-message', schemaType: 'string' },
  { keyword: 'x-hint', schemaType: 'string' },
  { keyword: 'x-unknown', schemaType: 'object' },
  { keyword: 'x-missing', schemaType: 'string' },
] as const;

/** `schema` with the meaning of its failures. */
export function annotated(schema: Shape, { code, message, hint }: Meaning): Shape {
  const annotations: Shape = {};
  if (code !== undefined) annotations['x-code'] = code;
  if (message !== undefined) annotations['x-message'] = message;
  if (hint !== undefined) annotations['x-hint'] = hint;
  return { ...schema, ...annotations };
}

/**
 * A closed object: every property not in `properties` fails, meaning `unknown`. `meaning` is what
 * a value that is no object (or the object missing where it is required) means.
 */
export function closedObject(
  properties: Record<string, Shape>,
  required: readonly string[],
  meaning: Meaning,
  unknown: Meaning,
  extra: Shape = {},
): Shape {
  return annotated(
    { type: 'object', properties, required, additionalProperties: false, 'x-unknown': unknown, ...extra },
    meaning,
  );
}
