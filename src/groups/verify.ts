// Tool groups, `.flowmcp/groups.json` (spec chapter 06, SPEC-NOTES §11, decision R10): named sets
// of tools an operator has reviewed. A group is served only while every tool it names still
// loads, still hashes to what was recorded (the spec's tool hash) and its content record still
// matches (every schema file, shared list and library its tools depend on), so a change cannot
// slip into a reviewed set unnoticed. groups-file.ts reads the file and checks its form; this
// module checks a group against a catalog; write.ts records one and writes the file.
//
// The findings a catalog adds to the form's (GRP001–GRP003, GRP005, GRP007):
//   GRP004  a reference resolves to no loaded tool (or to two); no group has the name asked for
//   GRP006  the group's hash does not match its tools (naming each tool that changed)
//   GRP008  the content record does not match (naming each schema file, list and library)
//   GRP009  the group has tools but no content record (written by an older flowguard)
//
// Decisions where the spec leaves it open:
// - Codes follow chapter 09 (R1). GRP007, GRP008 and GRP009 are new: chapter 09 has no code for
//   a file that is not of the groups shape, nor a content record (R10 adds it), and R1 gives new
//   checks free numbers in the range.
// - `toolHashes` (chapter 06 writes it into exports only) is also kept in groups.json, so that a
//   mismatch can name the tool that changed. It is optional: without it, GRP006 can only say that
//   the group as a whole differs. When present its keys are exactly the group's references.
// - The spec's tool hash is kept as it is; the content record is flowguard's own addition.
//   A group without one fails (GRP009) rather than verifying by its tool hashes alone: those
//   miss root, headers, descriptions and handlers. An empty group needs none.
// - An empty group has `hash: null` (chapter 06's new group); any other group the hash of its tools.
// - A reference must be exactly a loaded tool's reference (`namespace/<base name>.mjs::route`).
//   One that two tools share (two files of one base name in one namespace) is ambiguous: GRP004.
// - A tool hidden for a missing key still resolves: the group verifies; the server hides that
//   tool as it hides any other.
// - `prompts` (chapter 12) is checked for its shape only and kept as it is; prompt files are
//   not read here.
// - Problems of one group never block another: `selectGroup` looks only at the file's form and
//   the group asked for.

import { basename } from 'node:path';
import { childPath, type Finding, type FindingSink } from '../report/findings.js';
import type { FileReport } from '../report/format.js';
import { contentChanges, recordContent, type ContentChange, type ContentSources } from './content.js';
import { readGroupsFile, type Group, type GroupEntry, type GroupsFile } from './groups-file.js';
import { rerecord, TOOL_REFERENCE_PATTERN } from './shape.js';
import { contentHash, expectedGroupHash, toolHash, type ContentRecord, type ToolHashEntry } from './hash.js';
import type { Tool } from '../catalog/tools.js';

/**
 * The catalog as groups see it: its tools, where their content is read (the project folder and
 * the loaded shared lists) and, for better messages, its files' reports.
 */
export interface CatalogView extends ContentSources {
  readonly tools: readonly Tool[];
  readonly reports?: readonly FileReport[];
}

/** One group checked against a catalog. */
export interface GroupCheck {
  name: string;
  path: string;
  group: Group | null;
  /** Form findings, then GRP004, GRP006, GRP008 and GRP009. */
  findings: Finding[];
  /** The group's tools in its order; complete only when every reference resolved. */
  tools: Tool[];
  /** Current tool hashes of the resolved tools. */
  hashes: ToolHashEntry[];
  /** No error: checked against a catalog, the group may be served; without one, its form is sound. */
  ok: boolean;
}

export interface GroupsReport {
  file: string;
  exists: boolean;
  /** File-level findings (GRP007). */
  findings: Finding[];
  groups: GroupCheck[];
}

export type GroupSelection =
  | { ok: true; name: string; group: Group; tools: Tool[]; findings: Finding[] }
  | { ok: false; name: string; findings: Finding[] };

// ---- checking against a catalog --------------------------------------------------------------

/**
 * Every finding of a groups file: its form and, with a catalog, whether each reference resolves
 * (GRP004), each group's hash matches its tools (GRP006) and its content record what its tools
 * depend on now (GRP008, GRP009). Without a catalog only the form is checked.
 */
export function checkGroups(groups: GroupsFile, catalog?: CatalogView): GroupsReport {
  const indexed = catalog ? indexCatalog(catalog) : null;
  return {
    file: groups.file,
    exists: groups.exists,
    findings: groups.findings,
    groups: groups.groups.map((entry) => checkEntry(groups, entry, indexed)),
  };
}

/** Every finding of a report, file-level first. */
export function groupsFindings(report: GroupsReport): Finding[] {
  return [...report.findings, ...report.groups.flatMap((group) => group.findings)];
}

