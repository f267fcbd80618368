// The prompts a group names (`groups.json`: `prompts: { <name>: { title, description, file } }`,
// chapter 12), read for `serve --group`. `file` is relative to the project folder and must stay
// inside it. A Markdown file (chapter 12) gives its `# Title` line, its `## Input` list items
// (`- \`name\` (type, required|optional): text`) as arguments, and its whole text as content; a
// skill or prompt file (`.mjs`) is read as everywhere else. The group's title and description win
// over the file's; the MCP prompt is named by the group's key.

import { extname, resolve } from 'node:path';
import { FindingSink, childPath, type Finding } from '../report/findings.js';
import { isWithin } from '../scan/files.js';
import { parseModule } from '../scan/parse.js';
import { readSourceFile } from '../scan/source-file.js';
import { placeholdersIn } from './placeholders.js';
import { readPromptFile } from './prompt-file.js';
import type { ServedPrompt } from './served.js';
import type { PromptDefinition, PromptInput } from './types.js';

export interface GroupPromptEntry {
  title: string;
  description: string;
  file: string;
}

const INPUT_ITEM =
  /^\s*[-*]\s+`([A-Za-z_][A-Za-z0-9_-]*)`\s*\(\s*([^,)]+?)\s*,\s*(required|optional)\s*\)\s*:?\s*(.*)$/;

/** The group's prompts that read without error, and the findings of those that do not (in `groupsFile`). */
export function readGroupPrompts(
  project: string,
  groupsFile: string,
  group: string,
  entries: Readonly<Record<string, GroupPromptEntry>>,
  maxFileBytes?: number,
): { prompts: ServedPrompt[]; findings: Finding[] } {
  const prompts: ServedPrompt[] = [];
  const findings: Finding[] = [];
  for (const [name, entry] of Object.entries(entries)) {
    const file = resolve(project, entry.file);
    const path = childPath(childPath(childPath('groups', group), 'prompts'), name);
    if (!isWithin(file, resolve(project))) {
      const sink = new FindingSink(groupsFile);
      sink.add(
        'PRM002',
        path,
        `the prompt file '${entry.file}' is outside the project folder`,
        'keep group prompts under the project, e.g. .flowmcp/prompts/<name>.md',
      );
      findings.push(...sink.findings);
      continue;
    }
    const read = readSourceFile(file, maxFileBytes, 'PRM002');
    if (read.sink) {
      findings.push(
        ...read.sink.findings.map((finding) => ({
          ...finding,
          code: 'PRM002' as const,
          severity: 'error' as const,
          message: `prompt '${name}' of group ${group}: ${finding.message}`,
        })),
      );
      continue;
    }
    const sink = new FindingSink(file, read.text);
    const definition =
      extname(file) === '.mjs' ? readModulePrompt(read.text, sink) : readMarkdownPrompt(read.text, sink);
    findings.push(...sink.findings);
    if (definition && !sink.hasErrors()) {
      prompts.push({
        name,
        namespace: null,
        file,
        definition: { ...definition, kind: 'group', name, title: entry.title, description: entry.description },
      });
    }
  }
  return { prompts, findings };
}

function readModulePrompt(text: string, sink: FindingSink): PromptDefinition | null {
  const program = parseModule(text, sink);
  if (!program) return null;
  const kind = program.body.some(
    (statement) =>
      statement.type === 'ExportNamedDeclaration' &&
      statement.declaration?.type === 'VariableDeclaration' &&
      statement.declaration.declarations.some((d) => d.id.type === 'Identifier' && d.id.name === 'skill'),
  )
    ? 'skill'
    : 'prompt';
  const definition = readPromptFile(program, kind, sink);
  if (!definition && !sink.hasErrors())
    sink.addAt('PRM002', 0, 'the file declares no `export const skill` or `export const prompt`');
  return definition;
}

/** A chapter 12 Markdown prompt. */
function readMarkdownPrompt(text: string, sink: FindingSink): PromptDefinition | null {
  const lines = text.split(/\r?\n/);
  const first = lines.find((line) => line.trim() !== '') ?? '';
  const title = /^#\s+(\S.*)$/.exec(first)?.[1];
  if (!title) {
    sink.addAt('PRM003', 0, 'a Markdown prompt starts with a `# Title` line', 'e.g. # Compare token prices');
    return null;
  }
  const inputs: PromptInput[] = [];
  let inInput = false;
  for (const line of lines) {
    if (/^##\s/.test(line)) inInput = /^##\s+Input\s*$/i.test(line);
    const item = inInput ? INPUT_ITEM.exec(line) : null;
    if (item)
      inputs.push({
        name: item[1] as string,
        type: item[2] as string,
        required: item[3] === 'required',
        description: (item[4] as string).trim() || (item[1] as string),
      });
  }
  for (const placeholder of placeholdersIn(text)) {
    if (placeholder.kind === 'input' && !inputs.some((input) => input.name === placeholder.value)) {
      sink.addAt(
        'PRM006',
        Math.max(0, text.indexOf(`{{input:${placeholder.value}`)),
        `{{input:${placeholder.value}}} names no input`,
        'list it under `## Input` as - `name` (type, required): what it is',
      );
    }
  }
  return { kind: 'group', name: '', title, description: title, content: text, inputs };
}
