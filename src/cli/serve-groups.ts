// The groups `serve` offers, each verified as `serve --group` verifies it (groups/verify.ts
// selectGroup: every tool resolves, its hash and the content record match): the one group of
// `--group`, and over HTTP every group of `.flowmcp/groups.json` as an endpoint `/mcp/<group>` of
// its own. A group that does not verify is never served in part: the operator reviewed it as a
// whole; its endpoint answers 404 saying why, and the start-up summary names its findings. The 4.x
// selections beside the schema folder (selections/verify.ts) are tool sets of the same standing:
// served at `/mcp/<name>` and by `serve --group <name>` where no group has that name.

import type { Catalog } from '../runtime/catalog.js';
import { selectGroup } from '../groups/verify.js';
import { groupsFilePath, readGroupsFile, type GroupsFile } from '../groups/groups-file.js';
import type { Tool } from '../catalog/tools.js';
import type { ToolsSetting } from '../config/project.js';
import { chooseMode } from '../discovery/mode.js';
import type { GroupEndpoint } from '../edge/endpoints.js';
import { readGroupPrompts } from '../prompts/group-prompts.js';
import { promptsForGroup, type ServedPrompt } from '../prompts/served.js';
import { isError, type Finding } from '../report/findings.js';
import { formatFinding } from '../report/format.js';
import { plural } from '../shared/plural.js';
import { verifySelections, type SelectionVerdict } from '../selections/verify.js';

/** One group as `serve` would serve it, or the errors that stop it. */
export type GroupVerdict =
  | { ok: true; name: string; tools: Tool[]; prompts: ServedPrompt[]; promptFindings: Finding[] }
  | { ok: false; name: string; errors: Finding[] };

export interface GroupSource {
  project: string;
  /** The groups file as read, or its path (default: the project's). */
  file?: GroupsFile;
  maxFileBytes?: number;
  /** The selections folder (selections/verify.ts selectionsFolder); none: no selections. */
  selections?: string;
}

/** Verifies one group against the catalog; its prompts are read, a prompt that cannot be read is left out with a note. */
export function verifyGroup(catalog: Catalog, source: GroupSource, name: string): GroupVerdict {
  const path = groupsFilePath(source.project);
  const groups = source.file ?? readGroupsFile(path);
  if (!groups.groups.some((entry) => entry.name === name)) {
    const selection = selectionsOf(catalog, source, groups).find((verdict) => verdict.name === name);
    if (selection) return selectionVerdict(catalog, selection);
  }
  const selection = selectGroup(catalog, groups, name);
  if (!selection.ok) return { ok: false, name, errors: selection.findings.filter(isError) };
  const tools = selection.tools;
  const own = readGroupPrompts(source.project, path, name, selection.group.prompts ?? {}, source.maxFileBytes);
  return {
    ok: true,
    name,
    tools,
    prompts: promptsForGroup(own.prompts, catalog.prompts, tools),
    promptFindings: own.findings,
  };
}

/** `2 of its 3 tools served; hidden for a missing key: vault_getNote` */
export function servedLine(tools: readonly Tool[]): string {
  const hidden = tools.filter((tool) => tool.missingKeys.length > 0);
  return (
    `${tools.length - hidden.length} of its ${plural(tools.length, 'tool')} served` +
    (hidden.length > 0 ? `; hidden for a missing key: ${hidden.map((tool) => tool.name).join(', ')}` : '')
  );
}

/** The tools of a group a client can see (those whose keys are granted). */
export function servedCount(tools: readonly Tool[]): { served: number; alwaysLoad: number } {
  const served = tools.filter((tool) => tool.missingKeys.length === 0);
  return { served: served.length, alwaysLoad: served.filter((tool) => tool.route.meta?.alwaysLoad === true).length };
}

/**
 * Every group of the project's groups file as an endpoint, each verified; the listing mode of
 * each is chosen from the same setting on its own size (`auto` lists a small group whole). The
 * lines say, per group, its path and what it serves or why it is refused.
 */
