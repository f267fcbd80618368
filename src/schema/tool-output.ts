// A route's `output` as an MCP `outputSchema`: a plain JSON Schema 2020-12 object schema, or
// nothing. FlowMCP output schemas are an OpenAPI-flavoured subset (`nullable`, formats such as
// `base64`), so they are converted, not passed on:
//
// - only `application/json` outputs whose root is `type: 'object'` (and not nullable) qualify:
//   MCP requires an object root, and `structuredContent` is always an object;
// - `nullable: true` becomes a type union with `null` (and `null` joins an `enum`);
// - `format` is kept only for `date-time` and `uri`, the formats every validator knows;
// - `description: ''` is dropped; every other keyword is copied as it is; a root without a
//   description takes the output's own (4.x `output.description`);
// - a node whose `enum` holds a value its own `type` rejects could never match: no schema.
// The result is valid 2020-12 by construction; the tests compile every one with Ajv's strict
// 2020 class.
//
// A result is validated against the converted schema (Ajv's 2020 class, compiled on first
// use) before it is sent as `structuredContent`.

import type { ValidateFunction } from 'ajv/dist/2020.js';
import { newAjv, once } from '../shared/deps.js';
import { isRecord } from '../shared/raw.js';
import type { OutputSpec } from './types.js';
import type { JsonSchema } from './tool-input.js';

const KEPT_FORMATS: ReadonlySet<unknown> = new Set(['date-time', 'uri']);
const NODE_TYPES: ReadonlySet<unknown> = new Set(['string', 'number', 'boolean', 'object', 'array']);

/**
 * The JSON Schema an answer of a JSON route must match, for any root (an array too, or a
 * nullable one): what `flowguard test` checks answers with. Undefined where none can be made.
 */
export function answerSchema(output: OutputSpec | undefined): JsonSchema | undefined {
  return output?.mimeType === 'application/json' ? convertNode(output.schema) : undefined;
}

/** The MCP `outputSchema` for a route's output, or undefined where none can be advertised. */
export function toOutputSchema(output: OutputSpec | undefined): JsonSchema | undefined {
  if (!output || output.mimeType !== 'application/json') return undefined;
  const root = output.schema;
  if (root.type !== 'object' || root.nullable === true) return undefined;
  // Valid 2020-12 by construction (known types, non-empty enums of the node's type, two known
  // formats); checking each against the meta-schema would cost more than the whole conversion.
  const schema = convertNode(root);
  // 4.x `output.description` says what the tool returns; the root's own description comes first.
  if (schema && output.description && schema.description === undefined) schema.description = output.description;
  return schema;
}

/**
 * At least the characters `toOutputSchema(output)` adds to a definition's JSON (`,"outputSchema":`
 * and the schema), measured on the output as checked: the conversion copies keywords or drops
 * them, turns `"nullable":true` (16 characters with its comma) into a type union and a null
 * enum value (14 at most), and may give the root the output's description. Sizing a definition
 * with it (VAL100) spares converting every output at load; only one near the bound is converted.
 */
export function outputSchemaCharsBound(output: OutputSpec | undefined): number {
  if (!output || output.mimeType !== 'application/json') return 0;
  const rootDescription = output.description ? ',"description":'.length + JSON.stringify(output.description).length : 0;
  return ',"outputSchema":'.length + JSON.stringify(output.schema).length + rootDescription;
}

function convertNode(node: unknown): JsonSchema | undefined {
  if (!isRecord(node) || !NODE_TYPES.has(node.type)) return undefined;
  const type = node.type as string;
  const nullable = node.nullable === true;
  const out: JsonSchema = { type: nullable ? [type, 'null'] : type };
  if (typeof node.description === 'string' && node.description !== '') out.description = node.description;
  if (node.enum !== undefined) {
    if (!Array.isArray(node.enum) || node.enum.length === 0) return undefined;
    if (!node.enum.every((value) => fitsType(value, type))) return undefined;
    out.enum = nullable && !node.enum.includes(null) ? [...node.enum, null] : [...node.enum];
  }
  if (KEPT_FORMATS.has(node.format) && type === 'string') out.format = node.format;
  if (node.properties !== undefined) {
    if (!isRecord(node.properties) || type !== 'object') return undefined;
    const properties: Record<string, JsonSchema> = {};
    for (const [key, child] of Object.entries(node.properties)) {
      const converted = convertNode(child);
      if (!converted) return undefined;
      // defineProperty: a property named __proto__ stays a plain key.
      Object.defineProperty(properties, key, {
        value: converted,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    out.properties = properties;
  }
  if (node.items !== undefined) {
    if (type !== 'array') return undefined;
    const items = convertNode(node.items);
    if (!items) return undefined;
    out.items = items;
  }
  return out;
}

function fitsType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    default:
      return isRecord(value);
  }
}

// Strict, so a schema this module builds wrongly fails loudly; union types carry `nullable`. The
// two kept formats are checked here, without a formats package. Made on first use.
const outputAjv = once(() => {
  const ajv = newAjv({ strict: true, allowUnionTypes: true, allErrors: false, validateFormats: true });
  ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
  ajv.addFormat('uri', { type: 'string', validate: isUri });
  return ajv;
});

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Whether `text` fits an output schema's `format`: the two checked formats are checked, any other (base64) is not. */
export function fitsFormat(format: unknown, text: string): boolean {
  if (format === 'date-time') return isDateTime(text);
  if (format === 'uri') return isUri(text);
  return true;
}

/** RFC 3339 `date-time`: a full date, a full time and an offset. */
function isDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const days = [
    31,
    year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28,
    31,
    30,
    31,
    30,
    31,
    31,
    30,
    31,
    30,
    31,
  ];
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= (days[month - 1] as number) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 60
  );
}

/** RFC 3986 absolute URI: a scheme, then something a URL parser accepts. */
function isUri(text: string): boolean {
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s]*$/.test(text)) return false;
  return URL.canParse(text);
}

/** Checks results against one output schema; the validator is compiled on first use. */
export class OutputValidator {
  private validator: ValidateFunction | null = null;

  constructor(readonly schema: JsonSchema) {}

  /** Undefined when `value` matches, else the first problem (`/path message`). */
  problem(value: unknown): string | undefined {
    const mismatch = this.mismatch(value);
    return mismatch && `${mismatch.path} ${mismatch.message}`;
  }

  /** Undefined when `value` matches, else where the first problem is (a JSON pointer, `(root)` for the whole) and what it is. */
  mismatch(value: unknown): { path: string; message: string } | undefined {
    this.validator ??= outputAjv().compile(this.schema);
    if (this.validator(value)) return undefined;
    const error = this.validator.errors?.[0];
    return {
      path: error?.instancePath || '(root)',
      message: error ? (error.message ?? 'is invalid') : 'does not match',
    };
  }
}
