// What the search index knows of a tool: every field that says what it does, as plain text in a
// few weighted fields. Enum values are capped: a list of 500 chain names would drown the words
// that describe the tool.

import type { Tool } from '../catalog/tools.js';
import type { Template } from '../schema/types.js';
import type { PieceDocument } from './term-documents.js';

/**
 * The fields of a tool's document, in the order a document lists them: its text per field, in
 * pieces (a piece shared by many tools is split into words once). A field the same for every
 * route of a schema is the same array for each (term-counter.ts counts it once per run of them).
 * - `name`: the served name and namespace (split into words by the tokenizer), the route name, the 4.x aliases.
 * - `about`: the schema's name and tags, the 4.x searchHint, the API's host.
 * - `description`: the route's description and what it returns.
 * - `params`: parameter names, descriptions and (the first) enum values.
 * - `schemaText`: the schema's description: shared by every route of the file, so it weighs little.
 */
export const FIELDS = ['name', 'about', 'description', 'params', 'schemaText'] as const;
export type Field = (typeof FIELDS)[number];

/** Enum values indexed per parameter. */
const MAX_ENUM_VALUES = 40;

/** Tags that tell the runtime something (cache lifetimes), not what the tool does. */
const RUNTIME_TAG = /^cacheTtl/i;

/** A tool's text per field, in FIELDS order: an array, made straight, as the index makes one per tool at a start. */
export function toolDocument(tool: Tool): PieceDocument {
  const { schema, route } = tool;
  const meta = route.meta;
  const shared = sharedOf(schema);
  const params: string[] = [];
  for (const param of route.parameters) {
    params.push(param.key, param.description ?? '');
    if (param.type.kind === 'enum') params.push(...param.type.values.slice(0, MAX_ENUM_VALUES));
  }
  const searchHint = meta?.searchHint ?? '';
  return [
    [tool.name, tool.namespace, route.name, ...(meta?.aliases ?? [])],
    searchHint === '' ? shared.about : aboutOf(schema, shared.tags, searchHint, shared.host),
    [route.description, route.output?.description ?? ''],
    params,
    shared.schemaText,
  ];
}

interface SchemaPieces {
  tags: string[];
  host: string;
  /** The `about` of a route without a searchHint. */
  about: readonly string[];
  schemaText: readonly string[];
}

/** The pieces every route of a schema shares, made once per schema. */
const schemaPieces = new WeakMap<Tool['schema'], SchemaPieces>();

function sharedOf(schema: Tool['schema']): SchemaPieces {
  let found = schemaPieces.get(schema);
  if (found === undefined) {
    const tags = schema.tags.filter((tag) => !RUNTIME_TAG.test(tag));
    const host = hostWords(schema.root);
    found = { tags, host, about: aboutOf(schema, tags, '', host), schemaText: [leadOf(schema.description)] };
    schemaPieces.set(schema, found);
  }
  return found;
}

function aboutOf(schema: Tool['schema'], tags: readonly string[], searchHint: string, host: string): readonly string[] {
  return [schema.name, ...tags, searchHint, host];
}

/** Words of a schema's description indexed with each of its tools: its lead says what the API is; the rest, repeated in every tool, costs more than it finds. */
const SCHEMA_WORDS = 30;

function leadOf(text: string): string {
  return text.split(/\s+/, SCHEMA_WORDS).join(' ');
}

/** `api.coingecko.com` → coingecko: the host's own label, without `api`, `www` and the top-level domain. */
function hostWords(root: Template): string {
  const text = root.map((part) => (part.kind === 'literal' ? part.text : ' ')).join('');
  const host = /^[a-z]+:\/\/([^/:?#]+)/i.exec(text)?.[1] ?? '';
  return host
    .split('.')
    .slice(0, -1)
    .filter((label) => !/^(?:api|www|v\d+)$/i.test(label))
    .join(' ');
}