/**
 * The tools of one group, for serving (`flowguard serve --group NAME`): `ok` with the tools in the
 * group's order when the file's form is sound, the group exists, is well-formed, every reference
 * resolves to exactly one loaded tool, the recorded hash matches the tools' current hashes and
 * the content record matches the files, lists and libraries as they are now. Otherwise
 * `ok: false` with findings naming the problem: GRP004 for a group or tool that is not there,
 * GRP006 naming each tool that changed, GRP008 naming each schema file, shared list or library
 * that changed, GRP009 for a group without a content record, GRP001–GRP003, GRP005, GRP007 for
 * the form.
 * `groups` is the file's path (e.g. `groupsFilePath(project)`) or a file already read.
 * Tools hidden for a missing key are part of the selection; serve them as any other tool
 * (`tool.missingKeys`). Nothing here throws for a bad file.
 */
export function selectGroup(catalog: CatalogView, groups: string | GroupsFile, name: string): GroupSelection {
  const file = typeof groups === 'string' ? readGroupsFile(groups) : groups;
  if (file.findings.some((f) => f.severity === 'error')) return { ok: false, name, findings: file.findings };
  const entry = file.groups.find((candidate) => candidate.name === name);
  if (!entry) {
    const sink = file.newSink();
    const known = file.groups.map((candidate) => candidate.name);
    sink.add(
      'GRP004',
      file.exists ? 'groups' : undefined,
      file.exists ? `no group named '${name}'` : `no group named '${name}': the file does not exist`,
      known.length > 0
        ? `groups in this file: ${known.join(', ')}`
        : 'create one with flowguard group create NAME --tools REF,REF',
    );
    return { ok: false, name, findings: sink.findings };
  }
  const check = checkEntry(file, entry, indexCatalog(catalog));
  if (!check.ok || !check.group) return { ok: false, name, findings: check.findings };
  return { ok: true, name, group: check.group, tools: check.tools, findings: check.findings };
}

export type ToolIndex = ReadonlyMap<string, readonly Tool[]>;

interface IndexedCatalog {
  catalog: CatalogView;
  index: ToolIndex;
}

export function indexCatalog(catalog: CatalogView): IndexedCatalog {
  const index = new Map<string, Tool[]>();
  for (const tool of catalog.tools) {
    const list = index.get(tool.reference);
    if (list) list.push(tool);
    else index.set(tool.reference, [tool]);
  }
  return { catalog, index };
}

function checkEntry(file: GroupsFile, entry: GroupEntry, indexed: IndexedCatalog | null): GroupCheck {
  const findings = [...entry.findings];
  const base = { name: entry.name, path: entry.path, group: entry.group };
  if (!entry.group || !indexed) {
    return {
      ...base,
      findings,
      tools: [],
      hashes: [],
      ok: !findings.some((f) => f.severity === 'error') && entry.group !== null,
    };
  }
  const { catalog, index } = indexed;
  const sink = file.newSink();
  const { tools, hashes } = resolveTools(entry.group.tools, entry.path, index, catalog.reports ?? [], sink);
  const complete = tools.length === new Set(entry.group.tools).size;
  if (complete) {
    compareHashes(entry.group, entry.name, entry.path, hashes, sink);
  } else if (entry.group.toolHashes) {
    // Some tools are gone (GRP004 says which); the ones still here can still be compared one by one.
    for (const { ref, hash } of hashes) reportChangedTool(entry.group, entry.name, entry.path, ref, hash, sink);
  }
  compareContent(entry.group, entry.name, entry.path, recordContent(tools, catalog), complete, sink);
  findings.push(...sink.findings);
  return { ...base, findings, tools, hashes, ok: !findings.some((f) => f.severity === 'error') };
}

/** Resolves references to tools (GRP004 for those that do not); duplicates and malformed references resolve once or not at all. */
export function resolveTools(
  refs: readonly string[],
  path: string,
  index: ToolIndex,
  reports: readonly FileReport[],
  sink: FindingSink,
): { tools: Tool[]; hashes: ToolHashEntry[] } {
  const tools: Tool[] = [];
  const hashes: ToolHashEntry[] = [];
  const done = new Set<string>();
  refs.forEach((ref, position) => {
    if (done.has(ref) || !TOOL_REFERENCE_PATTERN.test(ref)) return;
    done.add(ref);
    const at = childPath(childPath(path, 'tools'), position);
    const found = index.get(ref) ?? [];
    if (found.length === 1) {
      const tool = found[0] as Tool;
      tools.push(tool);
      hashes.push({ ref, hash: toolHash(tool.schema, tool.route) });
    } else if (found.length > 1) {
      sink.add(
        'GRP004',
        at,
        `'${ref}' is ambiguous: ${found.length} loaded tools have this reference (${found.map((tool) => tool.schema.file).join(', ')})`,
        'rename one of the schema files: a reference names a file by its base name',
      );
    } else {
      sink.add('GRP004', at, `'${ref}' resolves to no loaded tool`, unresolvedHint(ref, index, reports));
    }
  });
  return { tools, hashes };
}

