// The shape of a skill or prompt (SPEC-NOTES-v3-v4 §4), read as data: what an MCP prompt needs
// (a name, a description, content) and the inputs that become its arguments. Any error leaves
// the prompt unserved (its arguments or text would be wrong); fields the corpus adds for other
// tools (version, testedWith, dependsOn, requires, output, ...) are accepted as they are.

import { childPath, type FindingSink } from '../report/findings.js';
import { withSuggestion } from '../report/did-you-mean.js';
import { isRecord, type RawObject } from '../shared/raw.js';
import { placeholdersIn, parseToolReference } from './placeholders.js';
import type { PromptAttachment, PromptDefinition, PromptInput } from './types.js';

/** A prompt's name: the MCP prompt name is made of it (and its namespace). */
const PROMPT_NAME = /^[a-z][a-z0-9_-]{0,63}$/;
const INPUT_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function checkPromptData(value: unknown, kind: 'skill' | 'prompt', sink: FindingSink): PromptDefinition | null {
  const errorsBefore = sink.findings.length;
  if (!isRecord(value)) {
    sink.add('PRM003', kind, `\`${kind}\` must be an object { name, description, content }`);
    return null;
  }
  const name = value.name;
  if (typeof name !== 'string' || !PROMPT_NAME.test(name)) {
    sink.add(
      'PRM001',
      childPath(kind, 'name'),
      typeof name === 'string'
        ? `name '${name}' does not match ${PROMPT_NAME.source}`
        : '`name` is missing or not a string',
      'lowercase letters, digits, - and _, starting with a letter, at most 64: the MCP prompt is named after it',
    );
  }
  for (const field of ['description', 'content'] as const) {
    if (typeof value[field] !== 'string' || (value[field] as string).trim() === '') {
      sink.add(
        'PRM003',
        childPath(kind, field),
        `\`${field}\` is missing or not a non-empty string`,
        field === 'content'
          ? 'the Markdown the client receives, with {{input:x}} and {{tool:namespace/name}} placeholders'
          : 'one line saying what the prompt is for: clients list it',
      );
    }
  }
  if (value.provider !== undefined && typeof value.provider !== 'string')
    sink.add('PRM003', childPath(kind, 'provider'), '`provider` must be a string (the namespace of its tools)');
  const content = typeof value.content === 'string' ? value.content : '';
  // Prompt files of the corpus declare no `input`: their placeholders are their arguments.
  const inputs =
    value.input === undefined ? implicitInputs(content) : readInputs(value.input, childPath(kind, 'input'), sink);
  checkPlaceholders(content, inputs, childPath(kind, 'content'), sink);
  const attachments = readAttachments(value.attachments, childPath(kind, 'attachments'), inputs, sink);
  if (sink.findings.slice(errorsBefore).some((finding) => finding.severity === 'error')) return null;
  const definition: PromptDefinition = {
    kind,
    name: name as string,
    description: value.description as string,
    content: value.content as string,
    inputs,
  };
  if (typeof value.provider === 'string') definition.provider = value.provider;
  if (attachments.length > 0) definition.attachments = attachments;
  return definition;
}

/** One required text argument per input the content names, for a file that declares no `input`. */
function implicitInputs(content: string): PromptInput[] {
  const names = new Set(
    placeholdersIn(content).flatMap((placeholder) => (placeholder.kind === 'input' ? [placeholder.value] : [])),
  );
  return [...names].map((name) => ({
    name,
    type: 'string',
    description: `${name} (named in the prompt's text)`,
    required: true,
  }));
}

function readInputs(raw: unknown, path: string, sink: FindingSink): PromptInput[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    sink.add('PRM004', path, '`input` must be an array of { key, type, description, required }');
    return [];
  }
  const inputs: PromptInput[] = [];
  raw.forEach((entry: unknown, index) => {
    const at = childPath(path, index);
    if (!isRecord(entry)) return sink.add('PRM004', at, 'an input is an object { key, type, description, required }');
    const input = readInput(entry, at, sink);
    if (!input) return;
    if (inputs.some((other) => other.name === input.name))
      return sink.add(
        'PRM004',
        at,
        `a second input named '${input.name}'`,
        'each input is one argument of the prompt; give it its own key',
      );
    inputs.push(input);
  });
  return inputs;
}

