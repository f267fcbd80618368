// Reading `.flowmcp/groups.json` and checking its form (shape.ts): everything that can be
// said without a catalog. verify.ts checks a group against a catalog, write.ts
// records one and writes the file, content.ts takes a group's content record.
//
// Every problem is a finding of the file (R1), with its path and position; a malformed file
// never throws. The file's own fields and each group are checked by the shapes' generated
// validators; beside them, code says what a JSON Schema cannot: a key written twice (JSON.parse
// keeps the last), a reference listed twice (GRP005), `toolHashes` keyed by exactly the tools.
//
// `contentHash` and `content` (content.ts) come together or not at all: a groups file
// written before flowguard recorded them is still read, and such a group fails its check
// against a catalog with GRP009 until it is recorded again.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { childPath, FindingSink, type Finding } from '../report/findings.js';
import { type Code } from '../report/codes.js';
import { jsonErrorOffset, locateJson } from '../report/json-locate.js';
import { isRecord } from '../shared/raw.js';
import { checkShape, shapeProblems } from '../shapes/problems.js';
import type { GroupPromptEntry } from '../prompts/group-prompts.js';
import type { ContentRecord } from './hash.js';
import { GROUP_FIELDS, rerecord } from './shape.js';
import { validateGroupEntry, validateGroupsFile } from './shape.generated.js';

/** `.flowmcp/groups.json` of a project folder. */
export function groupsFilePath(project = '.'): string {
  return join(project, '.flowmcp', 'groups.json');
}

/** A group's prompt as groups.json records it (the prompts room reads and serves it). */
export type GroupPrompt = GroupPromptEntry;

export interface Group {
  description: string;
  /** Tool references `namespace/file.mjs::route`, in the order the operator gave them. */
  tools: string[];
  /** The group hash of `tools` (see hash.ts); null for a group without tools. */
  hash: string | null;
  /** The tool hash of each reference when the group was recorded. */
  toolHashes?: Record<string, string>;
  /** The hash of `content`; both are absent in a group recorded by an older flowguard. */
  contentHash?: string;
  /** What decides what the tools do beyond their tool hashes (content.ts). */
  content?: ContentRecord;
  prompts?: Record<string, GroupPrompt>;
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
    return {
      file,
      exists: !missing,
      data: null,
      findings: sink.findings,
      groups: [],
      newSink: () => new FindingSink(file),
    };
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
    sink.addAt(
      'GRP007',
      jsonErrorOffset(error, text),
      `not valid JSON: ${(error as Error).message}`,
      'groups.json is plain JSON: no comments, no trailing commas',
    );
    return {
      file,
      exists: true,
      data: null,
      findings: sink.findings,
      groups: [],
      newSink: () => new FindingSink(file, text),
    };
  }
  const located = locateJson(text, MAX_LOCATED_DEPTH);
  const newSink = () => {
    const sink = new FindingSink(file, text);
    sink.useLocator((path) => located.offsets.get(path));
    return sink;
  };
  const top = newSink();
  for (const duplicate of located.duplicates) {
    if (duplicate.parent === 'groups') continue; // named with the group below
    top.add(
      'GRP007',
      duplicate.path,
      `the key '${duplicate.key}' appears twice; JSON keeps only the last`,
      'remove one of them',
    );
  }
  const groups: GroupEntry[] = [];
  checkShape(validateGroupsFile, data, { root: '', fallback: 'GRP007' }, top);
  if (isRecord(data) && isRecord(data.groups)) {
    const twice = new Set(located.duplicates.filter((d) => d.parent === 'groups').map((d) => d.key));
    for (const [name, raw] of Object.entries(data.groups)) {
      const sink = newSink();
      const path = childPath('groups', name);
      if (twice.has(name))
        sink.add(
          'GRP007',
          path,
          `the group '${name}' is defined twice; JSON keeps only the last`,
          'rename or remove one of them',
        );
      const group = checkGroupForm(name, raw, sink);
      groups.push({ name, path, group, findings: sink.findings });
    }
  }
  return { file, exists: true, data, findings: top.findings, groups, newSink };
}

// groups.<name>.prompts.<prompt>.<field> and groups.<name>.content.<section>.<key> are the
// deepest paths a finding names.
const MAX_LOCATED_DEPTH = 5;

/** One problem of a group's form, before it is listed in the order of the group's fields. */
interface FormProblem {
  code: Code;
  path: string | undefined;
  message: string;
  hint?: string | undefined;
}

