// Semantic checks of a route's `output` and its canonical form. Ajv has already checked the
// shape (an object of exactly `mimeType: string` and `schema: object`); where that shape is
// wrong this module stays silent, so nothing is reported twice.

import { parentPath, pathText, type FindingSink, type PathRef } from '../report/findings.js';
import { CODES, type Code } from '../report/codes.js';
import { isRecord } from '../shared/raw.js';
import type { OutputSpec } from './types.js';

type MimeType = OutputSpec['mimeType'];
type SchemaNode = Record<string, unknown>;

/** What each mime type needs at the schema root (SPEC-NOTES §8). */
const MIME_TYPES: Record<MimeType, { fits: (type: unknown, format: unknown) => boolean; needs: string }> = {
  'application/json': { fits: (type) => type === 'object' || type === 'array', needs: 'type object or array' },
  'image/png': {
    fits: (type, format) => type === 'string' && format === 'base64',
    needs: "type string with format 'base64'",
  },
  'text/plain': { fits: (type) => type === 'string', needs: 'type string' },
  // Outside the spec's three, used by the public catalogs (SPEC-NOTES §8); the answer is text or base64.
  'text/markdown': { fits: (type) => type === 'string', needs: 'type string' },
  'application/rss+xml': { fits: (type) => type === 'string', needs: 'type string' },
  'application/octet-stream': { fits: (type) => type === 'string', needs: 'type string' },
};
const MIME_LIST = Object.keys(MIME_TYPES).join(', ');

const NODE_TYPES: ReadonlySet<unknown> = new Set(['string', 'number', 'boolean', 'object', 'array']);
const FORMATS: ReadonlySet<unknown> = new Set(['base64', 'date-time', 'uri']);

/**
 * The keywords checked on their own value, in the order the canonical node lists them;
 * `properties` and `items` hold sub-schemas and are walked instead.
 */
const VALUE_KEYWORDS: ReadonlyArray<[keyword: string, valid: (value: unknown) => boolean, expected: string]> = [
  ['type', (v) => NODE_TYPES.has(v), 'one of string, number, boolean, object, array'],
  ['description', (v) => typeof v === 'string', 'a string'],
  ['nullable', (v) => typeof v === 'boolean', 'true or false'],
  ['enum', Array.isArray, 'an array of values'],
  ['format', (v) => FORMATS.has(v), 'one of base64, date-time, uri'],
];
const KEYWORDS: ReadonlySet<string> = new Set([...VALUE_KEYWORDS.map(([keyword]) => keyword), 'properties', 'items']);
const KEYWORD_HINT = `the output schema allows only ${[...KEYWORDS].join(', ')}`;

/** The deepest level of an output schema: the root is level 1 and `properties` children and `items` each add one (R10). */
export const MAX_OUTPUT_DEPTH = 4;
const TOO_DEEP = MAX_OUTPUT_DEPTH + 1;

/** One walk over one route's output schema. */
interface Walk {
  sink: FindingSink;
  /** An error-severity finding was raised: the output has no canonical form. */
  failed: boolean;
  /** VAL063 is said once per route. */
  depthReported: boolean;
}

/**
 * Checks `route.output` and returns its canonical form, or undefined when it is absent or has
 * an error. `path` is the output's own path (`main.routes.getPrice.output`); a missing output
 * is reported (VAL036) at the route, i.e. `path` without its last step.
 */
export function checkOutput(raw: unknown, path: string, sink: FindingSink): OutputSpec | undefined {
  if (raw === undefined) {
    sink.add(
      'VAL036',
      parentPath(path, 'output'),
      'route has no `output`',
      'describe the returned data with output: { mimeType, schema }',
    );
    return undefined;
  }
  if (!isRecord(raw)) return undefined;
  const walk: Walk = { sink, failed: false, depthReported: false };
  const mimeType = checkMimeType(raw.mimeType, { parent: path, key: 'mimeType' }, walk);
  const schemaPath = { parent: path, key: 'schema' };
  const rawSchema = isRecord(raw.schema) ? raw.schema : undefined; // else Ajv: VAL061
  const schema = rawSchema && checkNode(rawSchema, schemaPath, 1, walk);
  if (mimeType && rawSchema && schema) checkFit(mimeType, rawSchema.format, schema, schemaPath, walk);
  if (!mimeType || !schema || walk.failed) return undefined;
  // A description of the wrong type was reported by the shape (VAL039); the output stands without it.
  return typeof raw.description === 'string' && raw.description !== ''
    ? { mimeType, schema, description: raw.description }
    : { mimeType, schema };
}

function report(walk: Walk, code: Code, path: PathRef, message: string, hint?: string): void {
  if (CODES[code].severity === 'error') walk.failed = true;
  walk.sink.add(code, pathText(path), message, hint);
}

