// Recording a group and writing `.flowmcp/groups.json`: `group create` builds a group from the
// catalog as it is now (its tools' hashes and its content record, content.ts), puts it
// into the file's document in place of the group of that name, and writes the file atomically.

import { UnwritableFileError } from '../errors/flowguard-error.js';
import { childPath, type Finding } from '../report/findings.js';
import { isRecord, type RawObject } from '../shared/raw.js';
import { writeWhole } from '../shared/write-whole.js';
import { recordContent, unreadableContent } from './content.js';
import { indexCatalog, resolveTools, type CatalogView } from './verify.js';
import { checkGroupForm, type Group, type GroupPrompt, type GroupsFile } from './groups-file.js';
import { GROUPS_SPEC_VERSION } from './shape.js';
import { contentHash, expectedGroupHash } from './hash.js';

export interface BuildGroupOptions {
  description?: string;
  /** Kept as they are (e.g. the prompts of the group this one replaces). */
  prompts?: Record<string, GroupPrompt>;
}

/**
 * A new group over `tools` (references, or MCP tool names, which are replaced by their
 * references), with its hashes and content record taken from the catalog, or the findings
 * that stop it: GRP001–GRP005 as a stored group would get them, GRP008 for a schema or list file
 * that cannot be read. Paths point into `file` as it will be.
 */
export function buildGroup(
  catalog: CatalogView,
  file: GroupsFile,
  name: string,
  tools: readonly string[],
  options: BuildGroupOptions = {},
): { group: Group | null; findings: Finding[] } {
  const { index } = indexCatalog(catalog);
  const byName = new Map(catalog.tools.map((tool) => [tool.name, tool.reference]));
  const refs = tools.map((tool) => (index.has(tool) ? tool : (byName.get(tool) ?? tool)));
  const path = childPath('groups', name);
  const sink = file.newSink();
  checkGroupForm(name, { description: options.description ?? '', tools: refs, hash: null }, sink);
  const resolved = resolveTools(refs, path, index, catalog.reports ?? [], sink);
  if (sink.hasErrors()) return { group: null, findings: sink.findings };
  const content = recordContent(resolved.tools, catalog);
  for (const unreadable of unreadableContent(content))
    sink.add(
      'GRP008',
      path,
      unreadable.message,
      'a group records only what it can read; fix the file, then create the group again',
    );
  if (sink.hasErrors()) return { group: null, findings: sink.findings };
  const toolHashes = Object.fromEntries(resolved.hashes.map(({ ref, hash }) => [ref, hash]));
  const group: Group = {
    description: options.description ?? '',
    tools: [...refs],
    hash: expectedGroupHash(resolved.hashes),
    toolHashes,
    contentHash: contentHash(content),
    content,
  };
  if (options.prompts) group.prompts = options.prompts;
  return { group, findings: sink.findings };
}

/**
 * The file's document with `group` put under `name`: in its place when the name exists, else
 * last. Every other group and key is kept as it was read. Throws when the file has file-level
 * errors (it would be overwritten with less than it holds); check `file.findings` first.
 */
export function withGroup(file: GroupsFile, name: string, group: Group): RawObject {
  if (file.findings.some((f) => f.severity === 'error'))
    throw new Error(`${file.file} has errors; it is not rewritten`);
  const data = isRecord(file.data) ? file.data : {};
  const groups = isRecord(data.groups) ? data.groups : {};
  const entries = Object.entries(groups);
  const at = entries.findIndex(([key]) => key === name);
  if (at >= 0) entries[at] = [name, groupJson(group)];
  else entries.push([name, groupJson(group)]);
  return { specVersion: GROUPS_SPEC_VERSION, groups: Object.fromEntries(entries) };
}

/** A group with its keys in the one order the file uses. */
function groupJson(group: Group): RawObject {
  const json: RawObject = { description: group.description, tools: [...group.tools], hash: group.hash };
  if (group.toolHashes)
    json.toolHashes = Object.fromEntries(
      group.tools.flatMap((ref) => (group.toolHashes?.[ref] ? [[ref, group.toolHashes[ref]]] : [])),
    );
  if (group.content && group.contentHash !== undefined) {
    json.contentHash = group.contentHash;
    json.content = { files: group.content.files, lists: group.content.lists, libraries: group.content.libraries };
  }
  if (group.prompts) json.prompts = group.prompts;
  return json;
}

/**
 * Writes a groups document as 2-space JSON with a final newline, whole (writeWhole): a reader sees
 * the old file or the new one. Throws ERR013 when the folder or the disk refuses it: not a bug.
 */
export function writeGroupsFile(file: string, document: unknown): void {
  try {
    writeWhole(file, `${JSON.stringify(document, null, 2)}\n`);
  } catch (error) {
    throw new UnwritableFileError(file, error);
  }
}
