// The shape of `main` as one JSON Schema 2020-12 document, for every spec version flowguard
// reads (2.x, 3.x, 4.x). Each subschema carries the finding code its failures map to, and some a
// hint (the vocabulary of src/shapes/), so an Ajv error turns into a finding without any
// per-keyword guesswork. What differs between the versions (the version and namespace
// patterns, which key holds the tool map, whether it may be empty) is checked in code
// (version.ts); here both tool-map keys have the same shape. Checks run the validator generated
// from it (main-shape.generated.ts, by `npm run generate`), so no check loads or compiles Ajv.

import type { Code } from '../report/codes.js';
import { annotated, closedObject, type Meaning, type Shape } from '../shapes/vocabulary.js';

/** What to write instead, per code: an example an author can copy (docs/reference/findings.md explains each). */
const HINTS: Partial<Record<Code, string>> = {
  VAL002: 'write export const main = { namespace, name, description, version, root, routes }',
  VAL010: "the provider's id in lowercase letters, e.g. namespace: 'openmeteo'",
  VAL012: "a short name, e.g. name: 'OpenMeteo'",
  VAL013: 'one or two sentences on what the API offers',
  VAL015: "the base URL of every route, e.g. root: 'https://api.example.com'",
  VAL016: 'routes: { getThing: { method, path, description, parameters, tests } }, at least one route',
  VAL020: "a list of URLs, e.g. docs: ['https://example.com/api-docs']",
  VAL021: "a list of lowercase words, e.g. tags: ['weather']",
  VAL022: "a list of distinct key names, e.g. requiredServerParams: ['EXAMPLE_API_KEY']",
  VAL023: "header names mapped to text, e.g. headers: { 'x-api-key': '{{EXAMPLE_API_KEY}}' }",
  VAL024: "a list of { ref, version } objects, e.g. sharedLists: [{ ref: 'evmChains', version: '2.0.0' }]",
  VAL025: "a list of package names, e.g. requiredLibraries: ['ethers']",
  VAL031: 'split the schema into two files',
  VAL032: 'use GET, POST, PUT or DELETE',
  VAL033: "the part after root, starting with /, e.g. path: '/things/{{id}}'",
  VAL034: 'say what the tool does and returns; the AI client reads it to choose the tool',
  VAL035: 'a list of parameters; write parameters: [] for none',
  VAL038:
    'meta has six fields: isReadOnly, isConcurrencySafe, isDestructive (booleans), searchHint (text), aliases (a list of names), alwaysLoad (boolean)',
  VAL039: 'write text, or leave the field out',
  VAL040: 'each parameter is { position: { key, value, location }, z: { primitive, options } }',
  VAL041: "the argument's name as the caller sees it, e.g. key: 'city'",
  VAL042: "'{{USER_PARAM}}' for the caller's input, or a fixed text",
  VAL043: 'use insert, query or body; headers go into main.headers',
  VAL044: 'use string(), number(), boolean(), enum(a,b), array() or object()',
  VAL045: "a list of option strings, e.g. options: ['min(1)', 'optional()']",
  VAL060: "a media type as text, e.g. mimeType: 'application/json'",
  VAL061: "output: { mimeType: 'application/json', schema: { type: 'object', properties: { ... } } }",
  VAL070: "the list's meta.name, e.g. ref: 'evmChains'",
  VAL071: "the list's version as written in its file, e.g. version: '2.0.0'",
  VAL074: 'filter: { key, exists: true }, { key, value } or { key, in: [...] }',
  VAL080: 'preload: { enabled: true, ttl: 3600 }',
  VAL081: 'enabled: true or false',
  VAL082: 'ttl: a whole number of seconds, e.g. 3600',
  VAL083: 'write text, or leave the description out',
  TST001: "add tests: [{ _description: 'a known thing', <parameter key>: <value> }]",
  TST002: "each test says what it shows: _description: 'a known thing'",
};
/** VAL019 covers several naming conventions, each with its own example. */
const convention = (pattern: string, hint: string): Shape => annotated({ pattern }, { code: 'VAL019', hint });
const UNKNOWN_FIELD: Meaning = { code: 'VAL003', hint: 'remove the field or fix its spelling' };

/** Failures of `schema` are `code`, with the code's hint where it has one. */
const coded = (code: Code, schema: Shape): Shape => annotated(schema, { code, hint: HINTS[code] });
const string = (code: Code, extra: Shape = {}): Shape => coded(code, { type: 'string', ...extra });
const stringArray = (code: Code, itemExtra: Shape = {}): Shape =>
  coded(code, { type: 'array', items: string(code, itemExtra) });
/** A closed object: unknown fields are VAL003. */
const object = (code: Code, properties: Record<string, Shape>, required: string[]): Shape =>
  closedObject(properties, required, { code, hint: HINTS[code] }, UNKNOWN_FIELD);
/** Descriptive text that serves no request (VAL039): a string, or null where the spec allows it. */
const text = (extra: Shape = {}): Shape => string('VAL039', extra);
const textOrNull = coded('VAL039', { type: ['string', 'null'] });

const position = object(
  'VAL040',
  {
    key: string('VAL041', { minLength: 1 }),
    value: string('VAL042'),
    location: coded('VAL043', { enum: ['insert', 'query', 'body'] }),
  },
  ['key', 'value', 'location'],
);

