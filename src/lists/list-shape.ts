// The shape of a shared list's data (`export const list`, SPEC-NOTES §7.1) as one JSON Schema
// 2020-12 document annotated with its finding codes (src/shapes/vocabulary.ts): `meta`, its field
// definitions and dependencies, and entries as objects. What a JSON Schema cannot say stays code
// in rules.ts: entries against the fields the list itself defines (LST007, LST008, LST012), two
// fields with one key, a field without description (LST005, a warning), the file's name (LST013).
// Checks run the validator generated from it (list-shape.generated.ts, by `npm run generate`).

import { annotated, closedObject, type Meaning, type Shape } from '../shapes/vocabulary.js';

/** A list's name, and a dependency's `ref`: camelCase. */
export const LIST_NAME_PATTERN = '^[a-z][a-zA-Z0-9]*$';
/** A list version and every pin to one: plain `major.minor.patch` (LST003, R10). */
export const SEMVER = /^\d+\.\d+\.\d+$/;
/** Field keys are identifiers so that `{{list:field}}` can name them. */
const IDENTIFIER_PATTERN = '^[A-Za-z_$][A-Za-z0-9_$]*$';

const SHAPE_HINT = 'a list is { meta: { name, version, description, fields, dependsOn? }, entries: [...] }';
const FIELD_HINT = "a field is { key, type: 'string' | 'number' | 'boolean', description, optional? }";
const DEPENDENCY_HINT = "a dependency is { ref: 'parentList', version: '1.0.0', condition?: { field, value } }";

/** An unknown property, reported with the code of the object it is in. */
const unknown = (code: 'LST001' | 'LST004' | 'LST009'): Meaning => ({
  code,
  message: "unknown field '{key}'",
  hint: 'allowed here: {allowed}',
});

/** A string the pattern refuses, worded apart from one that is missing or no string. */
const patterned = (pattern: string, missing: Meaning, mismatch: Meaning): Shape =>
  annotated({ allOf: [annotated({ type: 'string' }, missing), annotated({ pattern }, mismatch)] }, missing);

const field = closedObject(
  {
    key: annotated(
      { type: 'string', pattern: IDENTIFIER_PATTERN },
      { code: 'LST004', message: '`key` is not an identifier (letters, digits, _ and $)', hint: FIELD_HINT },
    ),
    type: annotated(
      { enum: ['string', 'number', 'boolean'] },
      { code: 'LST004', message: "`type` is not 'string', 'number' or 'boolean'", hint: FIELD_HINT },
    ),
    description: annotated(
      { type: 'string', minLength: 1 },
      { code: 'LST004', message: '`description` is not a non-empty string', hint: FIELD_HINT },
    ),
    optional: annotated(
      { type: 'boolean' },
      { code: 'LST004', message: '`optional` is not true or false', hint: FIELD_HINT },
    ),
  },
  ['key', 'type'],
  { code: 'LST004', message: 'a field definition is not an object', hint: FIELD_HINT },
  unknown('LST004'),
);

const dependencyPart = (message: string, schema: Shape): Shape =>
  annotated(schema, { code: 'LST009', message, hint: DEPENDENCY_HINT });
const CONDITION = '`condition` is not { field, value } with a string, number or boolean value';

const dependency = closedObject(
  {
    ref: dependencyPart('`ref` is not a list name', { type: 'string', pattern: LIST_NAME_PATTERN }),
    version: dependencyPart('`version` is not an exact semver pin', { type: 'string', pattern: SEMVER.source }),
    condition: closedObject(
      {
        field: dependencyPart(CONDITION, { type: 'string', minLength: 1 }),
        value: dependencyPart(CONDITION, { type: ['string', 'number', 'boolean'] }),
      },
      ['field', 'value'],
      { code: 'LST009', message: CONDITION, hint: DEPENDENCY_HINT },
      unknown('LST009'),
    ),
  },
  ['ref', 'version'],
  { code: 'LST009', message: 'a dependency is not an object', hint: DEPENDENCY_HINT },
  unknown('LST009'),
);

const meta = closedObject(
  {
    name: patterned(
      LIST_NAME_PATTERN,
      {
        code: 'LST002',
        message: '`meta.name` is missing or not a string',
        hint: 'a list name is camelCase, e.g. evmChains',
      },
      {
        code: 'LST002',
        message: "`meta.name` '{value}' is not camelCase",
        hint: 'a list name is camelCase, e.g. evmChains',
      },
    ),
    version: patterned(
      SEMVER.source,
      {
        code: 'LST003',
        message: '`meta.version` is missing or not a string',
        hint: "write major.minor.patch, e.g. '2.0.0'",
      },
      {
        code: 'LST003',
        message: "`meta.version` '{value}' is not semver",
        hint: "write major.minor.patch, e.g. '2.0.0'",
      },
    ),
    description: annotated(
      { type: 'string', minLength: 1 },
      { code: 'LST001', message: '`meta.description` is missing or not a non-empty string', hint: SHAPE_HINT },
    ),
    fields: annotated(
      { type: 'array', minItems: 1, items: field },
      { code: 'LST004', message: '`meta.fields` is missing, not an array, or empty', hint: FIELD_HINT },
    ),
    dependsOn: annotated(
      { type: 'array', items: dependency },
      { code: 'LST009', message: '`meta.dependsOn` is not an array', hint: DEPENDENCY_HINT },
    ),
  },
  ['name', 'version', 'description', 'fields'],
  { code: 'LST001', message: '`meta` is missing or not an object', hint: SHAPE_HINT },
  unknown('LST001'),
);

const entries = annotated(
  {
    type: 'array',
    items: annotated(
      { type: 'object' },
      { code: 'LST006', message: 'an entry is not an object', hint: 'entries are flat objects of field values' },
    ),
    allOf: [
      annotated(
        { minItems: 1 },
        { code: 'LST006', message: '`entries` is empty', hint: 'a list holds at least one entry' },
      ),
    ],
  },
  { code: 'LST001', message: '`entries` is missing or not an array', hint: SHAPE_HINT },
);

export const LIST_SHAPE = closedObject(
  { meta, entries },
  ['meta', 'entries'],
  { code: 'LST001', message: '`list` is not an object', hint: SHAPE_HINT },
  unknown('LST001'),
);
