// Tool groups, `.flowmcp/groups.json` (spec chapter 06, SPEC-NOTES §11): named sets of tools an
// operator has reviewed, pinned by hash. A group is served only while every tool it names still
// loads and still hashes to what was recorded, so a schema change cannot slip into a reviewed
// set unnoticed.
//
//   { "specVersion": "2.0.0",
//     "groups": {
//       "<name>": { "description": "...",
//                   "tools": ["namespace/file.mjs::route", ...],
//                   "hash": "sha256:<64 hex>" | null,
//                   "toolHashes": { "<ref>": "sha256:<64 hex>", ... },     optional
//                   "prompts": { "<prompt>": { "title", "description", "file" } } } } }   optional
//
// Every problem is a finding of the file (R1), with its path and position; a malformed file
// never throws:
//   GRP001  group name is not ^[a-z][a-z0-9-]*$
//   GRP002  more than 50 tools
//   GRP003  a reference is not `namespace/file.mjs::route`
//   GRP004  a reference resolves to no loaded tool (or to two); no group has the name asked for
//   GRP005  a reference is listed twice in one group
//   GRP006  the group's hash does not match its tools (naming each tool that changed)
//   GRP007  the file is unreadable, not JSON, or a field is missing, unknown or of the wrong type
//
// Decisions where the spec leaves it open:
// - Codes follow chapter 09 (R1). GRP007 is new: chapter 09 has no code for a file that is not
//   JSON or not of the groups shape, and R1 gives new checks free numbers in the range.
// - `toolHashes` (chapter 06 writes it into exports only) is also kept in groups.json, so that a
//   mismatch can name the tool that changed. It is optional: without it, GRP006 can only say that
//   the group as a whole differs. When present its keys are exactly the group's references.
// - An empty group has `hash: null` (chapter 06's new group); any other group the hash of its tools.
// - A reference must be exactly a loaded tool's reference (`namespace/<base name>.mjs::route`).
//   One that two tools share (two files of one base name in one namespace) is ambiguous: GRP004.
// - A tool hidden for a missing key still resolves: the group verifies; the server hides that
//   tool as it hides any other.
// - `prompts` (chapter 12) is checked for its shape only and kept as it is; prompt files are
//   not read here.
// - Problems of one group never block another: `selectGroup` looks only at the file's form and
//   the group asked for.

import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { childPath, FindingSink, type Finding } from '../findings.js';
import { isRecord, type RawObject } from '../raw.js';
import type { FileReport } from '../report/format.js';
import { expectedGroupHash, HASH_PATTERN, toolHash, type ToolHashEntry } from './hash.js';
import type { Tool } from './tools.js';

export const GROUPS_SPEC_VERSION = '2.0.0';
export const MAX_GROUP_TOOLS = 50;
export const GROUP_NAME_PATTERN = /^[a-z][a-z0-9-]*$/;
/** `namespace/file.mjs::route`: a namespace as main.namespace allows, a file's base name, a route name. */
export const TOOL_REFERENCE_PATTERN = /^[a-z]+\/[^/\\:]+\.mjs::\S(?:.*\S)?$/;

/** `.flowmcp/groups.json` of a project folder. */
export function groupsFilePath(project = '.'): string {
  return join(project, '.flowmcp', 'groups.json');
}

export interface GroupPrompt {
  title: string;
  description: string;
  file: string;
}

export interface Group {
  description: string;
  /** Tool references `namespace/file.mjs::route`, in the order the operator gave them. */
  tools: string[];
  /** The group hash of `tools` (see hash.ts); null for a group without tools. */
  hash: string | null;
  /** The tool hash of each reference when the group was recorded. */
  toolHashes?: Record<string, string>;
  prompts?: Record<string, GroupPrompt>;
}

/** The catalog as groups see it: its tools and, for better messages, its files' reports. */
export interface CatalogView {
  readonly tools: readonly Tool[];
  readonly reports?: readonly FileReport[];
}

