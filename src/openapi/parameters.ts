// An operation's parameters and JSON request body as FlowMCP parameters: path parameters become
// `insert` (their placeholder renamed to a camelCase key), query parameters `query` and the
// properties of a JSON object body `body`, each under the name the API expects on the wire. Each
// also yields a test value: the document's example, else for a required parameter its default or
// first enum value, else an invented value (reported, so the author replaces it).

import { isRecord, type RawObject } from '../shared/raw.js';
import { JSON_MEDIA_TYPE, swaggerMediaTypes, type OpenApiDocument, type Operation } from './document.js';
import { cutDescription, exampleOf, flattenAllOf, typeOf } from './json-schema.js';
import { camelCase, unique } from './names.js';
import type { KeyPlacement } from './security.js';
import type { ImportFinding } from './types.js';
import { zBlockOf, type ZConversion } from './z-block.js';

export interface FlowParameter {
  position: { key: string; value: string; location: 'insert' | 'query' | 'body' };
  z: { primitive: string; options: string[] };
  /** Shown to the AI client in the tool's input schema. */
  description?: string;
}

export interface ConvertedParameters {
  parameters: FlowParameter[];
  /** `{name}` of the document's path -> the insert key written for it. */
  pathKeys: Map<string, string>;
  test: Record<string, unknown>;
}

type Report = (severity: ImportFinding['severity'], kind: ImportFinding['kind'], message: string) => void;

export function convertParameters(
  document: OpenApiDocument,
  op: Operation,
  keys: readonly KeyPlacement[],
  report: Report,
): ConvertedParameters {
  const parameters: FlowParameter[] = [];
  const pathKeys = new Map<string, string>();
  const test: Record<string, unknown> = {};
  const taken = new Set<string>();
  const pathParams: Array<{
    name: string;
    conversion: ZConversion;
    example: { value: unknown } | undefined;
    about: unknown;
  }> = [];
  const keyNames = new Set(keys.map((key) => `${key.where}:${key.name.toLowerCase()}`));

  const add: Add = (key, location, conversion, example, required, about) => {
    if (taken.has(key)) {
      report('error', 'parameter', `two parameters are named '${key}'; a FlowMCP route takes each name once`);
      return;
    }
    taken.add(key);
    const description = cutDescription(about, 200);
    parameters.push({
      position: { key, value: '{{USER_PARAM}}', location },
      z: conversion.z,
      ...(description ? { description } : {}),
    });
    const value = testValue(conversion, example, required, key, report);
    if (value !== undefined) test[key] = value;
  };

  for (const param of mergedParameters(op)) {
    const name = String(param.name ?? '');
    const where = String(param.in);
    const required = param.required === true || where === 'path';
    const schema = parameterSchema(param, document.isSwagger2);
    const conversion = zBlockOf(schema, required);
    for (const what of conversion.dropped)
      report('warning', 'parameter', `parameter '${name}': ${what} is not expressible and was left out`);
    if (where === 'path') {
      pathParams.push({
        name,
        conversion,
        example: parameterExample(param, schema),
        about: param.description ?? schema.description,
      });
    } else if (where === 'query') {
      if (keyNames.has(`query:${name.toLowerCase()}`)) continue;
      if (conversion.kind === 'object') {
        report(
          required ? 'error' : 'warning',
          'parameter',
          `query parameter '${name}' is an object (style ${String(param.style ?? 'form')}); FlowMCP sends no object query values${required ? '' : ', so it was left out'}`,
        );
        continue;
      }
      if (conversion.kind === 'array' && !commaJoined(param, document.isSwagger2)) {
        report(
          'warning',
          'parameter',
          `query parameter '${name}' is an array the document sends otherwise (repeated keys or another separator); FlowMCP sends one comma-joined value`,
        );
      }
      add(
        name,
        'query',
        conversion,
        parameterExample(param, schema),
        required,
        param.description ?? schema.description,
      );
    } else if (where === 'header' || where === 'cookie') {
      if (keyNames.has(`header:${name.toLowerCase()}`)) continue;
      report(
        required ? 'error' : 'warning',
        'parameter',
        `${where} parameter '${name}' cannot be sent by a FlowMCP route (headers are fixed per file, cookies unsupported)${required ? '' : ', so it was left out'}`,
      );
    } else if (where === 'body') {
      const consumes = swaggerMediaTypes(document, op.operation, 'consumes');
      if (consumes.some((type) => /json/i.test(type))) bodyProperties(schema, param.required === true, op, report, add);
      else
        report(
          param.required === true ? 'error' : 'warning',
          'body',
          `the request body is ${consumes.join(', ')}; FlowMCP sends JSON bodies only${param.required === true ? '' : ', so it was left out'}`,
        );
    } else if (where === 'formData') {
      report(
        required ? 'error' : 'warning',
        'body',
        `form parameter '${name}': FlowMCP sends JSON bodies only${required ? '' : ', so it was left out'}`,
      );
    }
  }
  if (!document.isSwagger2 && isRecord(op.operation.requestBody))
    requestBody(op.operation.requestBody, op, report, add);
  // Path parameters last: their keys are free to choose, the others' are the API's wire names.
  for (const { name, conversion, example, about } of pathParams) {
    const key = unique(camelCase(name), new Set(taken));
    pathKeys.set(name, key);
    add(key, 'insert', conversion, example, true, about);
  }
  return { parameters, pathKeys, test };
}