export function groupEndpoints(
  catalog: Catalog,
  source: GroupSource,
  root: string,
  setting: ToolsSetting,
  searchAbove?: number,
): { endpoints: GroupEndpoint[]; lines: string[] } {
  const file = source.file ?? readGroupsFile(groupsFilePath(source.project));
  const groups = file.exists
    ? fileEndpoints(catalog, { ...source, file }, root, setting, searchAbove)
    : { endpoints: [], lines: [] };
  const selections = selectionsOf(catalog, source, file);
  if (selections.length === 0) return groups;
  const lines = [`flowguard: selection endpoints (${source.selections}, each verified as serve --group verifies):`];
  const endpoints: GroupEndpoint[] = [];
  const named = new Set(groups.endpoints.map((endpoint) => endpoint.name));
  for (const verdict of selections) {
    const path = `${root}/${verdict.name}`;
    const served = selectionVerdict(catalog, verdict);
    if (!served.ok) {
      // A refused selection whose name a group or an earlier selection has leaves that endpoint as it is.
      if (!named.has(verdict.name))
        endpoints.push({
          name: verdict.name,
          kind: 'selection',
          refused: `${verdict.file} does not verify (${served.errors[0]?.code}: ${served.errors[0]?.message})`,
        });
      lines.push(
        `  ${path}: NOT served, the selection ${verdict.file} does not verify:`,
        ...served.errors.map((finding) => `    ${formatFinding(finding)}`),
      );
    } else {
      endpoints.push({ ...servedEndpoint(served, setting, searchAbove), kind: 'selection' });
      lines.push(
        `  ${path}: ${servedLine(served.tools)}${endpointMode(served, setting, searchAbove) === 'search' ? ' (discovery mode)' : ''}`,
      );
    }
    named.add(verdict.name);
  }
  return { endpoints: [...groups.endpoints, ...endpoints], lines: [...groups.lines, ...lines] };
}

function selectionsOf(catalog: Catalog, source: GroupSource, groups: GroupsFile): SelectionVerdict[] {
  if (source.selections === undefined) return [];
  return verifySelections(
    catalog.tools,
    source.selections,
    new Set(groups.groups.map((entry) => entry.name)),
    source.maxFileBytes,
  );
}

function selectionVerdict(catalog: Catalog, verdict: SelectionVerdict): GroupVerdict {
  if (!verdict.ok) return { ok: false, name: verdict.name, errors: verdict.errors };
  return {
    ok: true,
    name: verdict.name,
    tools: verdict.tools,
    prompts: promptsForGroup([], catalog.prompts, verdict.tools),
    promptFindings: [],
  };
}

/** A group's listing mode is chosen from the same setting on its own size (`auto` lists a small group whole). */
function endpointMode(
  verdict: Extract<GroupVerdict, { ok: true }>,
  setting: ToolsSetting,
  searchAbove?: number,
): 'all' | 'search' {
  const { served, alwaysLoad } = servedCount(verdict.tools);
  return chooseMode(setting, served, alwaysLoad, searchAbove).mode;
}

function servedEndpoint(
  verdict: Extract<GroupVerdict, { ok: true }>,
  setting: ToolsSetting,
  searchAbove?: number,
): GroupEndpoint {
  return {
    name: verdict.name,
    serving: { tools: verdict.tools, prompts: verdict.prompts, discovery: endpointMode(verdict, setting, searchAbove) },
  };
}

function fileEndpoints(
  catalog: Catalog,
  source: GroupSource & { file: GroupsFile },
  root: string,
  setting: ToolsSetting,
  searchAbove?: number,
): { endpoints: GroupEndpoint[]; lines: string[] } {
  const { file } = source;
  const endpoints: GroupEndpoint[] = [];
  const lines: string[] = [];
  const fileErrors = file.findings.filter(isError);
  if (fileErrors.length > 0) {
    // The file as a whole is unsound: no group of it is served.
    lines.push(
      `flowguard: no group endpoints: ${file.file} has errors (\`flowguard group verify\` explains):`,
      ...fileErrors.map((finding) => `  ${formatFinding(finding)}`),
    );
    return {
      endpoints: file.groups.map((entry) => ({
        name: entry.name,
        refused: `${file.file} has errors (${fileErrors[0]?.code})`,
      })),
      lines,
    };
  }
  if (file.groups.length > 0)
    lines.push(`flowguard: group endpoints (${file.file}, each verified as serve --group verifies):`);
  for (const entry of file.groups) {
    const verdict = verifyGroup(catalog, source, entry.name);
    const path = `${root}/${entry.name}`;
    if (!verdict.ok) {
      const first = verdict.errors[0];
      endpoints.push({
        name: entry.name,
        refused: `it does not verify (${first ? `${first.code}: ${first.message}` : 'no tools'}); \`flowguard group verify ${entry.name}\` explains`,
      });
      lines.push(
        `  ${path}: NOT served, the group does not verify:`,
        ...verdict.errors.map((finding) => `    ${formatFinding(finding)}`),
      );
      continue;
    }
    // A group that is not served has no say in the listing mode of another: each is chosen on its own size.
    endpoints.push(servedEndpoint(verdict, setting, searchAbove));
    lines.push(
      `  ${path}: ${servedLine(verdict.tools)}${endpointMode(verdict, setting, searchAbove) === 'search' ? ' (discovery mode)' : ''}`,
      ...verdict.promptFindings.map((finding) => `    ${formatFinding(finding)}`),
    );
  }
  return { endpoints, lines };
}