/** One group as read from the file. */
export interface GroupEntry {
  name: string;
  /** The group's finding path, e.g. `groups.trading` or `groups["odd name"]`. */
  path: string;
  /** The group when its shape is right (other findings, e.g. GRP001, may still apply); else null. */
  group: Group | null;
  /** Findings of this group's form: GRP001, GRP002, GRP003, GRP005, GRP007. */
  findings: Finding[];
}

/** `.flowmcp/groups.json` read and checked for its form; nothing here needs a catalog. */
export interface GroupsFile {
  file: string;
  exists: boolean;
  /** The parsed JSON, kept as it is so that writing one group leaves the others untouched; null when missing or not JSON. */
  data: unknown;
  /** Findings of the file as a whole (GRP007): when there are any, no group can be trusted. */
  findings: Finding[];
  groups: GroupEntry[];
  /** A sink for more findings of this file, with its text and locator: later findings get line and column too. */
  readonly newSink: () => FindingSink;
}

/** One group checked against a catalog. */
export interface GroupCheck {
  name: string;
  path: string;
  group: Group | null;
  /** Form findings, then GRP004 and GRP006. */
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

// ---- reading -------------------------------------------------------------------------------

/** Reads and checks the form of a groups file. A missing file is an empty, valid one (`exists: false`). */
export function readGroupsFile(file: string): GroupsFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    const sink = new FindingSink(file);
    if (!missing) sink.add('GRP007', undefined, `cannot read the file: ${(error as Error).message}`);
    return { file, exists: !missing, data: null, findings: sink.findings, groups: [], newSink: () => new FindingSink(file) };
  }
  return parseGroupsText(file, text);
}

/** The same as readGroupsFile, for text already in hand. */
export function parseGroupsText(file: string, text: string): GroupsFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const sink = new FindingSink(file, text);
    sink.addAt('GRP007', errorOffset(error, text), `not valid JSON: ${(error as Error).message}`, 'groups.json is plain JSON: no comments, no trailing commas');
    return { file, exists: true, data: null, findings: sink.findings, groups: [], newSink: () => new FindingSink(file, text) };
  }
  const located = locateJson(text);
  const newSink = () => {
    const sink = new FindingSink(file, text);
    sink.useLocator((path) => located.offsets.get(path));
    return sink;
  };
  const top = newSink();
  for (const duplicate of located.duplicates) {
    if (duplicate.parent === 'groups') continue; // named with the group below
    top.add('GRP007', duplicate.path, `the key '${duplicate.key}' appears twice; JSON keeps only the last`, 'remove one of them');
  }
  const groups: GroupEntry[] = [];
  if (!isRecord(data)) {
    top.add('GRP007', undefined, 'the file is not a JSON object', `write { "specVersion": "${GROUPS_SPEC_VERSION}", "groups": {} }`);
  } else {
    for (const key of Object.keys(data)) {
      if (key !== 'specVersion' && key !== 'groups') top.add('GRP007', rootPath(key), `unknown field '${key}'`, 'a groups file has only specVersion and groups');
    }
    if (data.specVersion !== GROUPS_SPEC_VERSION) {
      top.add('GRP007', 'specVersion' in data ? 'specVersion' : undefined, `specVersion must be '${GROUPS_SPEC_VERSION}', found ${describe(data.specVersion)}`);
    }
    if (!isRecord(data.groups)) {
      top.add('GRP007', 'groups' in data ? 'groups' : undefined, `groups must be an object of groups by name, found ${describe(data.groups)}`);
    } else {
      const twice = new Set(located.duplicates.filter((d) => d.parent === 'groups').map((d) => d.key));
      for (const [name, raw] of Object.entries(data.groups)) {
        const sink = newSink();
        const path = childPath('groups', name);
        if (twice.has(name)) sink.add('GRP007', path, `the group '${name}' is defined twice; JSON keeps only the last`, 'rename or remove one of them');
        const group = readGroup(name, raw, path, sink);
        groups.push({ name, path, group, findings: sink.findings });
      }
    }
  }
  return { file, exists: true, data, findings: top.findings, groups, newSink };
}

