// The shape of `main`, checked by one JSON Schema 2020-12 document compiled once by Ajv.
// Each subschema carries the finding code its failures map to (`x-code`), so an Ajv error
// turns into a finding without any per-keyword guesswork. Semantic rules live elsewhere and
// only look at values whose shape passed.

import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { newAjv, once } from '../deps.js';
import { childPath, type Code, type FindingSink } from '../findings.js';

type Json = Record<string, unknown>;

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

/**
 * Compiled on the first check, not at import: a server whose checks all come from its cache never
 * needs it. strictTypes is off because the pattern branches of allOf apply to strings only by design.
 */
const mainValidator = once((): ValidateFunction => {
  const ajv = newAjv({ allErrors: true, verbose: true, strict: true, strictTypes: false });
  ajv.addKeyword({ keyword: 'x-code', schemaType: 'string' });
  return ajv.compile(MAIN_SHAPE);
});

const HINTS: Partial<Record<Code, string>> = {
  VAL003: 'remove the field or fix its spelling',
  VAL011: 'use lowercase ASCII letters only, e.g. "coingecko"',
  VAL014: "the major version of a FlowMCP 2 schema is 2, e.g. '2.0.0'",
  VAL031: 'split the schema into two files',
  VAL032: 'use GET, POST, PUT or DELETE',
  VAL043: 'use insert, query or body; headers go into main.headers',
};

/** Checks the shape of `main`; every problem becomes one finding with its code and path. */
export function checkShape(main: unknown, sink: FindingSink): boolean {
  const validateMain = mainValidator();
  if (validateMain(main)) return true;
  for (const error of validateMain.errors ?? []) {
    // An allOf wrapper repeats what its failing branch already said.
    if (error.keyword === 'allOf') continue;
    const { code, path, message } = describeError(error, main);
    sink.add(code, path, message, HINTS[code]);
  }
  return false;
}

function describeError(error: ErrorObject, main: unknown): { code: Code; path: string; message: string } {
  const path = pointerToPath(error.instancePath, main);
  const parent = (error.parentSchema ?? {}) as Json;
  const parentCode = (parent['x-code'] as Code | undefined) ?? 'VAL002';
  const field = path.slice(path.lastIndexOf('.') + 1);
  switch (error.keyword) {
    case 'required': {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      const properties = (parent.properties ?? {}) as Record<string, Json>;
      const code = (properties[missing]?.['x-code'] as Code | undefined) ?? parentCode;
      return { code, path: childPath(path, missing), message: `\`${missing}\` is required` };
    }
    case 'additionalProperties': {
      const extra = (error.params as { additionalProperty: string }).additionalProperty;
      return { code: 'VAL003', path: childPath(path, extra), message: `unknown field \`${extra}\`` };
    }
    case 'enum':
      return { code: parentCode, path, message: `\`${field}\` must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')}` };
    default:
      return { code: parentCode, path, message: `\`${field}\` ${error.message ?? 'is invalid'}` };
  }
}

/** `/routes/get.price/parameters/0` → `main.routes["get.price"].parameters[0]`, walking the data to tell arrays apart. */
function pointerToPath(pointer: string, data: unknown): string {
  let path = 'main';
  let current: unknown = data;
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) {
      const index = Number(segment);
      path = childPath(path, index);
      current = current[index];
    } else {
      path = childPath(path, segment);
      current = current !== null && typeof current === 'object' ? (current as Json)[segment] : undefined;
    }
  }
  return path;
}