function unresolvedHint(ref: string, index: ToolIndex, reports: readonly FileReport[]): string {
  const [fileRef = '', route = ''] = ref.split('::', 2);
  const fileName = fileRef.slice(fileRef.indexOf('/') + 1);
  const rejected = reports.find(
    (report) => basename(report.file) === fileName && report.findings.some((f) => f.severity === 'error'),
  );
  if (rejected) {
    const first = rejected.findings.find((f) => f.severity === 'error') as Finding;
    return `${rejected.file} cannot be loaded (${first.code}: ${first.message}); flowguard validate shows why`;
  }
  const similar = [...index.keys()]
    .filter((candidate) => candidate.startsWith(`${fileRef}::`) || candidate.endsWith(`::${route}`))
    .slice(0, 3);
  if (similar.length > 0) return `did you mean ${similar.join(', ')}?`;
  return 'the schema or route is not in the catalog; flowguard list shows every loaded tool';
}

function compareHashes(
  group: Group,
  name: string,
  path: string,
  hashes: readonly ToolHashEntry[],
  sink: FindingSink,
): void {
  const expected = expectedGroupHash(hashes);
  const changed = hashes.filter(({ ref, hash }) => group.toolHashes !== undefined && group.toolHashes[ref] !== hash);
  if (expected === group.hash && changed.length === 0) return;
  const hashPath = childPath(path, 'hash');
  if (hashes.length === 0) {
    sink.add('GRP006', hashPath, `a group without tools has hash null, found ${group.hash}`, 'set hash to null');
    return;
  }
  if (group.hash === null) {
    sink.add('GRP006', hashPath, 'the group has tools but no hash: it was never recorded', rerecord(name));
    return;
  }
  if (group.toolHashes) {
    for (const { ref, hash } of changed) reportChangedTool(group, name, path, ref, hash, sink);
    if (changed.length === 0)
      sink.add(
        'GRP006',
        hashPath,
        'the group hash does not match the recorded tool hashes: the file was edited by hand',
        rerecord(name),
      );
    return;
  }
  sink.add(
    'GRP006',
    hashPath,
    `the group hash does not match its tools (recorded ${group.hash}, now ${expected ?? 'null'}); without toolHashes the changed tool cannot be named`,
    `review the tools, then ${rerecord(name)}`,
  );
}

function reportChangedTool(
  group: Group,
  name: string,
  path: string,
  ref: string,
  hash: string,
  sink: FindingSink,
): void {
  const recorded = group.toolHashes?.[ref];
  if (recorded === undefined || recorded === hash) return;
  const at = childPath(childPath(path, 'tools'), group.tools.indexOf(ref));
  sink.add(
    'GRP006',
    at,
    `tool ${ref} changed since the group was recorded (recorded ${recorded}, now ${hash})`,
    `review the change (git diff, flowguard validate), then ${rerecord(name)}`,
  );
}

/** GRP009 for a group with tools and no content record; GRP008 for each difference from it. */
function compareContent(
  group: Group,
  name: string,
  path: string,
  current: ContentRecord,
  complete: boolean,
  sink: FindingSink,
): void {
  if (!group.content || group.contentHash === undefined) {
    if (group.tools.length > 0) {
      sink.add(
        'GRP009',
        path,
        'the group has no content record (contentHash, content): it was recorded by an older flowguard, so a change to a schema file (root, headers, descriptions, handlers), a shared list or a library cannot be detected',
        `review the group's schema files, then ${rerecord(name)}`,
      );
    }
    return;
  }
  const changes = contentChanges(group.content, current, complete);
  for (const change of changes)
    sink.add(
      'GRP008',
      changePath(path, change),
      change.message,
      `review the change (git diff, flowguard validate), then ${rerecord(name)}`,
    );
  if (changes.length === 0 && complete && contentHash(current) !== group.contentHash) {
    sink.add(
      'GRP008',
      childPath(path, 'contentHash'),
      'the contentHash does not match the content record: the file was edited by hand',
      rerecord(name),
    );
  }
}

/** A change's place in the file: its recorded entry, or the section a new entry would go in. */
function changePath(path: string, change: ContentChange): string {
  const section = childPath(childPath(path, 'content'), change.section);
  return change.recorded ? childPath(section, change.key) : section;
}