const GROUP_FIELDS = new Set(['description', 'tools', 'hash', 'toolHashes', 'prompts']);
const PROMPT_FIELDS = ['title', 'description', 'file'] as const;

/** The form of one group: everything that can be said without a catalog. */
function readGroup(name: string, raw: unknown, path: string, sink: FindingSink): Group | null {
  checkGroupName(name, path, sink);
  if (!isRecord(raw)) {
    sink.add('GRP007', path, `a group is an object { description, tools, hash }, found ${describe(raw)}`);
    return null;
  }
  let shaped = true;
  for (const key of Object.keys(raw)) {
    if (!GROUP_FIELDS.has(key)) {
      sink.add('GRP007', childPath(path, key), `unknown field '${key}'`, 'a group has description, tools, hash and optionally toolHashes and prompts');
      shaped = false;
    }
  }
  if (typeof raw.description !== 'string') {
    sink.add('GRP007', 'description' in raw ? childPath(path, 'description') : path, `description must be a string, found ${describe(raw.description)}`);
    shaped = false;
  }
  let tools: string[] | null = null;
  if (!Array.isArray(raw.tools)) {
    sink.add('GRP007', 'tools' in raw ? childPath(path, 'tools') : path, `tools must be an array of tool references, found ${describe(raw.tools)}`);
    shaped = false;
  } else {
    tools = checkToolRefs(raw.tools, childPath(path, 'tools'), sink);
    if (tools === null) shaped = false;
  }
  const hash = raw.hash;
  if (hash !== null && !(typeof hash === 'string' && HASH_PATTERN.test(hash))) {
    sink.add('GRP007', 'hash' in raw ? childPath(path, 'hash') : path, `hash must be 'sha256:' and 64 lowercase hex digits, or null; found ${describe(hash)}`, 'flowguard group create records it');
    shaped = false;
  }
  const toolHashes = raw.toolHashes === undefined ? undefined : readToolHashes(raw.toolHashes, tools, childPath(path, 'toolHashes'), sink, name);
  if (toolHashes === null) shaped = false;
  const prompts = raw.prompts === undefined ? undefined : readPrompts(raw.prompts, childPath(path, 'prompts'), sink);
  if (prompts === null) shaped = false;
  if (!shaped || tools === null) return null;
  const group: Group = { description: raw.description as string, tools, hash: hash as string | null };
  if (toolHashes) group.toolHashes = toolHashes;
  if (prompts) group.prompts = prompts;
  return group;
}

function checkGroupName(name: string, path: string, sink: FindingSink): void {
  if (!GROUP_NAME_PATTERN.test(name)) {
    sink.add('GRP001', path, `group name '${name}' does not match ^[a-z][a-z0-9-]*$`, 'use lowercase letters, digits and -, starting with a letter');
  }
}

/** GRP002, GRP003 and GRP005 over a tools array; the references when every entry is a string, else null. */
function checkToolRefs(tools: readonly unknown[], path: string, sink: FindingSink): string[] | null {
  if (tools.length > MAX_GROUP_TOOLS) {
    sink.add('GRP002', path, `the group has ${tools.length} tools; at most ${MAX_GROUP_TOOLS} are allowed`, 'split it into smaller groups');
  }
  const seen = new Map<string, number>();
  let allStrings = true;
  tools.forEach((ref, index) => {
    const at = childPath(path, index);
    if (typeof ref !== 'string') {
      sink.add('GRP003', at, `a tool reference is a string 'namespace/file.mjs::route', found ${describe(ref)}`);
      allStrings = false;
      return;
    }
    if (!TOOL_REFERENCE_PATTERN.test(ref)) {
      sink.add('GRP003', at, `'${ref}' is not a tool reference 'namespace/file.mjs::route'`, 'e.g. coingecko/prices.mjs::getSimplePrice; `flowguard list` shows every reference');
    }
    const first = seen.get(ref);
    if (first !== undefined) sink.add('GRP005', at, `'${ref}' is listed twice (first at index ${first})`, 'list each tool once');
    else seen.set(ref, index);
  });
  return allStrings ? (tools as string[]) : null;
}

