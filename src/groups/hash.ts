// Tool and group hashes (spec chapter 06, decision R10, SPEC-NOTES §11). A group records the hash
// of the tools it was approved with; when a schema changes what a tool does, the tool's hash
// changes and the group no longer verifies (GRP006) until an operator records it again.
//
// What a tool hash covers, exactly: SHA-256, written `sha256:` + 64 lowercase hex digits, of the
// UTF-8 text `JSON.stringify(input)`, where `input` is built below with its keys in this order:
//
//   { namespace,                       main.namespace
//     version,                         main.version
//     route: { name,                   the route's key in main.routes
//              method,                 GET, POST, PUT or DELETE
//              path,                   the path template, written back as text (see below)
//              parameters: [ {         in the order the schema declares them
//                  key, location,      position.key and position.location
//                  value,              '{{USER_PARAM}}' for a user parameter, else the fixed
//                                      value template written back as text
//                  type,               the compiled z: { kind, then the constraints of that
//                                      kind, each null when not given } (below)
//                  optional,           boolean
//                  default,            null when there is none, else { value }
//                  handlerOnly } ],    an insert parameter only handlers read
//              output },               null, or { mimeType, schema }
//     sharedListRefs: [ { ref, version, filter } ] }   main.sharedLists in declared order;
//                                                      filter null when there is none
//
// Not covered, as chapter 06 and R10 say: the route's description and tests, preload, the
// schema's name, description, root, headers, docs, tags, requiredServerParams,
// requiredLibraries and the handlers. Those are what the group's content record is for (below):
// a changed host, description or handler leaves the tool hash as it was and fails the content
// hash instead (GRP008).
//
// Decisions where the spec leaves it open:
// - The hash is taken over the canonical form (src/schema/types.ts), not over the file's text:
//   corpus idioms that mean the same thing hash the same (`:id` and `{{id}}`, a bare `{{KEY}}`
//   and `{{SERVER_PARAM:KEY}}`), and so does `main` reformatted or with its keys reordered.
// - Templates are written back as text: literal text as is, `{{SERVER_PARAM:KEY}}` for a key
//   slot, `{{key}}` for an insert slot, `--name--` for a root marker.
// - `type` by kind: string { minLength, maxLength, pattern }, number { minimum, maximum },
//   boolean {}, enum { values, lists: [ { list, field } ] } (values: static values, then the
//   values the shared lists yield, as resolved at load), array { minItems, maxItems },
//   object {}. An enum fed by a list therefore changes its hash when the list's entries change.
// - Free-form JSON (an output schema, a default value) is copied with its object keys sorted
//   by UTF-16 code units, so the author's key order never matters. (JSON.stringify emits
//   integer-like keys such as "200" first, in ascending order, whatever the insertion order:
//   still a function of the content only.)
// - `sharedListRefs` is every `main.sharedLists` entry (R10), not only the lists this route
//   interpolates; the entry's `filter` is part of it, since it decides what the route sees.
//
// Group hash (chapter 06): `sha256:` + hex of `JSON.stringify(entries)`, where entries are
// `{ ref, hash }` (in that key order) sorted by `ref` (UTF-16 code units). An empty group has no
// hash: `expectedGroupHash([])` is null, as chapter 06 writes a new group.
//
// Content hash (R10; flowguard's own, the spec has none): `sha256:` + hex of
// `JSON.stringify({ files, lists, libraries })`, each the record's entries as `[key, value]`
// pairs sorted by key (UTF-16 code units). The record (content.ts) holds a `bytesHash` of
// each schema and list file, taken over the bytes as read, and each library's version.

import { createHash } from 'node:crypto';
import type { CanonicalParam, CanonicalRoute, CanonicalSchema, ListRef, ParamType, Template } from '../schema/types.js';
import { compareStrings, sortedJson } from '../shared/sorted-json.js';

const HASH_PREFIX = 'sha256:';
/** A hash as stored: `sha256:` + 64 lowercase hex digits. */
export const HASH_PATTERN = /^sha256:[0-9a-f]{64}$/;

export interface ToolHashEntry {
  /** The tool's reference `namespace/file.mjs::route`. */
  ref: string;
  /** Its tool hash. */
  hash: string;
}

/** The hash of one route of a schema, as a group records it. */
export function toolHash(schema: CanonicalSchema, route: CanonicalRoute): string {
  return sha256(JSON.stringify(toolHashInput(schema, route)));
}

/**
 * The exact value whose `JSON.stringify` is hashed: every object below is built with its keys
 * written out in order, so the text depends on nothing but the schema's content.
 */
