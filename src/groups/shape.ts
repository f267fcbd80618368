// The shape of `.flowmcp/groups.json` (spec chapter 06, SPEC-NOTES §11) as JSON Schema 2020-12
// annotated with its finding codes (src/shapes/vocabulary.ts):
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
// Two shapes: the file's own fields (GROUPS_FILE_SHAPE), and one named group (GROUP_ENTRY_SHAPE),
// which groups-file.ts checks group by group, so that one group's problems are that group's
// findings and a hint can name the group ({group}). The codes: GRP001 (name), GRP002 (more than
// 50 tools), GRP003 (a reference is not `namespace/file.mjs::route`), GRP007 (a field missing,
// unknown or of the wrong type). What a JSON Schema cannot say is code in groups-file.ts: a
// reference listed twice (GRP005, each one named), `toolHashes` keyed by exactly the group's tools.
// Checks run the validators generated from these (shape.generated.ts, `npm run generate`).

import { annotated, closedObject, type Meaning, type Shape } from '../shapes/vocabulary.js';
import { HASH_PATTERN } from './hash.js';

export const GROUPS_SPEC_VERSION = '2.0.0';
const MAX_GROUP_TOOLS = 50;
const GROUP_NAME_PATTERN = /^[a-z][a-z0-9-]*$/;
/** `namespace/file.mjs::route`: a namespace as main.namespace allows, a file's base name, a route name. */
export const TOOL_REFERENCE_PATTERN = /^[a-z][a-z0-9-]*\/[^/\\:]+\.mjs::\S(?:.*\S)?$/;

/** The command that records a group's hashes again. */
export function rerecord(name: string): string {
  return `record the group again: flowguard group create ${name} --force`;
}

/** In a shape's hint: the mapper fills in the name of the group checked. */
const RERECORD = rerecord('{group}');
/** Findings about a JSON file's form; a missing key is reported at its object, which has a position. */
const form = (message: string, hint?: string): Meaning => ({ code: 'GRP007', message, hint });
const unknownField = (hint: string): Meaning => form("unknown field '{key}'", hint);
const MISSING_AT_OBJECT: Shape = { 'x-missing': 'object' };
const hash = (message: string, hint?: string): Shape =>
  annotated({ type: 'string', pattern: HASH_PATTERN.source }, form(message, hint));

const toolReference = annotated(
  {
    allOf: [
      annotated(
        { type: 'string' },
        { code: 'GRP003', message: "a tool reference is a string 'namespace/file.mjs::route', found {found}" },
      ),
      annotated(
        { pattern: TOOL_REFERENCE_PATTERN.source },
        {
          code: 'GRP003',
          message: "'{value}' is not a tool reference 'namespace/file.mjs::route'",
          hint: 'e.g. coingecko/prices.mjs::getSimplePrice; `flowguard list` shows every reference',
        },
      ),
    ],
  },
  { code: 'GRP003' },
);

const contentHashes = (section: string): Shape =>
  annotated(
    {
      type: 'object',
      additionalProperties: hash("a content hash is 'sha256:' and 64 lowercase hex digits, found {found}"),
    },
    form(`content.${section} must be an object, found {found}`, RERECORD),
  );

const content = closedObject(
  {
    files: contentHashes('files'),
    lists: contentHashes('lists'),
    libraries: annotated(
      {
        type: 'object',
        additionalProperties: annotated(
          { type: 'string', minLength: 1 },
          form("a library's version is a non-empty string, found {found}"),
        ),
      },
      form('content.libraries must be an object, found {found}', RERECORD),
    ),
  },
  ['files', 'lists', 'libraries'],
  form('content must be an object { files, lists, libraries }, found {found}', RERECORD),
  unknownField('content has files, lists and libraries'),
  MISSING_AT_OBJECT,
);

const promptField = annotated({ type: 'string' }, form('{key} must be a string, found {found}'));
const prompt = closedObject(
  { title: promptField, description: promptField, file: promptField },
  ['title', 'description', 'file'],
  form('a prompt is an object { title, description, file }, found {found}'),
  unknownField('a prompt has title, description and file'),
  MISSING_AT_OBJECT,
);

const group = closedObject(
  {
    description: annotated({ type: 'string' }, form('description must be a string, found {found}')),
    tools: annotated(
      {
        type: 'array',
        items: toolReference,
        allOf: [
          annotated(
            { maxItems: MAX_GROUP_TOOLS },
            {
              code: 'GRP002',
              message: 'the group has {count} tools; at most {limit} are allowed',
              hint: 'split it into smaller groups',
            },
          ),
        ],
      },
      form('tools must be an array of tool references, found {found}'),
    ),
    hash: annotated(
      { type: ['string', 'null'], pattern: HASH_PATTERN.source },
      form(
        "hash must be 'sha256:' and 64 lowercase hex digits, or null; found {found}",
        'flowguard group create records it',
      ),
    ),
    toolHashes: annotated(
      {
        type: 'object',
        additionalProperties: hash("a tool hash is 'sha256:' and 64 lowercase hex digits, found {found}"),
      },
      form('toolHashes must be an object of hashes by tool reference, found {found}'),
    ),
    // Absent in a group recorded by an older flowguard; together or not at all.
    contentHash: hash("contentHash must be 'sha256:' and 64 lowercase hex digits, found {found}", RERECORD),
    content,
    prompts: annotated(
      { type: 'object', additionalProperties: prompt },
      form('prompts must be an object of prompts by name, found {found}'),
    ),
  },
  ['description', 'tools', 'hash'],
  form('a group is an object { description, tools, hash }, found {found}'),
  unknownField('a group has description, tools, hash and optionally toolHashes, contentHash with content, and prompts'),
  {
    ...MISSING_AT_OBJECT,
    allOf: [
      annotated(
        { dependentRequired: { contentHash: ['content'], content: ['contentHash'] } },
        form('contentHash and content go together; the group has {key} without {missing}', RERECORD),
      ),
    ],
  },
);

/** The fields of a group, in the order its findings are listed. */
export const GROUP_FIELDS: readonly string[] = Object.keys(group.properties as Record<string, Shape>);

/** `{ "<name>": group }`: one group under its name, as it stands in `groups`. */
export const GROUP_ENTRY_SHAPE: Shape = {
  type: 'object',
  'x-code': 'GRP007',
  propertyNames: annotated(
    { pattern: GROUP_NAME_PATTERN.source },
    {
      code: 'GRP001',
      message: `group name '{value}' does not match ${GROUP_NAME_PATTERN.source}`,
      hint: 'use lowercase letters, digits and -, starting with a letter',
    },
  ),
  additionalProperties: group,
};

/** The file's own fields; `groups` is checked group by group against GROUP_ENTRY_SHAPE. */
export const GROUPS_FILE_SHAPE = closedObject(
  {
    specVersion: annotated(
      { const: GROUPS_SPEC_VERSION },
      form(`specVersion must be '${GROUPS_SPEC_VERSION}', found {found}`),
    ),
    groups: annotated({ type: 'object' }, form('groups must be an object of groups by name, found {found}')),
  },
  ['specVersion', 'groups'],
  form('the file is not a JSON object', `write { "specVersion": "${GROUPS_SPEC_VERSION}", "groups": {} }`),
  unknownField('a groups file has only specVersion and groups'),
  MISSING_AT_OBJECT,
);
