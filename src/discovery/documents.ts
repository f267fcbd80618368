// What the search index knows of a tool: every field that says what it does, as plain text in a
// few weighted fields. Enum values are capped: a list of 500 chain names would drown the words
// that describe the tool. Every other text is bounded too, above what an honest schema writes (the
// 3.0.0 catalog's longest description has 665 characters, its most parameters 43): a schema that
// stuffs thousands of request words into a field to be found for everything claims only those
// within the bound.

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
/** Parameters, aliases and tags indexed per tool. */
const MAX_PARAMETERS = 64;
const MAX_ALIASES = 10;
const MAX_TAGS = 20;
/** Characters indexed of a description, of a searchHint or a parameter's description, of a name (a tag, an alias, an enum value). */
const TEXT_CHARS = 1000;
const HINT_CHARS = 200;
const NAME_CHARS = 64;

/** Tags that tell the runtime something (cache lifetimes), not what the tool does. */
const RUNTIME_TAG = /^cacheTtl/i;

/** A tool's text per field, in FIELDS order: an array, made straight, as the index makes one per tool at a start. */
export function toolDocument(tool: Tool): PieceDocument {
  const { schema, route } = tool;
  const meta = route.meta;
  const shared = sharedOf(schema);
  const params: string[] = [];
  for (const param of route.parameters.slice(0, MAX_PARAMETERS)) {
    params.push(cut(param.key, NAME_CHARS), cut(param.description ?? '', HINT_CHARS));
    if (param.type.kind === 'enum')
      for (const value of param.type.values.slice(0, MAX_ENUM_VALUES)) params.push(cut(value, NAME_CHARS));
  }
  const searchHint = cut(meta?.searchHint ?? '', HINT_CHARS);
  const aliases = (meta?.aliases ?? []).slice(0, MAX_ALIASES).map((alias) => cut(alias, NAME_CHARS));
  return [
    [cut(tool.name, HINT_CHARS), tool.namespace, cut(route.name, NAME_CHARS), ...aliases],
    searchHint === '' ? shared.about : aboutOf(schema, shared.tags, searchHint, shared.host),
    [cut(route.description, TEXT_CHARS), cut(route.output?.description ?? '', TEXT_CHARS)],
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
    const tags = schema.tags
      .filter((tag) => !RUNTIME_TAG.test(tag))
      .slice(0, MAX_TAGS)
      .map((tag) => cut(tag, NAME_CHARS));
    const host = hostWords(schema.root);
    found = { tags, host, about: aboutOf(schema, tags, '', host), schemaText: [leadOf(schema.description)] };
    schemaPieces.set(schema, found);
  }
  return found;
}

function aboutOf(schema: Tool['schema'], tags: readonly string[], searchHint: string, host: string): readonly string[] {
  return [cut(schema.name, HINT_CHARS), ...tags, searchHint, host];
}

/** `text`, at most `max` characters of it. */
function cut(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}

/** Words of a schema's description indexed with each of its tools: its lead says what the API is; the rest, repeated in every tool, costs more than it finds. */
const SCHEMA_WORDS = 30;

function leadOf(text: string): string {
  return cut(text.split(/\s+/, SCHEMA_WORDS).join(' '), TEXT_CHARS);
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
