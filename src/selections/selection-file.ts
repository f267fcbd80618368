// A 4.x selection file (spec chapter 17): `export const selection = { namespace, name, version,
// description, whenToUse, tools, skills, resources, prompts }`, read from the syntax tree as
// literal data and never run, like a schema's `main`. Its form is checked here (SEL001, each
// finding at the field it is about); whether its tool ids name loaded tools is verify.ts's.

import { childPath, FindingSink } from '../report/findings.js';
import type { Expression } from '../scan/ast.js';
import { readLiteral } from '../scan/literal.js';
import { parseModule } from '../scan/parse.js';
import { readSourceFile } from '../scan/source-file.js';

export interface Selection {
  file: string;
  namespace: string;
  /** The endpoint's name: `/mcp/<name>`, `serve --group <name>`. */
  name: string;
  description: string;
  whenToUse: string;
  /** Tool ids as written: `namespace/tool/name` (4.x) or flowguard's `namespace/file.mjs::route`. */
  tools: string[];
}

/** A selection name, as a group name: one path segment of an endpoint. */
const SELECTION_NAME = /^[a-z][a-z0-9-]*$/;

const ROOT = 'selection';
const TEXT_FIELDS = ['namespace', 'name', 'version', 'description', 'whenToUse'] as const;
const LIST_FIELDS = ['tools', 'skills', 'resources', 'prompts'] as const;
const FORM_HINT =
  'a selection file holds `export const selection = { namespace, name, version, description, whenToUse, tools: [...], ... }` of literal data (spec chapter 17)';

/** The file's selection, or null with SEL001 findings (the sink keeps every finding, positioned). */
export function readSelectionFile(
  file: string,
  maxFileBytes?: number,
): { selection: Selection | null; sink: FindingSink } {
  const read = readSourceFile(file, maxFileBytes, 'SEL001');
  if (read.sink) return { selection: null, sink: read.sink };
  const sink = new FindingSink(file, read.text);
  const program = parseModule(read.text, sink);
  if (!program) return { selection: null, sink };
  let exported: Expression | null = null;
  for (const statement of program.body) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : null;
    if (declaration?.type !== 'VariableDeclaration' || declaration.kind !== 'const') continue;
    for (const declarator of declaration.declarations)
      if (declarator.id.type === 'Identifier' && declarator.id.name === ROOT && declarator.init)
        exported = declarator.init;
  }
  if (!exported) {
    sink.addAt('SEL001', 0, 'the file declares no `export const selection`', FORM_HINT);
    return { selection: null, sink };
  }
  const data = readLiteral(exported, ROOT, sink, 'SEL001').value;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    sink.add('SEL001', ROOT, 'the selection is not an object', FORM_HINT);
    return { selection: null, sink };
  }
  const fields = data as Record<string, unknown>;
  for (const field of TEXT_FIELDS) {
    if (typeof fields[field] !== 'string' || (fields[field] as string).trim() === '')
      sink.add('SEL001', childPath(ROOT, field), `\`${field}\` is missing or not a non-empty string`, FORM_HINT);
  }
  for (const field of LIST_FIELDS) {
    const list = fields[field];
    if (list !== undefined && (!Array.isArray(list) || list.some((entry) => typeof entry !== 'string')))
      sink.add('SEL001', childPath(ROOT, field), `\`${field}\` is not a list of ids`, FORM_HINT);
  }
  if (typeof fields.name === 'string' && !SELECTION_NAME.test(fields.name))
    sink.add(
      'SEL001',
      childPath(ROOT, 'name'),
      `name '${fields.name}' does not match ${SELECTION_NAME.source}: it names the endpoint /mcp/<name>`,
      'use kebab-case, e.g. contract-analysis',
    );
  const tools = Array.isArray(fields.tools)
    ? fields.tools.filter((entry): entry is string => typeof entry === 'string')
    : [];
  if (tools.length === 0)
    sink.add(
      'SEL001',
      childPath(ROOT, 'tools'),
      'the selection selects no tool: flowguard serves the tools of a selection',
      'list the tool ids, e.g. etherscan-io/tool/getSmartContractAbi',
    );
  if (sink.hasErrors()) return { selection: null, sink };
  const text = (field: (typeof TEXT_FIELDS)[number]) => fields[field] as string;
  return {
    selection: {
      file,
      namespace: text('namespace'),
      name: text('name'),
      description: text('description'),
      whenToUse: text('whenToUse'),
      tools,
    },
    sink,
  };
}