/** `tools` null: the group's tools are unreadable, so only the hashes' form is checked. */
function readToolHashes(raw: unknown, tools: readonly string[] | null, path: string, sink: FindingSink, name: string): Record<string, string> | null {
  if (!isRecord(raw)) {
    sink.add('GRP007', path, `toolHashes must be an object of hashes by tool reference, found ${describe(raw)}`);
    return null;
  }
  let ok = true;
  const listed = new Set(tools ?? []);
  for (const [ref, hash] of Object.entries(raw)) {
    if (tools !== null && !listed.has(ref)) {
      sink.add('GRP007', childPath(path, ref), `toolHashes names '${ref}', which is not one of the group's tools`);
      ok = false;
    } else if (typeof hash !== 'string' || !HASH_PATTERN.test(hash)) {
      sink.add('GRP007', childPath(path, ref), `a tool hash is 'sha256:' and 64 lowercase hex digits, found ${describe(hash)}`);
      ok = false;
    }
  }
  for (const ref of listed) {
    if (!Object.hasOwn(raw, ref)) {
      sink.add('GRP007', path, `toolHashes has no hash for '${ref}'`, rerecord(name));
      ok = false;
    }
  }
  return ok ? (raw as Record<string, string>) : null;
}

function readPrompts(raw: unknown, path: string, sink: FindingSink): Record<string, GroupPrompt> | null {
  if (!isRecord(raw)) {
    sink.add('GRP007', path, `prompts must be an object of prompts by name, found ${describe(raw)}`);
    return null;
  }
  let ok = true;
  for (const [name, prompt] of Object.entries(raw)) {
    const at = childPath(path, name);
    if (!isRecord(prompt)) {
      sink.add('GRP007', at, `a prompt is an object { title, description, file }, found ${describe(prompt)}`);
      ok = false;
      continue;
    }
    for (const key of Object.keys(prompt)) {
      if (!(PROMPT_FIELDS as readonly string[]).includes(key)) {
        sink.add('GRP007', childPath(at, key), `unknown field '${key}'`, 'a prompt has title, description and file');
        ok = false;
      }
    }
    for (const key of PROMPT_FIELDS) {
      if (typeof prompt[key] !== 'string') {
        sink.add('GRP007', key in prompt ? childPath(at, key) : at, `${key} must be a string, found ${describe(prompt[key])}`);
        ok = false;
      }
    }
  }
  return ok ? (raw as Record<string, GroupPrompt>) : null;
}

// ---- checking against a catalog --------------------------------------------------------------

/**
 * Every finding of a groups file: its form and, with a catalog, whether each reference resolves
 * (GRP004) and each group's hash matches its tools (GRP006). Without a catalog only the form is
 * checked.
 */
export function checkGroups(groups: GroupsFile, catalog?: CatalogView): GroupsReport {
  const index = catalog ? indexTools(catalog) : null;
  return {
    file: groups.file,
    exists: groups.exists,
    findings: groups.findings,
    groups: groups.groups.map((entry) => checkEntry(groups, entry, index, catalog?.reports ?? [])),
  };
}

/** Every finding of a report, file-level first. */
export function groupsFindings(report: GroupsReport): Finding[] {
  return [...report.findings, ...report.groups.flatMap((group) => group.findings)];
}