function checkMimeType(value: unknown, path: PathRef, walk: Walk): MimeType | undefined {
  if (typeof value !== 'string') return undefined; // Ajv: VAL060
  if (Object.hasOwn(MIME_TYPES, value)) return value as MimeType;
  report(
    walk,
    'VAL060',
    path,
    `output mimeType '${value}' is not supported`,
    `use one of ${MIME_LIST}; other text formats are text/plain`,
  );
  return undefined;
}

/**
 * Checks one schema node and returns its canonical copy: known keywords in a fixed order, so
 * the same schema always serialises (and hashes) the same however its author ordered them.
 */
function checkNode(node: unknown, path: PathRef, level: number, walk: Walk): SchemaNode | undefined {
  if (!isRecord(node)) {
    report(walk, 'VAL061', path, 'output schema node is not an object', 'write a schema such as { type: "string" }');
    return undefined;
  }
  checkDepth(path, level, walk);
  for (const keyword of Object.keys(node)) {
    if (!KEYWORDS.has(keyword))
      report(
        walk,
        'VAL061',
        { parent: path, key: keyword },
        `'${keyword}' is not an output schema keyword`,
        KEYWORD_HINT,
      );
  }
  if (node.type === undefined)
    report(
      walk,
      'VAL061',
      path,
      'output schema node has no `type`',
      'add type: string, number, boolean, object or array',
    );

  const canonical: SchemaNode = {};
  for (const [keyword, valid, expected] of VALUE_KEYWORDS) {
    const value = node[keyword];
    if (value === undefined) continue;
    if (valid(value)) canonical[keyword] = Array.isArray(value) ? [...value] : value;
    else
      report(
        walk,
        'VAL061',
        { parent: path, key: keyword },
        `\`${keyword}\` must be ${expected}`,
        `write ${keyword} as ${expected}, or leave it out`,
      );
  }
  const properties = checkProperties(node, canonical.type, path, level, walk);
  if (properties) canonical.properties = properties;
  const items = checkItems(node, canonical.type, path, level, walk);
  if (items) canonical.items = items;
  return canonical;
}

function checkDepth(path: PathRef, level: number, walk: Walk): void {
  if (level < TOO_DEEP || walk.depthReported) return;
  walk.depthReported = true;
  report(
    walk,
    'VAL063',
    path,
    `output schema is nested ${level} levels deep; at most ${TOO_DEEP - 1} are supported`,
    'the root is level 1 and each `properties` or `items` adds one; describe deeper data as a plain object or array',
  );
}

/** `type` is the node's valid type or undefined; an unknown type says nothing about its children. */
function checkProperties(
  node: SchemaNode,
  type: unknown,
  path: PathRef,
  level: number,
  walk: Walk,
): SchemaNode | undefined {
  if (node.properties === undefined) return undefined;
  const propertiesPath = { parent: path, key: 'properties' };
  if (type !== undefined && type !== 'object') {
    report(
      walk,
      'VAL064',
      propertiesPath,
      `\`properties\` on a node of type ${String(type)}`,
      'only type object has properties',
    );
  }
  if (!isRecord(node.properties)) {
    report(
      walk,
      'VAL061',
      propertiesPath,
      '`properties` must be an object of schemas',
      "properties: { name: { type: 'string' }, ... }",
    );
    return undefined;
  }
  const entries: Array<[string, SchemaNode]> = [];
  for (const key of Object.keys(node.properties)) {
    const canonical = checkNode(node.properties[key], { parent: propertiesPath, key }, level + 1, walk);
    if (canonical) entries.push([key, canonical]);
  }
  // fromEntries defines own properties, so a property named __proto__ stays a plain key.
  return Object.fromEntries(entries);
}

function checkItems(node: SchemaNode, type: unknown, path: PathRef, level: number, walk: Walk): SchemaNode | undefined {
  if (node.items === undefined) return undefined;
  const itemsPath = { parent: path, key: 'items' };
  if (type !== undefined && type !== 'array') {
    report(walk, 'VAL065', itemsPath, `\`items\` on a node of type ${String(type)}`, 'only type array has items');
  }
  return checkNode(node.items, itemsPath, level + 1, walk);
}

/**
 * The root must suit the mime type. Judged only when the root's `type` and `format` are valid
 * (the canonical root keeps exactly the valid ones); otherwise VAL061 has said what is wrong.
 */
function checkFit(mimeType: MimeType, rawFormat: unknown, root: SchemaNode, path: PathRef, walk: Walk): void {
  if (root.type === undefined || root.format !== rawFormat) return;
  const { fits, needs } = MIME_TYPES[mimeType];
  if (fits(root.type, root.format)) return;
  const found =
    root.format === undefined
      ? `type ${String(root.type)}`
      : `type ${String(root.type)} with format '${String(root.format)}'`;
  report(
    walk,
    'VAL062',
    { parent: path, key: 'type' },
    `${mimeType} output needs a root of ${needs}, not ${found}`,
    `give the root ${needs}, or change the mimeType to what the API returns`,
  );
}