function readInput(entry: RawObject, at: string, sink: FindingSink): PromptInput | null {
  const name = entry.key ?? entry.name;
  let ok = true;
  const fail = (field: string, message: string, hint?: string) => {
    ok = false;
    sink.add('PRM004', childPath(at, field), message, hint);
  };
  if (typeof name !== 'string' || !INPUT_NAME.test(name))
    fail('key', '`key` is missing or not a name (letters, digits, _ and -)', 'the name {{input:<key>}} refers to');
  if (typeof entry.type !== 'string') fail('type', '`type` is missing or not a string', 'e.g. string, number, enum');
  if (typeof entry.description !== 'string')
    fail('description', '`description` is missing or not a string', 'the client shows it beside the argument');
  if (typeof entry.required !== 'boolean') fail('required', '`required` is missing or not true/false');
  const values = entry.values ?? entry.enum;
  if (
    values !== undefined &&
    !(Array.isArray(values) && values.every((v) => typeof v === 'string' || typeof v === 'number'))
  )
    fail('values', '`values` must be an array of strings or numbers');
  if (!ok) return null;
  const input: PromptInput = {
    name: name as string,
    type: entry.type as string,
    description: entry.description as string,
    required: entry.required as boolean,
  };
  if (Array.isArray(values)) input.values = values.map(String);
  return input;
}

/** Every `{{input:x}}` names an input; every `{{tool:...}}` is a reference the catalog can resolve. */
function checkPlaceholders(text: string, inputs: readonly PromptInput[], path: string, sink: FindingSink): void {
  const names = inputs.map((input) => input.name);
  const reported = new Set<string>();
  for (const placeholder of placeholdersIn(text)) {
    if (reported.has(placeholder.kind + placeholder.value)) continue;
    reported.add(placeholder.kind + placeholder.value);
    if (placeholder.kind === 'input' && !names.includes(placeholder.value)) {
      sink.add(
        'PRM006',
        path,
        `{{input:${placeholder.value}}} names no input`,
        withSuggestion(
          placeholder.value,
          names,
          names.length > 0
            ? `the inputs are ${names.join(', ')}`
            : 'declare it in `input`: { key, type, description, required }',
        ),
      );
    }
    if (placeholder.kind === 'tool' && !parseToolReference(placeholder.value)) {
      sink.add(
        'PRM005',
        path,
        `{{tool:${placeholder.value}}} is no tool reference`,
        'write {{tool:namespace/routeName}}',
      );
    }
  }
}

function readAttachments(
  raw: unknown,
  path: string,
  inputs: readonly PromptInput[],
  sink: FindingSink,
): PromptAttachment[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    sink.add('PRM007', path, '`attachments` must be an array');
    return [];
  }
  const attachments: PromptAttachment[] = [];
  raw.forEach((entry: unknown, index) => {
    const at = childPath(path, index);
    const attachment = readAttachment(entry);
    if (typeof attachment === 'string')
      return sink.add(
        'PRM007',
        at,
        attachment,
        "{ type: 'image', mimeType: 'image/png', data: '<base64>' } or { type: 'resource', uri, mimeType, text }",
      );
    if (attachment.type === 'resource')
      for (const field of ['uri', 'text'] as const)
        checkPlaceholders(attachment[field], inputs, childPath(at, field), sink);
    attachments.push(attachment);
  });
  return attachments;
}

/** The attachment, or what is wrong with it. */
function readAttachment(entry: unknown): PromptAttachment | string {
  if (!isRecord(entry)) return 'an attachment is an object';
  const { type, mimeType } = entry;
  if (type === 'image') {
    if (typeof mimeType !== 'string' || !mimeType.startsWith('image/')) return 'an image needs `mimeType` image/...';
    if (typeof entry.data !== 'string' || !BASE64.test(entry.data)) return 'an image needs `data`, base64';
    return { type, mimeType, data: entry.data };
  }
  if (type === 'resource') {
    if (typeof entry.uri !== 'string' || entry.uri === '') return 'a resource needs `uri`';
    if (typeof entry.text !== 'string') return 'a resource needs `text`';
    return { type, uri: entry.uri, mimeType: typeof mimeType === 'string' ? mimeType : 'text/plain', text: entry.text };
  }
  return "`type` must be 'image' or 'resource'";
}