/**
 * The tools of one group, for serving (`flowguard serve --group NAME`): `ok` with the tools in the
 * group's order when the file's form is sound, the group exists, is well-formed, every reference
 * resolves to exactly one loaded tool and the recorded hash matches the tools' current hashes.
 * Otherwise `ok: false` with findings naming the problem: GRP004 for a group or tool that is
 * not there, GRP006 naming each tool that changed, GRP001–GRP003, GRP005, GRP007 for the form.
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
      known.length > 0 ? `groups in this file: ${known.join(', ')}` : 'create one with flowguard group create NAME --tools REF,REF',
    );
    return { ok: false, name, findings: sink.findings };
  }
  const check = checkEntry(file, entry, indexTools(catalog), catalog.reports ?? []);
  if (!check.ok || !check.group) return { ok: false, name, findings: check.findings };
  return { ok: true, name, group: check.group, tools: check.tools, findings: check.findings };
}

type ToolIndex = ReadonlyMap<string, readonly Tool[]>;

function indexTools(catalog: CatalogView): ToolIndex {
  const index = new Map<string, Tool[]>();
  for (const tool of catalog.tools) {
    const list = index.get(tool.reference);
    if (list) list.push(tool);
    else index.set(tool.reference, [tool]);
  }
  return index;
}

function checkEntry(file: GroupsFile, entry: GroupEntry, index: ToolIndex | null, reports: readonly FileReport[]): GroupCheck {
  const findings = [...entry.findings];
  const base = { name: entry.name, path: entry.path, group: entry.group };
  if (!entry.group || !index) {
    return { ...base, findings, tools: [], hashes: [], ok: !findings.some((f) => f.severity === 'error') && entry.group !== null };
  }
  const sink = file.newSink();
  const { tools, hashes } = resolveTools(entry.group.tools, entry.path, index, reports, sink);
  if (tools.length === new Set(entry.group.tools).size) {
    compareHashes(entry.group, entry.name, entry.path, hashes, sink);
  } else if (entry.group.toolHashes) {
    // Some tools are gone (GRP004 says which); the ones still here can still be compared one by one.
    for (const { ref, hash } of hashes) reportChangedTool(entry.group, entry.name, entry.path, ref, hash, sink);
  }
  findings.push(...sink.findings);
  return { ...base, findings, tools, hashes, ok: !findings.some((f) => f.severity === 'error') };
}

/** Resolves references to tools (GRP004 for those that do not); duplicates and malformed references resolve once or not at all. */
function resolveTools(refs: readonly string[], path: string, index: ToolIndex, reports: readonly FileReport[], sink: FindingSink): { tools: Tool[]; hashes: ToolHashEntry[] } {
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
      sink.add('GRP004', at, `'${ref}' is ambiguous: ${found.length} loaded tools have this reference (${found.map((tool) => tool.schema.file).join(', ')})`, 'rename one of the schema files: a reference names a file by its base name');
    } else {
      sink.add('GRP004', at, `'${ref}' resolves to no loaded tool`, unresolvedHint(ref, index, reports));
    }
  });
  return { tools, hashes };
}

function unresolvedHint(ref: string, index: ToolIndex, reports: readonly FileReport[]): string {
  const [fileRef = '', route = ''] = ref.split('::', 2);
  const fileName = fileRef.slice(fileRef.indexOf('/') + 1);
  const rejected = reports.find((report) => basename(report.file) === fileName && report.findings.some((f) => f.severity === 'error'));
  if (rejected) {
    const first = rejected.findings.find((f) => f.severity === 'error') as Finding;
    return `${rejected.file} cannot be loaded (${first.code}: ${first.message}); flowguard validate shows why`;
  }
  const similar = [...index.keys()].filter((candidate) => candidate.startsWith(`${fileRef}::`) || candidate.endsWith(`::${route}`)).slice(0, 3);
  if (similar.length > 0) return `did you mean ${similar.join(', ')}?`;
  return 'the schema or route is not in the catalog; flowguard list shows every loaded tool';
}