/** Whether the document sends an array query value as FlowMCP does: one value, items joined by commas. */
function commaJoined(param: RawObject, isSwagger2: boolean): boolean {
  if (isSwagger2) return param.collectionFormat === undefined || param.collectionFormat === 'csv';
  return (param.style === undefined || param.style === 'form') && param.explode === false;
}

/** Path-level parameters, overridden by the operation's own of the same name and place. */
function mergedParameters({ operation, pathItem }: Operation): RawObject[] {
  const byPlace = new Map<string, RawObject>();
  for (const list of [pathItem.parameters, operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const param of list) if (isRecord(param)) byPlace.set(`${String(param.in)}:${String(param.name)}`, param);
  }
  return [...byPlace.values()];
}

/** OpenAPI 3 keeps the type in `schema` (or a `content` entry); Swagger 2.0 on the parameter itself. */
function parameterSchema(param: RawObject, isSwagger2: boolean): RawObject {
  if (isSwagger2) return param.in === 'body' && isRecord(param.schema) ? param.schema : param;
  if (isRecord(param.schema)) return param.schema;
  const media = isRecord(param.content) ? Object.values(param.content).find(isRecord) : undefined;
  return media && isRecord(media.schema) ? media.schema : {};
}

/** The parameter's `example`, else the first of OpenAPI 3's named `examples`, else what `exampleOf` finds on it or its schema. */
function parameterExample(param: RawObject, schema: RawObject): { value: unknown } | undefined {
  const named = param.example === undefined && isRecord(param.examples) ? firstExampleValue(param.examples) : undefined;
  return named === undefined ? (exampleOf(param) ?? exampleOf(schema)) : { value: named };
}

type Add = (
  key: string,
  location: FlowParameter['position']['location'],
  conversion: ZConversion,
  example: { value: unknown } | undefined,
  required: boolean,
  about: unknown,
) => void;

function requestBody(body: RawObject, op: Operation, report: Report, add: Add): void {
  const content = isRecord(body.content) ? body.content : {};
  const jsonType = Object.keys(content).find((type) => JSON_MEDIA_TYPE.test(type) || type === '*/*');
  const required = body.required === true;
  if (!jsonType) {
    const types = Object.keys(content).join(', ') || 'no content type';
    report(
      required ? 'error' : 'warning',
      'body',
      `the request body is ${types}; FlowMCP sends JSON bodies only${required ? '' : ', so it was left out'}`,
    );
    return;
  }
  const media = content[jsonType];
  const schema = isRecord(media) && isRecord(media.schema) ? media.schema : {};
  const example = isRecord(media)
    ? (media.example ?? (isRecord(media.examples) ? firstExampleValue(media.examples) : undefined))
    : undefined;
  bodyProperties(schema, required, op, report, add, isRecord(example) ? example : undefined);
}

function firstExampleValue(examples: RawObject): unknown {
  const first = Object.values(examples).find(isRecord);
  return first?.value;
}

