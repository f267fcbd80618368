// Reads a skill or prompt file (`export const skill = {...}`, `export const prompt = {...}`) the
// way `main` is read (decision R3): from the syntax tree as literal data, never run. The corpus
// writes long content as a module-level `const content = \`...\`` named by the export's field
// (`content,`), so top-level consts of literal data are allowed and may be named by a field of
// the export; anything else at the top level, and any value that is not literal data, is code
// (SEC022), and the forbidden-code scan runs over the whole file as it does for a schema.

import type {
  Expression,
  ObjectExpression,
  Program,
  Statement,
  ModuleDeclaration,
  VariableDeclaration,
} from '../scan/ast.js';
import { startOf } from '../scan/ast.js';
import { scanForbidden } from '../scan/forbidden.js';
import { readLiteral } from '../scan/literal.js';
import type { FindingSink } from '../report/findings.js';
import { checkPromptData } from './check.js';
import type { PromptDefinition } from './types.js';

const CODE_HINT =
  'a skill or prompt file holds `export const skill = {...}` (or `prompt`) and consts of plain text it names; no code';

/** The file's skill or prompt, checked; null when it has an error that leaves nothing to serve. */
export function readPromptFile(program: Program, kind: 'skill' | 'prompt', sink: FindingSink): PromptDefinition | null {
  const consts = new Map<string, Expression>();
  let exported: Expression | null = null;
  for (const statement of program.body) {
    const declaration = constDeclaration(statement);
    if (!declaration) {
      sink.addAt('SEC022', startOf(statement), `top-level ${statement.type} would run at import time`, CODE_HINT);
      continue;
    }
    for (const declarator of declaration.declarations) {
      if (declarator.id.type !== 'Identifier' || !declarator.init) {
        sink.addAt('SEC022', startOf(declarator), 'a declaration that is not `const name = value`', CODE_HINT);
      } else if (statement.type === 'ExportNamedDeclaration') {
        if (declarator.id.name === kind) exported = declarator.init;
        else sink.addAt('SEC022', startOf(declarator), `export '${declarator.id.name}' besides \`${kind}\``, CODE_HINT);
      } else if (readLiteral(declarator.init, declarator.id.name, sink, 'SEC022').opaque.length === 0) {
        consts.set(declarator.id.name, declarator.init);
      }
    }
  }
  if (!exported) return null;
  const node = exported.type === 'ObjectExpression' ? withConsts(exported, consts) : exported;
  const data = readLiteral(node, kind, sink, 'SEC022');
  scanForbidden(program, sink, data.opaque.length === 0 ? exported : null);
  sink.ignoreBelow(data.opaque);
  const definition = checkPromptData(data.value, kind, sink);
  // Code anywhere in the file (SEC022 or the scan's codes) leaves nothing of it trusted.
  return sink.hasErrors() ? null : definition;
}

/** `const` (exported or not) at the top level; anything else is code. */
function constDeclaration(statement: Statement | ModuleDeclaration): VariableDeclaration | null {
  const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
  return declaration?.type === 'VariableDeclaration' && declaration.kind === 'const' ? declaration : null;
}

/** The export's object with each field that names a literal const (`content,` or `content: content`) given that const's value. */
function withConsts(object: ObjectExpression, consts: ReadonlyMap<string, Expression>): ObjectExpression {
  const properties = object.properties.map((property) => {
    if (property.type !== 'Property' || property.value.type !== 'Identifier') return property;
    const value = consts.get(property.value.name);
    return value ? { ...property, shorthand: false, value } : property;
  });
  return { ...object, properties };
}