function compareHashes(group: Group, name: string, path: string, hashes: readonly ToolHashEntry[], sink: FindingSink): void {
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
    if (changed.length === 0) sink.add('GRP006', hashPath, 'the group hash does not match the recorded tool hashes: the file was edited by hand', rerecord(name));
    return;
  }
  sink.add('GRP006', hashPath, `the group hash does not match its tools (recorded ${group.hash}, now ${expected ?? 'null'}); without toolHashes the changed tool cannot be named`, `review the tools, then ${rerecord(name)}`);
}

function reportChangedTool(group: Group, name: string, path: string, ref: string, hash: string, sink: FindingSink): void {
  const recorded = group.toolHashes?.[ref];
  if (recorded === undefined || recorded === hash) return;
  const at = childPath(childPath(path, 'tools'), group.tools.indexOf(ref));
  sink.add('GRP006', at, `tool ${ref} changed since the group was recorded (recorded ${recorded}, now ${hash})`, `review the change (git diff, flowguard validate), then ${rerecord(name)}`);
}

/** The command that records a group's hashes again. */
function rerecord(name: string): string {
  return `record the group again: flowguard group create ${name} --force`;
}

// ---- creating and writing ---------------------------------------------------------------------

export interface BuildGroupOptions {
  description?: string;
  /** Kept as they are (e.g. the prompts of the group this one replaces). */
  prompts?: Record<string, GroupPrompt>;
}

/**
 * A new group over `tools` (references, or MCP tool names, which are replaced by their
 * references), with its hashes computed from the catalog, or the findings that stop it:
 * GRP001–GRP005 as a stored group would get them. Paths point into `file` as it will be.
 */
export function buildGroup(catalog: CatalogView, file: GroupsFile, name: string, tools: readonly string[], options: BuildGroupOptions = {}): { group: Group | null; findings: Finding[] } {
  const index = indexTools(catalog);
  const byName = new Map(catalog.tools.map((tool) => [tool.name, tool.reference]));
  const refs = tools.map((tool) => (index.has(tool) ? tool : byName.get(tool) ?? tool));
  const path = childPath('groups', name);
  const sink = file.newSink();
  checkGroupName(name, path, sink);
  checkToolRefs(refs, childPath(path, 'tools'), sink);
  const resolved = resolveTools(refs, path, index, catalog.reports ?? [], sink);
  if (sink.hasErrors()) return { group: null, findings: sink.findings };
  const toolHashes = Object.fromEntries(resolved.hashes.map(({ ref, hash }) => [ref, hash]));
  const group: Group = { description: options.description ?? '', tools: [...refs], hash: expectedGroupHash(resolved.hashes), toolHashes };
  if (options.prompts) group.prompts = options.prompts;
  return { group, findings: sink.findings };
}

/**
 * The file's document with `group` put under `name`: in its place when the name exists, else
 * last. Every other group and key is kept as it was read. Throws when the file has file-level
 * errors (it would be overwritten with less than it holds); check `file.findings` first.
 */
export function withGroup(file: GroupsFile, name: string, group: Group): RawObject {
  if (file.findings.some((f) => f.severity === 'error')) throw new Error(`${file.file} has errors; it is not rewritten`);
  const data = isRecord(file.data) ? file.data : {};
  const groups = isRecord(data.groups) ? data.groups : {};
  const entries = Object.entries(groups);
  const at = entries.findIndex(([key]) => key === name);
  if (at >= 0) entries[at] = [name, groupJson(group)];
  else entries.push([name, groupJson(group)]);
  return { specVersion: GROUPS_SPEC_VERSION, groups: Object.fromEntries(entries) };
}

/** A group with its keys in the one order the file uses. */
export function groupJson(group: Group): RawObject {
  const json: RawObject = { description: group.description, tools: [...group.tools], hash: group.hash };
  if (group.toolHashes) json.toolHashes = Object.fromEntries(group.tools.flatMap((ref) => (group.toolHashes?.[ref] ? [[ref, group.toolHashes[ref]]] : [])));
  if (group.prompts) json.prompts = group.prompts;
  return json;
}

