// The 4.x selections of a project as named tool sets beside the groups of `.flowmcp/groups.json`:
// read from the `selections/` folder beside the schema folder (spec chapter 17: at the root,
// beside `providers/`), each verified against the loaded catalog as `serve --group` verifies a
// group: every tool id resolves to exactly one loaded tool (SEL003 where one does not, at the id),
// and the name is no group's and no earlier selection's (SEL001). A selection with an error is
// never served in part. Tools hidden for a missing key stay part of it, as in a group.

import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Tool } from '../catalog/tools.js';
import { childPath, isError, type Finding } from '../report/findings.js';
import { selectSchemaFiles } from '../scan/files.js';
import { readSelectionFile, type Selection } from './selection-file.js';

export type SelectionVerdict =
  | { ok: true; name: string; file: string; selection: Selection; tools: Tool[]; findings: Finding[] }
  | { ok: false; name: string; file: string; errors: Finding[] };

/** Where the selections of a schema folder live: `selections/` beside it. */
export function selectionsFolder(schemas: string): string {
  return join(dirname(resolve(schemas)), 'selections');
}

/** Every selection file of the folder (none when it does not exist), verified in path order; `groups` are the names taken by groups.json. */
export function verifySelections(
  tools: readonly Tool[],
  folder: string,
  groups: ReadonlySet<string>,
  maxFileBytes?: number,
): SelectionVerdict[] {
  if (!existsSync(folder)) return [];
  const taken = new Map<string, string>([...groups].map((name) => [name, 'a group of groups.json']));
  return selectSchemaFiles([folder]).files.map((file) => verifySelectionFile(tools, file, taken, maxFileBytes));
}

/** One selection file verified; `taken` maps the names already taken to who took them, and gains this one's. */
export function verifySelectionFile(
  tools: readonly Tool[],
  file: string,
  taken: Map<string, string>,
  maxFileBytes?: number,
): SelectionVerdict {
  const { selection, sink } = readSelectionFile(file, maxFileBytes);
  if (!selection) return { ok: false, name: fallbackName(file), file, errors: sink.findings.filter(isError) };
  const owner = taken.get(selection.name);
  if (owner !== undefined)
    sink.add(
      'SEL001',
      'selection.name',
      `the name '${selection.name}' is taken by ${owner}: two tool sets cannot share one endpoint`,
      'rename the selection, or the group',
    );
  else taken.set(selection.name, `the selection ${file}`);
  const resolved = selection.tools.flatMap((id, position) => {
    const found = resolveTool(tools, id);
    if (found.length === 1) return found;
    const problem =
      found.length === 0
        ? `'${id}' resolves to no loaded tool`
        : `'${id}' is ambiguous: ${found.length} loaded tools have it (${found.map((tool) => tool.reference).join(', ')})`;
    sink.add(
      'SEL003',
      childPath('selection.tools', position),
      problem,
      found.length === 0 ? unresolvedHint(tools, id) : 'name the tool by its full reference, namespace/file.mjs::route',
    );
    return [];
  });
  if (sink.hasErrors()) return { ok: false, name: selection.name, file, errors: sink.findings.filter(isError) };
  return { ok: true, name: selection.name, file, selection, tools: [...new Set(resolved)], findings: sink.findings };
}

/** The tools an id names: `namespace/tool/name` (4.x) by namespace and route, or flowguard's `namespace/file.mjs::route`. */
function resolveTool(tools: readonly Tool[], id: string): Tool[] {
  if (id.includes('::')) return tools.filter((tool) => tool.reference === id);
  const [namespace, kind, name, ...rest] = id.split('/');
  if (kind !== 'tool' || rest.length > 0 || !namespace || !name) return [];
  return tools.filter((tool) => tool.namespace === namespace && tool.route.name === name);
}

function unresolvedHint(tools: readonly Tool[], id: string): string {
  const [namespace = '', , name = ''] = id.split('/');
  const similar = tools.filter((tool) => tool.namespace === namespace || tool.route.name === name).slice(0, 3);
  if (similar.length > 0)
    return `did you mean ${similar.map((tool) => `${tool.namespace}/tool/${tool.route.name}`).join(', ')}?`;
  return 'a tool id is namespace/tool/name of a loaded schema; flowguard list shows every loaded tool';
}

/** A selection that cannot be read is named by its file: `contract-analysis.mjs` → contract-analysis. */
function fallbackName(file: string): string {
  return (file.split(/[\\/]/).pop() ?? file).replace(/\.mjs$/, '');
}
