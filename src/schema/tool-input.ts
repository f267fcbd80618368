// A route's user parameters as a tool's input: one JSON Schema 2020-12 object (the MCP
// `inputSchema`, sent exactly as built here) and an Ajv validator for it. The schema is built at
// load; compiling it costs about 2 ms with Ajv, so validators are compiled on first use or by a
// background warm-up (`warmUp`), never for every call. Once it is compiled, arguments are judged
// by a check prepared from the same schema (prepared-check.ts), which answers "valid" only where
// Ajv does; Ajv judges and words the rest.

import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { newAjv, once } from '../shared/deps.js';
import { isRecord } from '../shared/raw.js';
import { prepareCheck, type PreparedCheck } from './prepared-check.js';
import { numericText } from './z-values.js';
import type { CanonicalParam, ParamType } from './types.js';
import { failed, ok, type Result } from '../errors/result.js';

export type JsonSchema = Record<string, unknown>;

export interface ArgumentProblem {
  /** The parameter (argument name) the problem is about, when there is one. */
  parameter?: string;
  message: string;
}

// Union types carry R6's numeric enums (`enum(1,5,137)` accepts "5" and 5).
const ajv = once(() => newAjv({ allErrors: true, useDefaults: true, strict: true, allowUnionTypes: true }));

export class InputSchema {
  private validator: ValidateFunction | null = null;
  /** Prepared with the validator; null when the schema holds what only Ajv judges. */
  private prepared: PreparedCheck | null = null;

  constructor(readonly schema: JsonSchema) {}

  static fromParameters(params: readonly CanonicalParam[]): InputSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const param of params) {
      if (param.source.kind !== 'user') continue;
      const property = propertyFor(param.type);
      if (param.description !== undefined) property.description = param.description;
      if (param.default !== undefined) property.default = param.default;
      properties[param.key] = property;
      if (!param.optional && param.default === undefined) required.push(param.key);
    }
    const schema: JsonSchema = { type: 'object', properties, additionalProperties: false };
    if (required.length > 0) schema.required = required;
    return new InputSchema(schema);
  }

  /** Validates a copy of `args` and fills in defaults; the problems name each argument and rule. */
  check(args: unknown): Result<Record<string, unknown>, ArgumentProblem[]> {
    // Defaults are set on top-level properties only, so a shallow copy keeps the caller's object intact.
    const copy = args === undefined ? {} : isRecord(args) ? copyWithRoom(args) : null;
    const validator = this.validator ?? this.compile();
    if (copy !== null && this.prepared?.(copy) === true) return ok(copy);
    // Ajv writes the same defaults again (none is undefined now) and words what the prepared check refused.
    const data = copy ?? args;
    if (validator(data)) return ok(data as Record<string, unknown>);
    return failed((validator.errors ?? []).map(describe));
  }

  /** Compiles the validator now, so the first call does not pay for it. */
  warmUp(): void {
    if (this.validator === null) this.compile();
  }

  /** Ajv first: a schema it refuses fails every call as before, prepared check or not. */
  private compile(): ValidateFunction {
    const validator = ajv().compile(this.schema);
    this.prepared = prepareCheck(this.schema);
    this.validator = validator;
    return validator;
  }
}

/**
 * `args`' own enumerable properties in their order, in a fresh object made by a literal. A spread
 * copy is sized for the arguments alone, so a default written after them (as Ajv writes it, last)
 * landed outside the object's own slots, and every later read of the arguments paid for that: a
 * spread copy with its default added measured about 15 µs more per call in the plain-call
 * benchmark's window than a literal holding the same keys (docs/internals/performance.md).
 */
function copyWithRoom(args: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(args)) {
    // A `__proto__` argument stays an argument, as a spread copies it, never a prototype.
    if (key === '__proto__')
      Object.defineProperty(copy, key, { value: args[key], enumerable: true, writable: true, configurable: true });
    else copy[key] = args[key];
  }
  return copy;
}

function propertyFor(type: ParamType): JsonSchema {
  switch (type.kind) {
    case 'string':
      return pick({ type: 'string', minLength: type.minLength, maxLength: type.maxLength, pattern: type.pattern });
    case 'number':
      return pick({ type: 'number', minimum: type.minimum, maximum: type.maximum });
    case 'boolean':
      return { type: 'boolean' };
    case 'enum':
      return enumProperty(type.values, type.listsResolved);
    case 'array':
      return pick({ type: 'array', minItems: type.minItems, maxItems: type.maxItems });
    case 'object':
      return { type: 'object' };
  }
}

/** R6: the values as strings; where every value is numeric, the numbers are accepted too. */
function enumProperty(values: readonly string[], resolved: boolean): JsonSchema {
  // An enum whose list values could not be resolved cannot be checked here; the schema that
  // holds it has an error finding and is not served.
  if (!resolved) return { type: 'string' };
  const unique = [...new Set(values)];
  // The same reading of numeric text as the z checks use, so schema and checks agree.
  const numbers = unique.map(numericText);
  if (unique.length === 0 || numbers.some((n) => n === null)) return { type: 'string', enum: unique };
  return { type: ['string', 'number'], enum: [...unique, ...new Set(numbers)] };
}

function pick(schema: Record<string, unknown>): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([, value]) => value !== undefined));
}

function describe(error: ErrorObject): ArgumentProblem {
  const parameter = error.instancePath.split('/')[1];
  switch (error.keyword) {
    case 'required': {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      return { parameter: missing, message: `missing required argument '${missing}'` };
    }
    case 'additionalProperties': {
      const extra = (error.params as { additionalProperty: string }).additionalProperty;
      return { parameter: extra, message: `unknown argument '${extra}'` };
    }
    case 'enum': {
      // A numeric enum allows "5" and 5: name each value once.
      const allowed = [...new Set((error.params as { allowedValues: unknown[] }).allowedValues.map(String))];
      return { parameter, message: `'${parameter}' must be one of ${allowed.join(', ')}` };
    }
    default:
      return parameter === undefined
        ? { message: `arguments ${error.message ?? 'are invalid'}` }
        : { parameter, message: `'${parameter}' ${error.message ?? 'is invalid'}` };
  }
}
