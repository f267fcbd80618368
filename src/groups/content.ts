// A group's content record (decision R10): everything that decides what its tools do,
// beyond the spec's tool hash. The tool hash (hash.ts) leaves out root, headers, descriptions and
// handlers by design, so a group also records, when it is created:
//
//   files      `namespace/file.mjs` → bytesHash of each schema file its tools are in, keyed by
//              the file part of the tools' references (as `flowguard list` shows them); and
//              `namespace/skills/file.mjs` (or `prompts/`) → bytesHash of each skill or prompt
//              file served with the group (those of its tools' namespaces, prompts/served.ts
//              promptsForGroup): its clients read their text as instructions, as they read a
//              tool's description
//   lists      list name → bytesHash of the file of every shared list those schemas reference
//              (main.sharedLists and enum interpolations), and of every list those depend on
//              (dependsOn, followed to the end)
//   libraries  package name → the version of every library those schemas load
//              (main.requiredLibraries): `version` of the package.json of the package that
//              src/libraries/resolve.ts finds, as the sandbox loads it; "not installed" when
//              it finds none
//
// and `contentHash` over the three (hash.ts). `group verify` and `serve --group` take the record
// again from the catalog they loaded and fail on any difference, naming each one (GRP008).
//
// Decisions:
// - Files are hashed as the bytes read from disk, with no decoding and no line-ending
//   normalisation: what is hashed is exactly what the loader reads. A checkout that rewrites
//   line endings (git `core.autocrlf`) therefore changes the record; pin them in the schema
//   repository (`.gitattributes`: `*.mjs -text`) or record the group on that checkout.
// - Keys are portable: a schema file by its reference (namespace and base name), a list by its
//   name, a library by its package name; no path of this machine is stored.
// - The record is of the bytes the catalog read, never of the disk read again: each file's hash
//   is taken as the loader reads it (scan/source-file.ts) and kept with what it loaded. A second
//   read could meet other bytes (the reviewed file swapped back after the load, a FIFO that hands
//   each reader its own), and `serve --group` would then serve a version no one recorded.
// - A file or list the catalog did not read, or a list that is not loaded, gets a value that is
//   no hash and so never matches a recorded one; `buildGroup` refuses to record it.

import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveLibrary } from '../libraries/resolve.js';
import type { CanonicalSchema } from '../schema/types.js';
import { compareStrings } from '../shared/sorted-json.js';
import { bytesHash, HASH_PATTERN, readHash, type ContentRecord } from './hash.js';
import type { Tool } from '../catalog/tools.js';

const NOT_INSTALLED = 'not installed';

/** A shared list as the record reads it: its file, the SHA-256 (hex) of the bytes read from it, and the lists it depends on. */
export interface ListSource {
  readonly file: string;
  readonly sha256?: string;
  readonly dependsOn: readonly { readonly ref: string }[];
}

/** A skill or prompt the catalog serves, by its file (and the SHA-256 of the bytes read from it) and the namespace it is served under. */
export interface PromptSource {
  readonly file: string;
  readonly sha256?: string;
  readonly namespace: string | null;
}

/** Where a catalog's content comes from besides its tools. */
export interface ContentSources {
  /** The project folder: libraries resolve from its node_modules first, as the sandbox loads them. */
  readonly project: string;
  /** The schema files the catalog serves, each with the SHA-256 (hex) of the bytes it was checked from. */
  readonly schemas: readonly { readonly file: string; readonly sha256: string }[];
  /** The loaded shared lists, by name. */
  readonly lists: { get(name: string): ListSource | undefined };
  /** The catalog's skills and prompts; those of the group's namespaces are served with it. */
  readonly prompts?: readonly PromptSource[];
}

type ContentSection = keyof ContentRecord;

/** One difference between a recorded and a current content record. */
export interface ContentChange {
  section: ContentSection;
  key: string;
  /** True when the key is in the recorded record (the finding can point at it). */
  recorded: boolean;
  message: string;
}

/** The content record of these tools, read now. */
export function recordContent(tools: readonly Tool[], sources: ContentSources): ContentRecord {
  // By file key, the value of each schema file under it, by path: two folders may hold a file of
  // one namespace under one name, and then both are the key's content.
  const files = new Map<string, Map<string, string>>();
  const lists = new Map<string, string>();
  const libraries = new Map<string, string>();
  const done = new Set<CanonicalSchema>();
  const schemaHashes = new Map(sources.schemas.map((schema) => [schema.file, schema.sha256]));
  for (const tool of tools) {
    if (done.has(tool.schema)) continue;
    done.add(tool.schema);
    const key = fileKey(tool.reference);
    files.set(key, (files.get(key) ?? new Map()).set(tool.schema.file, readValue(schemaHashes.get(tool.schema.file))));
    for (const name of reachedLists(tool.schema, sources)) {
      const list = sources.lists.get(name);
      lists.set(name, list ? readValue(list.sha256) : 'is not loaded');
    }
    for (const name of tool.schema.requiredLibraries)
      if (!libraries.has(name)) libraries.set(name, installedVersion(name, sources.project));
  }
  const namespaces = new Set(tools.map((tool) => tool.schema.namespace));
  for (const prompt of sources.prompts ?? []) {
    if (prompt.namespace === null || !namespaces.has(prompt.namespace)) continue;
    const key = `${prompt.namespace}/${basename(dirname(prompt.file))}/${basename(prompt.file)}`;
    files.set(key, (files.get(key) ?? new Map()).set(prompt.file, readValue(prompt.sha256)));
  }
  const fileValues = new Map([...files].map(([key, byPath]) => [key, joinedValue(byPath)]));
  return { files: sortedRecord(fileValues), lists: sortedRecord(lists), libraries: sortedRecord(libraries) };
}