/**
 * Writes a groups document as 2-space JSON with a final newline, atomically: a temporary file in
 * the same folder, then a rename over the old one, so a reader sees the old file or the new one,
 * never half of one. Creates the folder if needed.
 */
export function writeGroupsFile(file: string, document: unknown): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  const temporary = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(temporary, `${JSON.stringify(document, null, 2)}\n`, { encoding: 'utf8', flag: 'wx' });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

// ---- JSON positions ------------------------------------------------------------------------------

interface JsonLocations {
  /** Offset of each member's key (or each array element) by finding path, to the depth a groups file has. */
  offsets: Map<string, number>;
  /** Keys written twice in one object. */
  duplicates: Array<{ parent: string; key: string; path: string }>;
}

// groups.<name>.prompts.<prompt>.<field> is the deepest path a finding names.
const MAX_LOCATED_DEPTH = 5;

/**
 * Where each value of a JSON text starts, for line and column in findings. Runs only on text
 * JSON.parse has accepted. Recursion stops at MAX_LOCATED_DEPTH; deeper values are skipped by a
 * loop, so a deeply nested file cannot exhaust the stack.
 */
function locateJson(text: string): JsonLocations {
  const offsets = new Map<string, number>([['', 0]]);
  const duplicates: JsonLocations['duplicates'] = [];
  let at = 0;
  const space = () => {
    while (at < text.length && ' \t\r\n'.includes(text.charAt(at))) at += 1;
  };
  const skipString = () => {
    at += 1;
    while (at < text.length && text.charAt(at) !== '"') at += text.charAt(at) === '\\' ? 2 : 1;
    at += 1;
  };
  const skipValue = () => {
    const c = text.charAt(at);
    if (c === '"') {
      skipString();
      return;
    }
    if (c !== '{' && c !== '[') {
      while (at < text.length && !',}] \t\r\n'.includes(text.charAt(at))) at += 1;
      return;
    }
    let depth = 0;
    while (at < text.length) {
      const d = text.charAt(at);
      if (d === '"') {
        skipString();
        continue;
      }
      at += 1;
      if (d === '{' || d === '[') depth += 1;
      else if ((d === '}' || d === ']') && --depth === 0) return;
    }
  };
  const value = (path: string, depth: number): void => {
    space();
    offsets.set(path, offsets.get(path) ?? at);
    const c = text.charAt(at);
    if (depth >= MAX_LOCATED_DEPTH || (c !== '{' && c !== '[')) {
      skipValue();
      return;
    }
    at += 1;
    space();
    const close = c === '{' ? '}' : ']';
    const keys = new Set<string>();
    for (let index = 0; text.charAt(at) !== close && at < text.length; index += 1) {
      if (c === '{') {
        const start = at;
        skipString();
        const key = JSON.parse(text.slice(start, at)) as string;
        const child = path === '' ? rootPath(key) : childPath(path, key);
        if (keys.has(key)) duplicates.push({ parent: path, key, path: child });
        keys.add(key);
        offsets.set(child, start);
        space();
        at += 1; // ':'
        value(child, depth + 1);
      } else {
        value(childPath(path, index), depth + 1);
      }
      space();
      if (text.charAt(at) === ',') at += 1;
      space();
    }
    at += 1;
  };
  value('', 0);
  return { offsets, duplicates };
}

/** A top-level key as a finding path: `groups`, or `["odd key"]`. */
function rootPath(key: string): string {
  return childPath('', key).replace(/^\./, '');
}

function errorOffset(error: unknown, text: string): number | undefined {
  const match = /position (\d+)/.exec((error as Error).message);
  if (match) return Math.min(Number(match[1]), text.length);
  return undefined;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value);
  return `${typeof value} ${text.length > 40 ? `${text.slice(0, 37)}...` : text}`;
}
