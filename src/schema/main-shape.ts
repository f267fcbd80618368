// The shape of `main` as one JSON Schema 2020-12 document. Each subschema carries the finding
// code its failures map to (`x-code`), so an Ajv error turns into a finding without any
// per-keyword guesswork (shape.ts). Checks run the validator generated from it
// (main-shape.generated.ts, by `npm run generate`), so no check loads or compiles Ajv.

import type { Code } from '../findings.js';

export type Json = Record<string, unknown>;

const coded = (code: Code, schema: Json): Json => ({ ...schema, 'x-code': code });
const string = (code: Code, extra: Json = {}): Json => coded(code, { type: 'string', ...extra });
const stringArray = (code: Code, itemExtra: Json = {}): Json => coded(code, { type: 'array', items: string(code, itemExtra) });
/** A closed object: unknown fields are VAL003. */
const object = (code: Code, properties: Record<string, Json>, required: string[]): Json =>
  coded(code, { type: 'object', properties, required, additionalProperties: false });

const position = object('VAL040', {
  key: string('VAL041', { minLength: 1 }),
  value: string('VAL042'),
  location: coded('VAL043', { enum: ['insert', 'query', 'body'] }),
}, ['key', 'value', 'location']);

const z = object('VAL040', {
  primitive: string('VAL044'),
  options: stringArray('VAL045'),
}, ['primitive', 'options']);

const parameter = object('VAL040', { position, z }, ['position', 'z']);

const output = object('VAL061', {
  mimeType: string('VAL060'),
  schema: coded('VAL061', { type: 'object' }),
}, ['mimeType', 'schema']);

const preload = object('VAL080', {
  enabled: coded('VAL081', { type: 'boolean' }),
  ttl: coded('VAL082', { type: 'integer', minimum: 1 }),
  description: string('VAL083'),
}, ['enabled', 'ttl']);

const routeTest = coded('TST002', {
  type: 'object',
  properties: { _description: string('TST002') },
  required: ['_description'],
});

const route = object('VAL016', {
  method: coded('VAL032', { enum: ['GET', 'POST', 'PUT', 'DELETE'] }),
  path: string('VAL033', { pattern: '^/' }),
  description: string('VAL034', { minLength: 1 }),
  parameters: coded('VAL035', { type: 'array', items: parameter }),
  output,
  preload,
  tests: coded('TST001', { type: 'array', minItems: 1, items: routeTest }),
  async: {},
}, ['method', 'path', 'description', 'parameters', 'tests']);

const listRef = object('VAL024', {
  ref: string('VAL070'),
  version: string('VAL071'),
  filter: coded('VAL074', { type: 'object' }),
}, ['ref', 'version']);

export const MAIN_SHAPE = object('VAL002', {
  namespace: coded('VAL010', { allOf: [string('VAL010'), coded('VAL011', { pattern: '^[a-z]+$' })] }),
  name: coded('VAL012', { allOf: [string('VAL012', { minLength: 1 }), coded('VAL019', { pattern: '^[A-Z][a-zA-Z0-9]*$' })] }),
  description: string('VAL013', { minLength: 1 }),
  version: string('VAL014', { pattern: '^2\\.\\d+\\.\\d+$' }),
  root: string('VAL015'),
  routes: coded('VAL016', {
    allOf: [coded('VAL016', { type: 'object', minProperties: 1, additionalProperties: route }), coded('VAL031', { maxProperties: 8 })],
  }),
  docs: stringArray('VAL020'),
  tags: coded('VAL021', { type: 'array', items: { allOf: [string('VAL021'), coded('VAL019', { pattern: '^[a-z][a-z0-9-]*$' })] } }),
  requiredServerParams: coded('VAL022', {
    type: 'array',
    uniqueItems: true,
    items: { allOf: [string('VAL022', { minLength: 1 }), coded('VAL019', { pattern: '^[A-Z][A-Z0-9_]*$' })] },
  }),
  requiredLibraries: stringArray('VAL025'),
  headers: coded('VAL023', { type: 'object', additionalProperties: string('VAL023') }),
  sharedLists: coded('VAL024', { type: 'array', items: listRef }),
}, ['namespace', 'name', 'description', 'version', 'root', 'routes']);