/**
 * One file's value as it is; for several files under one key, a hash over their values in path
 * order (or the first that is no hash, so an unreadable file is still reported).
 */
function joinedValue(byPath: ReadonlyMap<string, string>): string {
  const values = [...byPath].sort(([a], [b]) => compareStrings(a, b)).map(([, value]) => value);
  if (values.length === 1) return values[0] as string;
  return values.find((value) => !HASH_PATTERN.test(value)) ?? bytesHash([Buffer.from(values.join('\n'))]);
}

/** The entries of a current record that are no hash: files and lists that could not be read. */
export function unreadableContent(record: ContentRecord): ContentChange[] {
  const sections = [
    ['files', 'schema file'],
    ['lists', 'shared list'],
  ] as const;
  return sections.flatMap(([section, what]) =>
    Object.entries(record[section])
      .filter(([, value]) => !HASH_PATTERN.test(value))
      .map(([key, value]) => ({
        section,
        key,
        recorded: false,
        message: `${section === 'files' ? fileKind(key) : what} ${key} ${value}`,
      })),
  );
}

/**
 * Every difference between the recorded and the current record. `complete` is false when some
 * of the group's tools did not resolve: the current record then lacks their files, lists and
 * libraries, so only what it holds is compared.
 */
export function contentChanges(recorded: ContentRecord, current: ContentRecord, complete: boolean): ContentChange[] {
  const changes: ContentChange[] = [];
  const compare = (
    section: ContentSection,
    describe: (key: string, was: string | undefined, now: string | undefined) => string,
  ) => {
    const was = recorded[section];
    const now = current[section];
    const keys = new Set([...Object.keys(now), ...(complete ? Object.keys(was) : [])]);
    for (const key of [...keys].sort()) {
      const before = Object.hasOwn(was, key) ? was[key] : undefined;
      const after = Object.hasOwn(now, key) ? now[key] : undefined;
      if (before !== after)
        changes.push({ section, key, recorded: before !== undefined, message: describe(key, before, after) });
    }
  };
  compare('files', (key, was, now) => {
    const file = `${fileKind(key)} ${key}`;
    if (now === undefined)
      return `${file} is in the content record but ${fileKind(key) === 'schema file' ? "none of the group's tools is in it" : 'it is no longer served with the group'}`;
    if (was === undefined) return `${file} is not in the content record`;
    return HASH_PATTERN.test(now) ? `${file} changed` : `${file} changed: it ${now}`;
  });
  compare('lists', (key, was, now) => {
    if (now === undefined) return `shared list ${key} is no longer referenced`;
    if (was === undefined) return `shared list ${key} is now referenced`;
    return HASH_PATTERN.test(now) ? `shared list ${key} changed` : `shared list ${key} changed: it ${now}`;
  });
  compare('libraries', (key, was, now) => {
    if (now === undefined) return `library ${key} (${was ?? ''}) is no longer required`;
    if (was === undefined) return `library ${key} (${now}) is now required`;
    return `library ${key} ${was} → ${now}`;
  });
  return changes;
}

/** What a key of `files` names: a schema file (`namespace/file.mjs`) or a skill or prompt file (`namespace/skills/file.mjs`). */
function fileKind(key: string): string {
  return key.split('/').length > 2 ? 'prompt file' : 'schema file';
}

/** `namespace/file.mjs` of a reference `namespace/file.mjs::route`. */
function fileKey(reference: string): string {
  return reference.slice(0, reference.indexOf('::'));
}

/** A file's value: the hash of the bytes the catalog read from it; a note that is no hash when it read none. */
function readValue(sha256: string | undefined): string {
  return sha256 ? readHash(sha256) : 'was not read by the catalog';
}

/** The lists a schema references, and every list those depend on. */
function reachedLists(schema: CanonicalSchema, sources: ContentSources): Set<string> {
  const reached = new Set<string>();
  const pending = [
    ...schema.sharedLists.map((ref) => ref.ref),
    ...schema.routes.flatMap((route) =>
      route.parameters.flatMap((param) => (param.type.kind === 'enum' ? param.type.lists.map((ref) => ref.list) : [])),
    ),
  ];
  // Every name is visited once, so a dependency cycle cannot loop.
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (reached.has(name)) continue;
    reached.add(name);
    for (const dependency of sources.lists.get(name)?.dependsOn ?? []) pending.push(dependency.ref);
  }
  return reached;
}

/** The version of the package the loader would load, from the package.json that names it. */
function installedVersion(name: string, project: string): string {
  const library = resolveLibrary(name, project);
  if (!library) return NOT_INSTALLED;
  if (library.format === 'builtin') return `node ${process.versions.node}`;
  // The entry file may sit in a folder with its own package.json ({ "type": "module" }): the
  // package's own is the nearest one that carries its name.
  for (let dir = dirname(fileURLToPath(library.url)); ; dir = dirname(dir)) {
    const manifest = readManifest(join(dir, 'package.json'));
    if (manifest?.name === name)
      return typeof manifest.version === 'string' && manifest.version !== '' ? manifest.version : 'no version';
    if (dirname(dir) === dir) return 'no version';
  }
}

function readManifest(file: string): { name?: unknown; version?: unknown } | null {
  try {
    const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return data !== null && typeof data === 'object' ? (data as { name?: unknown; version?: unknown }) : null;
  } catch {
    // Unreadable or not JSON: the file names no package, which the content record then shows as changed.
    return null;
  }
}

function sortedRecord(entries: ReadonlyMap<string, string>): Record<string, string> {
  return Object.fromEntries([...entries].sort(([a], [b]) => compareStrings(a, b)));
}