export function toolHashInput(schema: CanonicalSchema, route: CanonicalRoute): unknown {
  return {
    namespace: schema.namespace,
    version: schema.version,
    route: {
      name: route.name,
      method: route.method,
      path: templateText(route.path),
      parameters: route.parameters.map(parameterInput),
      output: route.output ? { mimeType: route.output.mimeType, schema: sortedJson(route.output.schema) } : null,
    },
    sharedListRefs: schema.sharedLists.map(listRefInput),
  };
}

/** The hash of a group's tools: order-free (sorted by reference); throws on an empty list (see expectedGroupHash). */
export function groupHash(entries: readonly ToolHashEntry[]): string {
  if (entries.length === 0) throw new Error('an empty group has no hash');
  const sorted = [...entries].sort((a, b) => compareStrings(a.ref, b.ref));
  return sha256(JSON.stringify(sorted.map(({ ref, hash }) => ({ ref, hash }))));
}

/** What a group's `hash` must be: null for a group without tools, else its group hash. */
export function expectedGroupHash(entries: readonly ToolHashEntry[]): string | null {
  return entries.length === 0 ? null : groupHash(entries);
}

/**
 * What a group records besides its tool hashes: for every schema file its tools are in, every
 * shared list those files reach and every library they load, a value that changes with it.
 */
export interface ContentRecord {
  /** `namespace/file.mjs` (the file part of the tools' references) → bytesHash of the file. */
  files: Record<string, string>;
  /** List name → bytesHash of the list's file. */
  lists: Record<string, string>;
  /** Package name → its installed version. */
  libraries: Record<string, string>;
}

/** The hash of a group's content record: order-free, like the group hash. */
export function contentHash(record: ContentRecord): string {
  const entries = (values: Record<string, string>) => Object.entries(values).sort(([a], [b]) => compareStrings(a, b));
  return sha256(
    JSON.stringify({
      files: entries(record.files),
      lists: entries(record.lists),
      libraries: entries(record.libraries),
    }),
  );
}

/** The hash of a file's bytes exactly as read, given in chunks: no decoding, no line-ending normalisation. */
export function bytesHash(chunks: Iterable<Uint8Array>): string {
  const hash = createHash('sha256');
  for (const chunk of chunks) hash.update(chunk);
  return HASH_PREFIX + hash.digest('hex');
}

/** The hash of a file's bytes as its reader hashed them (SHA-256 in hex): the value bytesHash gives of the same bytes. */
export function readHash(sha256Hex: string): string {
  return HASH_PREFIX + sha256Hex;
}

function sha256(text: string): string {
  return HASH_PREFIX + createHash('sha256').update(text, 'utf8').digest('hex');
}

function parameterInput(param: CanonicalParam): unknown {
  return {
    key: param.key,
    location: param.location,
    // As the schema wrote it: `{{USER_PARAM}}`, or with the text around it (`%{{USER_PARAM}}%`).
    value:
      param.source.kind === 'user'
        ? (param.source.around?.join('{{USER_PARAM}}') ?? '{{USER_PARAM}}')
        : templateText(param.source.template),
    type: typeInput(param.type),
    optional: param.optional,
    default: 'default' in param ? { value: sortedJson(param.default) } : null,
    handlerOnly: param.handlerOnly,
  };
}

function typeInput(type: ParamType): unknown {
  switch (type.kind) {
    case 'string':
      return {
        kind: type.kind,
        minLength: type.minLength ?? null,
        maxLength: type.maxLength ?? null,
        pattern: type.pattern ?? null,
      };
    case 'number':
      return { kind: type.kind, minimum: type.minimum ?? null, maximum: type.maximum ?? null };
    case 'enum':
      return {
        kind: type.kind,
        values: [...type.values],
        lists: type.lists.map(({ list, field }) => ({ list, field })),
      };
    case 'array':
      return { kind: type.kind, minItems: type.minItems ?? null, maxItems: type.maxItems ?? null };
    case 'boolean':
    case 'object':
      return { kind: type.kind };
  }
}

function listRefInput(ref: ListRef): unknown {
  return { ref: ref.ref, version: ref.version, filter: ref.filter ? filterInput(ref.filter) : null };
}

function filterInput(filter: NonNullable<ListRef['filter']>): unknown {
  if ('exists' in filter) return { key: filter.key, exists: filter.exists };
  if ('in' in filter) return { key: filter.key, in: [...filter.in] };
  return { key: filter.key, value: filter.value };
}

function templateText(template: Template): string {
  return template
    .map((part) => {
      switch (part.kind) {
        case 'literal':
          return part.text;
        case 'secret':
          return `{{SERVER_PARAM:${part.key}}}`;
        case 'insert':
          return `{{${part.key}}}`;
        case 'marker':
          return `--${part.name}--`;
      }
    })
    .join('');
}