/**
 * The form of one group under its name (GRP001–GRP003, GRP005, GRP007), its findings added to
 * `sink` field by field; the group when it can be read: a name, a reference or too many tools
 * leave it readable (verify.ts resolves its references one by one), a missing, unknown or
 * mistyped field (GRP007) or a reference that is no string does not.
 */
export function checkGroupForm(name: string, raw: unknown, sink: FindingSink): Group | null {
  const path = childPath('groups', name);
  const shape: FormProblem[] = shapeProblems(
    validateGroupEntry,
    { [name]: raw },
    { root: 'groups', vars: { group: name } },
  ).map((problem) => ({ ...problem, code: problem.code ?? 'GRP007' }));
  const record = isRecord(raw) ? raw : null;
  const tools =
    record && Array.isArray(record.tools) && record.tools.every((ref) => typeof ref === 'string')
      ? (record.tools as string[])
      : null;
  const refused = new Set(shape.map((problem) => problem.path));
  const semantic = [
    ...repeatedTools(record?.tools, childPath(path, 'tools')),
    ...toolHashProblems(record?.toolHashes, tools, childPath(path, 'toolHashes'), name, refused),
  ];
  const problems = [...shape, ...semantic];
  for (const problem of inFieldOrder(problems, path))
    sink.add(problem.code, problem.path, problem.message, problem.hint);
  const readable = record !== null && tools !== null && !problems.some((problem) => problem.code === 'GRP007');
  if (!readable) return null;
  const group: Group = { description: record.description as string, tools, hash: record.hash as string | null };
  if (record.toolHashes !== undefined) group.toolHashes = record.toolHashes as Record<string, string>;
  if (record.contentHash !== undefined) {
    group.contentHash = record.contentHash as string;
    group.content = record.content as ContentRecord;
  }
  if (record.prompts !== undefined) group.prompts = record.prompts as Record<string, GroupPrompt>;
  return group;
}

/** GRP005 for each reference that repeats an earlier one, at the repeat. */
function repeatedTools(tools: unknown, path: string): FormProblem[] {
  if (!Array.isArray(tools)) return [];
  const first = new Map<string, number>();
  const problems: FormProblem[] = [];
  tools.forEach((ref: unknown, index) => {
    if (typeof ref !== 'string') return;
    const seen = first.get(ref);
    if (seen === undefined) first.set(ref, index);
    else
      problems.push({
        code: 'GRP005',
        path: childPath(path, index),
        message: `'${ref}' is listed twice (first at index ${seen})`,
        hint: 'list each tool once',
      });
  });
  return problems;
}

/**
 * `toolHashes` names exactly the group's tools; checked only when the tools can be read. An
 * entry the shape refused (no hash) is not reported again.
 */
function toolHashProblems(
  toolHashes: unknown,
  tools: readonly string[] | null,
  path: string,
  name: string,
  refused: ReadonlySet<string | undefined>,
): FormProblem[] {
  if (!isRecord(toolHashes) || tools === null) return [];
  const listed = new Set(tools);
  const problems: FormProblem[] = [];
  for (const ref of Object.keys(toolHashes)) {
    if (!listed.has(ref) && !refused.has(childPath(path, ref)))
      problems.push({
        code: 'GRP007',
        path: childPath(path, ref),
        message: `toolHashes names '${ref}', which is not one of the group's tools`,
      });
  }
  for (const ref of listed) {
    if (!Object.hasOwn(toolHashes, ref))
      problems.push({ code: 'GRP007', path, message: `toolHashes has no hash for '${ref}'`, hint: rerecord(name) });
  }
  return problems;
}

/**
 * A group's problems as a reader goes through the group: the group itself and unknown fields
 * first, then field by field in the shape's order, a list's items by index. Stable: problems
 * of one place keep their order.
 */
function inFieldOrder(problems: readonly FormProblem[], groupPath: string): FormProblem[] {
  const place = (problem: FormProblem): [number, number] => {
    const below = problem.path?.startsWith(groupPath) ? problem.path.slice(groupPath.length) : '';
    const match = /^\.([A-Za-z_$][\w$]*)(?:\[(\d+)\])?/.exec(below);
    if (!match) return [-1, 0];
    return [GROUP_FIELDS.indexOf(match[1] as string), Number(match[2] ?? -1)];
  };
  const places = new Map(problems.map((problem) => [problem, place(problem)]));
  return [...problems].sort((a, b) => {
    const [fieldA, indexA] = places.get(a) as [number, number];
    const [fieldB, indexB] = places.get(b) as [number, number];
    return fieldA - fieldB || indexA - indexB;
  });
}
