// Reading `.flowmcp/groups.json` (spec chapter 06, SPEC-NOTES §11) and checking its form:
// everything that can be said without a catalog. groups.ts checks a group against a catalog.
//
//   { "specVersion": "2.0.0",
//     "groups": {
//       "<name>": { "description": "...",
//                   "tools": ["namespace/file.mjs::route", ...],
//                   "hash": "sha256:<64 hex>" | null,
//                   "toolHashes": { "<ref>": "sha256:<64 hex>", ... },               optional
//                   "contentHash": "sha256:<64 hex>",                                 optional
//                   "content": { "files": { "<namespace/file.mjs>": "sha256:..." },   with contentHash
//                                "lists": { "<list name>": "sha256:..." },
//                                "libraries": { "<package>": "<version>" } },
//                   "prompts": { "<prompt>": { "title", "description", "file" } } } } }   optional
//
// Every problem is a finding of the file (R1), with its path and position; a malformed file
// never throws. The form codes: GRP001 (name), GRP002 (more than 50 tools), GRP003 (a reference
// is not `namespace/file.mjs::route`), GRP005 (a reference twice), GRP007 (unreadable, not JSON,
// a field missing, unknown or of the wrong type, a key written twice).
//
// `contentHash` and `content` (group-content.ts) come together or not at all: a groups file
// written before flowguard recorded them is still read, and such a group fails its check
// against a catalog with GRP009 until it is recorded again.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { childPath, FindingSink, type Finding } from '../report/findings.js';
import { isRecord } from '../shared/raw.js';
import { HASH_PATTERN, type ContentRecord } from './hash.js';
import { locateJson, rootPath } from '../report/json-locate.js';

export const GROUPS_SPEC_VERSION = '2.0.0';
export const MAX_GROUP_TOOLS = 50;
export const GROUP_NAME_PATTERN = /^[a-z][a-z0-9-]*$/;
/** `namespace/file.mjs::route`: a namespace as main.namespace allows, a file's base name, a route name. */
export const TOOL_REFERENCE_PATTERN = /^[a-z][a-z0-9-]*\/[^/\\:]+\.mjs::\S(?:.*\S)?$/;

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
  /** The hash of `content`; both are absent in a group recorded by an older flowguard. */
  contentHash?: string;
  /** What decides what the tools do beyond their tool hashes (group-content.ts). */
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
  const located = locateJson(text, MAX_LOCATED_DEPTH);
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

// groups.<name>.prompts.<prompt>.<field> and groups.<name>.content.<section>.<key> are the
// deepest paths a finding names.
const MAX_LOCATED_DEPTH = 5;
const GROUP_FIELDS = new Set(['description', 'tools', 'hash', 'toolHashes', 'contentHash', 'content', 'prompts']);
const CONTENT_SECTIONS = ['files', 'lists', 'libraries'] as const;
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
      sink.add('GRP007', childPath(path, key), `unknown field '${key}'`, 'a group has description, tools, hash and optionally toolHashes, contentHash with content, and prompts');
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
  const content = readContent(raw, path, sink, name);
  if (content === null) shaped = false;
  const prompts = raw.prompts === undefined ? undefined : readPrompts(raw.prompts, childPath(path, 'prompts'), sink);
  if (prompts === null) shaped = false;
  if (!shaped || tools === null) return null;
  const group: Group = { description: raw.description as string, tools, hash: hash as string | null };
  if (toolHashes) group.toolHashes = toolHashes;
  if (content) Object.assign(group, content);
  if (prompts) group.prompts = prompts;
  return group;
}

export function checkGroupName(name: string, path: string, sink: FindingSink): void {
  if (!GROUP_NAME_PATTERN.test(name)) {
    sink.add('GRP001', path, `group name '${name}' does not match ^[a-z][a-z0-9-]*$`, 'use lowercase letters, digits and -, starting with a letter');
  }
}

/** GRP002, GRP003 and GRP005 over a tools array; the references when every entry is a string, else null. */
export function checkToolRefs(tools: readonly unknown[], path: string, sink: FindingSink): string[] | null {
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

/** `contentHash` with `content`: both, checked; undefined when neither is there; null when malformed. */
function readContent(raw: Record<string, unknown>, path: string, sink: FindingSink, name: string): { contentHash: string; content: ContentRecord } | undefined | null {
  const hasHash = raw.contentHash !== undefined;
  const hasContent = raw.content !== undefined;
  if (!hasHash && !hasContent) return undefined;
  if (!hasHash || !hasContent) {
    sink.add('GRP007', childPath(path, hasHash ? 'contentHash' : 'content'), `contentHash and content go together; the group has ${hasHash ? 'contentHash without content' : 'content without contentHash'}`, rerecord(name));
    return null;
  }
  let ok = true;
  const contentHash = raw.contentHash;
  if (typeof contentHash !== 'string' || !HASH_PATTERN.test(contentHash)) {
    sink.add('GRP007', childPath(path, 'contentHash'), `contentHash must be 'sha256:' and 64 lowercase hex digits, found ${describe(contentHash)}`, rerecord(name));
    ok = false;
  }
  const at = childPath(path, 'content');
  if (!isRecord(raw.content)) {
    sink.add('GRP007', at, `content must be an object { files, lists, libraries }, found ${describe(raw.content)}`, rerecord(name));
    return null;
  }
  const content = raw.content;
  for (const key of Object.keys(content)) {
    if (!(CONTENT_SECTIONS as readonly string[]).includes(key)) {
      sink.add('GRP007', childPath(at, key), `unknown field '${key}'`, 'content has files, lists and libraries');
      ok = false;
    }
  }
  for (const section of CONTENT_SECTIONS) {
    const values = content[section];
    if (!isRecord(values)) {
      sink.add('GRP007', section in content ? childPath(at, section) : at, `content.${section} must be an object, found ${describe(values)}`, rerecord(name));
      ok = false;
      continue;
    }
    // Files and lists are recorded as hashes; a library as its version.
    const valid = section === 'libraries' ? (value: unknown) => typeof value === 'string' && value !== '' : (value: unknown) => typeof value === 'string' && HASH_PATTERN.test(value);
    for (const [key, value] of Object.entries(values)) {
      if (valid(value)) continue;
      sink.add('GRP007', childPath(childPath(at, section), key), section === 'libraries' ? `a library's version is a non-empty string, found ${describe(value)}` : `a content hash is 'sha256:' and 64 lowercase hex digits, found ${describe(value)}`);
      ok = false;
    }
  }
  return ok ? { contentHash: contentHash as string, content: content as unknown as ContentRecord } : null;
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

/** The command that records a group's hashes again. */
export function rerecord(name: string): string {
  return `record the group again: flowguard group create ${name} --force`;
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
