// The groups `serve` offers, each verified as `serve --group` verifies it (groups/verify.ts
// selectGroup: every tool resolves, its hash and the content record match): the one group of
// `--group`, and over HTTP every group of `.flowmcp/groups.json` as an endpoint `/mcp/<group>` of
// its own. A group that does not verify is never served in part: the operator reviewed it as a
// whole; its endpoint answers 404 saying why, and the start-up summary names its findings.

import type { Catalog } from '../runtime/catalog.js';
import { selectGroup } from '../groups/verify.js';
import { groupsFilePath, readGroupsFile, type GroupsFile } from '../groups/groups-file.js';
import type { Tool } from '../catalog/tools.js';
import type { ToolsSetting } from '../config/project.js';
import { chooseMode } from '../discovery/mode.js';
import type { GroupEndpoint } from '../mcp/endpoints.js';
import { readGroupPrompts } from '../prompts/group-prompts.js';
import { promptsForGroup, type ServedPrompt } from '../prompts/served.js';
import { isError, type Finding } from '../report/findings.js';
import { formatFinding } from '../report/format.js';

/** One group as `serve` would serve it, or the errors that stop it. */
export type GroupVerdict =
  | { ok: true; name: string; tools: Tool[]; prompts: ServedPrompt[]; promptFindings: Finding[] }
  | { ok: false; name: string; errors: Finding[] };

export interface GroupSource {
  project: string;
  /** The groups file as read, or its path (default: the project's). */
  file?: GroupsFile;
  maxFileBytes?: number;
}

/** Verifies one group against the catalog; its prompts are read, a prompt that cannot be read is left out with a note. */
export function verifyGroup(catalog: Catalog, source: GroupSource, name: string): GroupVerdict {
  const path = groupsFilePath(source.project);
  const selection = selectGroup(catalog, source.file ?? path, name);
  if (!selection.ok) return { ok: false, name, errors: selection.findings.filter(isError) };
  const tools = selection.tools;
  const own = readGroupPrompts(source.project, path, name, selection.group.prompts ?? {}, source.maxFileBytes);
  return { ok: true, name, tools, prompts: promptsForGroup(own.prompts, catalog.prompts, tools), promptFindings: own.findings };
}

/** `2 of its 3 tools served; hidden for a missing key: vault_getNote` */
export function servedLine(tools: readonly Tool[]): string {
  const hidden = tools.filter((tool) => tool.missingKeys.length > 0);
  return `${tools.length - hidden.length} of its ${tools.length} tools served` + (hidden.length > 0 ? `; hidden for a missing key: ${hidden.map((tool) => tool.name).join(', ')}` : '');
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
export function groupEndpoints(catalog: Catalog, source: GroupSource, root: string, setting: ToolsSetting, searchAbove?: number): { endpoints: GroupEndpoint[]; lines: string[] } {
  const file = source.file ?? readGroupsFile(groupsFilePath(source.project));
  if (!file.exists) return { endpoints: [], lines: [] };
  const endpoints: GroupEndpoint[] = [];
  const lines: string[] = [];
  const fileErrors = file.findings.filter(isError);
  if (fileErrors.length > 0) {
    // The file as a whole is unsound: no group of it is served.
    lines.push(`flowguard: no group endpoints: ${file.file} has errors (\`flowguard group verify\` explains):`, ...fileErrors.map((finding) => `  ${formatFinding(finding)}`));
    return { endpoints: file.groups.map((entry) => ({ name: entry.name, refused: `${file.file} has errors (${fileErrors[0]?.code})` })), lines };
  }
  if (file.groups.length > 0) lines.push(`flowguard: group endpoints (${file.file}, each verified as serve --group verifies):`);
  for (const entry of file.groups) {
    const verdict = verifyGroup(catalog, { ...source, file }, entry.name);
    const path = `${root}/${entry.name}`;
    if (!verdict.ok) {
      const first = verdict.errors[0];
      endpoints.push({ name: entry.name, refused: `it does not verify (${first ? `${first.code}: ${first.message}` : 'no tools'}); \`flowguard group verify ${entry.name}\` explains` });
      lines.push(`  ${path}: NOT served, the group does not verify:`, ...verdict.errors.map((finding) => `    ${formatFinding(finding)}`));
      continue;
    }
    const { served, alwaysLoad } = servedCount(verdict.tools);
    // A group that is not served has no say in the listing mode of another: each is chosen on its own size.
    const { mode } = chooseMode(setting, served, alwaysLoad, searchAbove);
    endpoints.push({ name: entry.name, serving: { tools: verdict.tools, prompts: verdict.prompts, discovery: mode } });
    lines.push(`  ${path}: ${servedLine(verdict.tools)}${mode === 'search' ? ' (discovery mode)' : ''}`, ...verdict.promptFindings.map((finding) => `    ${formatFinding(finding)}`));
  }
  return { endpoints, lines };
}