/** The top-level properties of a JSON object body, each a `body` parameter. */
function bodyProperties(
  raw: RawObject,
  required: boolean,
  op: Operation,
  report: Report,
  add: Add,
  bodyExample?: RawObject,
): void {
  const schema = flattenAllOf(raw);
  const properties = isRecord(schema.properties) ? schema.properties : undefined;
  if (op.method !== 'POST' && op.method !== 'PUT') {
    report(
      required ? 'error' : 'warning',
      'body',
      `a ${op.method} request with a body; FlowMCP sends bodies with POST and PUT only${required ? '' : ', so it was left out'}`,
    );
    return;
  }
  if (typeOf(schema).type !== 'object' || !properties) {
    const what = typeOf(schema).type ?? 'untyped';
    report(
      required ? 'error' : 'warning',
      'body',
      `the JSON body is ${what === 'object' ? 'an object without declared properties' : `${what}`}; FlowMCP bodies are objects of named properties${required ? '' : ', so it was left out'}`,
    );
    return;
  }
  const requiredNames = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  for (const [name, property] of Object.entries(properties)) {
    if (!isRecord(property) || property.readOnly === true) continue;
    const propertyRequired = required && requiredNames.has(name);
    const conversion = zBlockOf(property, propertyRequired);
    for (const what of conversion.dropped)
      report('warning', 'parameter', `body property '${name}': ${what} is not expressible and was left out`);
    const example = bodyExample && bodyExample[name] !== undefined ? { value: bodyExample[name] } : exampleOf(property);
    add(name, 'body', conversion, example, propertyRequired, property.description);
  }
}

/** The value a route test passes: the example when it fits the parameter, else for a required one a default, enum value or invented value. */
function testValue(
  conversion: ZConversion,
  example: { value: unknown } | undefined,
  required: boolean,
  key: string,
  report: Report,
): unknown {
  const fitted = example === undefined ? undefined : fit(conversion, example.value);
  if (fitted !== undefined || !required) return fitted;
  const fallback = defaultValue(conversion) ?? conversion.values?.[0];
  if (fallback !== undefined) return fallback;
  const invented = invent(conversion);
  report(
    'info',
    'note',
    `no example for required parameter '${key}'; the test uses ${JSON.stringify(invented)}: replace it with a real value`,
  );
  return invented;
}

function fit(conversion: ZConversion, value: unknown): unknown {
  switch (conversion.kind) {
    case 'number':
      return typeof value === 'number'
        ? value
        : typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))
          ? Number(value)
          : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : value === 'true' ? true : value === 'false' ? false : undefined;
    case 'enum':
      return conversion.values?.find((item) => String(item) === String(value));
    case 'array':
      return Array.isArray(value) ? value : undefined;
    case 'object':
      return isRecord(value) ? value : undefined;
    case 'string':
      return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
  }
}

function defaultValue(conversion: ZConversion): unknown {
  const option = conversion.z.options.find((text) => text.startsWith('default('));
  return option === undefined ? undefined : fit(conversion, JSON.parse(option.slice('default('.length, -1)));
}

function invent(conversion: ZConversion): unknown {
  const bound = (name: string) => {
    const option = conversion.z.options.find((text) => text.startsWith(`${name}(`));
    return option === undefined ? undefined : Number(option.slice(name.length + 1, -1));
  };
  switch (conversion.kind) {
    case 'number':
      return bound('min') ?? Math.min(1, bound('max') ?? 1);
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default: {
      const min = bound('min') ?? 0;
      const max = bound('max') ?? Infinity;
      const pattern = conversion.z.options.find((text) => text.startsWith('regex('))?.slice('regex('.length, -1);
      const fits = (text: string) =>
        text.length >= min && text.length <= max && (pattern === undefined || new RegExp(pattern, 'u').test(text));
      const sized = 'example'.padEnd(min, 'x').slice(0, max);
      return [sized, ...SAMPLE_TEXTS].find(fits) ?? sized;
    }
  }
}

/** Texts tried, in order, for a required string with a pattern and no example: common shapes of identifiers. */
const SAMPLE_TEXTS = [
  '1',
  'stable',
  'v1',
  '1.0',
  'en',
  'example.json',
  '2024-01-01',
  '2024-01-01T00:00:00Z',
  'user@example.com',
  'https://example.com',
  '0'.repeat(24),
  'a1b2c3',
];

export function describe(operation: RawObject, label: string): string {
  const summary = cutDescription(operation.summary, 300);
  const description = cutDescription(operation.description, 300);
  const joined =
    summary && description && !description.startsWith(summary)
      ? `${summary.replace(/\.?$/, '.')} ${description}`
      : summary || description;
  return cutDescription(joined, 300) || label;
}