const z = object(
  'VAL040',
  {
    primitive: string('VAL044'),
    options: stringArray('VAL045'),
    // Some 4.x files write a parameter's description inside z.
    description: text(),
  },
  ['primitive', 'options'],
);

const parameter = object('VAL040', { position, z, description: text() }, ['position', 'z']);

const output = object(
  'VAL061',
  {
    mimeType: string('VAL060'),
    schema: coded('VAL061', { type: 'object' }),
    description: text(),
  },
  ['mimeType', 'schema'],
);

const preload = object(
  'VAL080',
  {
    enabled: coded('VAL081', { type: 'boolean' }),
    ttl: coded('VAL082', { type: 'integer', minimum: 1 }),
    description: string('VAL083'),
  },
  ['enabled', 'ttl'],
);

const routeTest = coded('TST002', {
  type: 'object',
  properties: { _description: string('TST002') },
  required: ['_description'],
});

/** 4.x tool `meta`: optional, but when present all six fields are required (SPEC-NOTES-v3-v4 §2). */
const toolMeta = object(
  'VAL038',
  {
    isReadOnly: coded('VAL038', { type: 'boolean' }),
    isConcurrencySafe: coded('VAL038', { type: 'boolean' }),
    isDestructive: coded('VAL038', { type: 'boolean' }),
    searchHint: string('VAL038', { minLength: 1 }),
    aliases: stringArray('VAL038'),
    alwaysLoad: coded('VAL038', { type: 'boolean' }),
  },
  ['isReadOnly', 'isConcurrencySafe', 'isDestructive', 'searchHint', 'aliases', 'alwaysLoad'],
);

const route = object(
  'VAL016',
  {
    method: coded('VAL032', { enum: ['GET', 'POST', 'PUT', 'DELETE'] }),
    path: string('VAL033', { pattern: '^/' }),
    description: string('VAL034', { minLength: 1 }),
    parameters: coded('VAL035', { type: 'array', items: parameter }),
    output,
    preload,
    tests: coded('TST001', { type: 'array', minItems: 1, items: routeTest }),
    async: {},
    meta: toolMeta,
    // 4.x: a JSON Schema the reference derives from `output`; flowguard derives its own.
    outputSchema: coded('VAL039', { type: 'object' }),
  },
  ['method', 'path', 'description', 'parameters', 'tests'],
);

/** `routes` (2.x, and 3.x as an alias) and `tools` (3.x, 4.x): at most 8 (version.ts says which key and whether it may be empty). */
const toolMap = coded('VAL016', {
  allOf: [coded('VAL016', { type: 'object', additionalProperties: route }), coded('VAL031', { maxProperties: 8 })],
});

const listRef = object(
  'VAL024',
  {
    ref: string('VAL070'),
    version: string('VAL071'),
    filter: coded('VAL074', { type: 'object' }),
  },
  ['ref', 'version'],
);

export const MAIN_SHAPE = object(
  'VAL002',
  {
    namespace: string('VAL010'),
    name: coded('VAL012', {
      allOf: [
        string('VAL012', { minLength: 1 }),
        convention('^[A-Z][a-zA-Z0-9]*$', "PascalCase, e.g. name: 'OpenMeteo'"),
      ],
    }),
    description: string('VAL013', { minLength: 1 }),
    version: string('VAL014'),
    root: string('VAL015'),
    routes: toolMap,
    tools: toolMap,
    docs: stringArray('VAL020'),
    tags: coded('VAL021', {
      type: 'array',
      items: {
        allOf: [
          string('VAL021'),
          convention(
            '^(?:[a-z][a-z0-9-]*|cacheTtl[A-Z][A-Za-z]*)$',
            "lowercase letters, digits and -, e.g. 'air-quality', or a cache tag such as 'cacheTtlDaily'",
          ),
        ],
      },
    }),
    requiredServerParams: coded('VAL022', {
      type: 'array',
      uniqueItems: true,
      items: {
        allOf: [
          string('VAL022', { minLength: 1 }),
          convention('^[A-Z][A-Z0-9_]*$', "UPPER_SNAKE_CASE, e.g. 'EXAMPLE_API_KEY'"),
        ],
      },
    }),
    requiredLibraries: stringArray('VAL025'),
    headers: coded('VAL023', { type: 'object', additionalProperties: string('VAL023') }),
    sharedLists: coded('VAL024', { type: 'array', items: listRef }),
    // 4.x: the tool meta every tool without its own `meta` takes.
    meta: toolMeta,
    // 3.x and 4.x primitives flowguard does not serve; reported as such (VAL028), never checked.
    resources: {},
    skills: {},
    prompts: {},
    // 4.x informational fields: kept and shown, never used to serve.
    termsOfService: textOrNull,
    termsOfServiceCheckedAt: textOrNull,
    termsOfServiceLanguage: textOrNull,
    dataLicense: textOrNull,
    dataLicenseName: textOrNull,
    schemaVersion: text({ pattern: '^\\d+\\.\\d+\\.\\d+$' }),
    schemaHash: text(),
  },
  ['namespace', 'name', 'description', 'version'],
);
