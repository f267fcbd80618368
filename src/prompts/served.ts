// Which skills and prompts a catalog serves and under which MCP prompt names.
//
// - Namespace: a prompt file's `provider`; else the one namespace of the schema files in the
//   folder that holds its `skills/` or `prompts/` folder (3.x lists `./skills/x.mjs` beside its
//   schema, 4.x keeps `providers/<ns>/skills/`); else none.
// - Name: `namespace_name` (the R8 habit), or `name` alone without a namespace. Two prompts that
//   would share a name both get `_` and the first 6 hex digits of SHA-256 of their file appended,
//   so which file was read first never matters. Names are at most 64 characters.
// - `{{tool:...}}` resolves against the catalog's tools by namespace and route name (a full
//   reference `ns/file.mjs::route` also by file); `toolsNamed` is what both the load (PRM005)
//   and prompts/get use.

import { createHash } from 'node:crypto';
import { basename, dirname } from 'node:path';
import { FindingSink, type Finding } from '../report/findings.js';
import { parseToolReference, placeholdersIn } from './placeholders.js';
import type { PromptDefinition } from './types.js';

export interface ServedPrompt {
  /** The MCP prompt name. */
  name: string;
  namespace: string | null;
  /** The file it was read from. */
  file: string;
  /** SHA-256 (hex) of the bytes read from `file`, where its reader took one. */
  sha256?: string;
  definition: PromptDefinition;
}

const MAX_NAME = 64;
const PROMPT_FOLDERS = new Set(['skills', 'prompts']);

/** The catalog's prompts, named; `schemas` are the catalog's schema files with their namespaces. */
export function servePrompts(
  sources: ReadonlyArray<{ file: string; sha256?: string; prompt: PromptDefinition }>,
  schemas: ReadonlyArray<{ file: string; namespace: string }>,
): ServedPrompt[] {
  const entries = sources.map(({ file, sha256, prompt }) => ({
    file,
    sha256,
    definition: prompt,
    namespace: namespaceOf(file, prompt, schemas),
  }));
  const wanted = entries.map((entry) => plainName(entry.namespace, entry.definition.name));
  return entries.map((entry, index) => {
    const name = wanted[index] as string;
    const shared = wanted.filter((other) => other === name).length > 1;
    return { ...entry, name: shared ? withHash(name, entry.file) : name };
  });
}

function namespaceOf(
  file: string,
  prompt: PromptDefinition,
  schemas: ReadonlyArray<{ file: string; namespace: string }>,
): string | null {
  if (prompt.provider) return prompt.provider;
  const folder = dirname(file);
  const owner = PROMPT_FOLDERS.has(basename(folder)) ? dirname(folder) : folder;
  const namespaces = new Set(
    schemas
      .filter((schema) => dirname(schema.file) === owner && schema.namespace !== '')
      .map((schema) => schema.namespace),
  );
  return namespaces.size === 1 ? ([...namespaces][0] as string) : null;
}

function plainName(namespace: string | null, name: string): string {
  const full = (namespace === null ? name : `${namespace}_${name}`).replace(/[^A-Za-z0-9_-]/g, '_');
  return full.length <= MAX_NAME ? full : withHash(full, full);
}

function withHash(name: string, file: string): string {
  const hash = createHash('sha256').update(file).digest('hex').slice(0, 6);
  return `${name.slice(0, MAX_NAME - hash.length - 1)}_${hash}`;
}

/** What prompts need of a tool: its reference, route and namespace. */
export interface ReferencedTool {
  reference: string;
  routeName: string;
  schema: { namespace: string };
}

/** The tools `reference` names (more than one when a namespace has the route in two files). */
export function toolsNamed<T extends ReferencedTool>(reference: string, tools: readonly T[]): T[] {
  const parsed = parseToolReference(reference);
  if (!parsed) return [];
  if (parsed.file) return tools.filter((tool) => tool.reference === reference);
  return tools.filter((tool) => tool.schema.namespace === parsed.namespace && tool.routeName === parsed.route);
}

/** PRM005 for each `{{tool:...}}` of a served prompt that names no tool of the catalog, in that prompt's file. */
export function unresolvedTools(prompts: readonly ServedPrompt[], tools: readonly ReferencedTool[]): Finding[] {
  return prompts.flatMap((prompt) => {
    const sink = new FindingSink(prompt.file);
    const texts = [
      prompt.definition.content,
      ...(prompt.definition.attachments ?? []).flatMap((a) => (a.type === 'resource' ? [a.uri, a.text] : [])),
    ];
    const references = new Set(
      texts
        .flatMap((text) => placeholdersIn(text))
        .flatMap((p) => (p.kind === 'tool' && parseToolReference(p.value) ? [p.value] : [])),
    );
    for (const reference of references) {
      if (toolsNamed(reference, tools).length === 0) {
        sink.add(
          'PRM005',
          `${prompt.definition.kind}.content`,
          `{{tool:${reference}}} names no tool of the catalog`,
          'write {{tool:namespace/routeName}} of a tool `flowguard list` shows; the client is told the tool is not available',
        );
      }
    }
    return sink.findings;
  });
}

/**
 * What `serve --group` serves: the group's own prompts, and the skills and prompts of the
 * namespaces its tools belong to (a group prompt keeps its name over a skill's of the same name).
 */
export function promptsForGroup(
  own: readonly ServedPrompt[],
  catalogPrompts: readonly ServedPrompt[],
  tools: readonly ReferencedTool[],
): ServedPrompt[] {
  const namespaces = new Set(tools.map((tool) => tool.schema.namespace));
  const taken = new Set(own.map((prompt) => prompt.name));
  return [
    ...own,
    ...catalogPrompts.filter(
      (prompt) => prompt.namespace !== null && namespaces.has(prompt.namespace) && !taken.has(prompt.name),
    ),
  ];
}
