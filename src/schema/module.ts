// Finds the two exports a schema file may have, without running anything. Every other
// top-level statement is code that would run at import time and is reported (SEC019);
// v1.2.0 files are recognised and named as such (R10), and so are the skill, prompt and agent
// files that 3.x and 4.x catalogs keep beside their schemas (R11): they are not schemas.

import {
  startOf,
  type Expression,
  type ModuleDeclaration,
  type Program,
  type Statement,
  type VariableDeclaration,
} from '../scan/ast.js';
import type { FindingSink } from '../report/findings.js';

/** What a file of a schema folder that is no schema declares instead. */
export type OtherFile = 'skill' | 'prompt' | 'agent';

export interface SchemaModule {
  main: Expression | null;
  handlers: Expression | null;
  /** Set for a skill, prompt or agent file: nothing else was read. */
  other: OtherFile | null;
}

const EXPORT_NAMES = new Set(['main', 'handlers']);
const OTHER_EXPORTS: ReadonlySet<string> = new Set<OtherFile>(['skill', 'prompt', 'agent']);

export function readSchemaModule(program: Program, sink: FindingSink): SchemaModule {
  const found: Record<string, Expression> = {};
  if (isLegacy(program)) {
    sink.addAt(
      'VAL006',
      startOf(program),
      'this is a v1.2.0 schema (`schema` export with flowMCP: 1.2.0); it is not served',
      'migrate: wrap the fields in `export const main`, set version 2.0.0, move handlers into an `export const handlers` factory',
    );
    return { main: null, handlers: null, other: null };
  }
  const other = otherFile(program);
  if (other) {
    sink.addAt(
      'VAL029',
      startOf(program),
      `this is a ${other} file (\`export const ${other}\`), not a schema: skipped as a schema`,
      other === 'agent'
        ? 'flowguard serves tools; agents are run by an agent host'
        : `flowguard serves ${other}s as MCP prompts (docs/reference/prompts.md)`,
    );
    return { main: null, handlers: null, other };
  }
  for (const statement of program.body) {
    const declared = exportedConst(statement);
    if (declared && !(declared.name in found)) {
      found[declared.name] = declared.init;
      continue;
    }
    // Imports are the scan's to report (SEC001); reporting them here too would say it twice.
    if (statement.type === 'ImportDeclaration' || statement.type === 'ExportAllDeclaration') continue;
    sink.addAt(
      'SEC019',
      startOf(statement),
      `top-level ${describeStatement(statement)} would run at import time`,
      'a schema file holds only `export const main = {...}` and optionally `export const handlers = (...) => ({...})`',
    );
  }
  if (!found.main) {
    sink.addAt(
      'VAL001',
      startOf(program),
      'the file has no `export const main = {...}`',
      'describe the API in export const main = { namespace, name, description, version, root, routes }; flowguard init writes a starting point',
    );
  }
  return { main: found.main ?? null, handlers: found.handlers ?? null, other: null };
}

/** `export const skill`, `prompt` or `agent` in a file without `export const main`. */
function otherFile(program: Program): OtherFile | null {
  let other: OtherFile | null = null;
  for (const statement of program.body) {
    const name = exportedConstName(statement);
    if (name === 'main') return null;
    if (name !== null && OTHER_EXPORTS.has(name)) other ??= name as OtherFile;
  }
  return other;
}

function exportedConstName(statement: Statement | ModuleDeclaration): string | null {
  if (statement.type !== 'ExportNamedDeclaration' || statement.declaration?.type !== 'VariableDeclaration') return null;
  const [declarator] = statement.declaration.declarations;
  return declarator?.id.type === 'Identifier' ? declarator.id.name : null;
}

/** `export const main = ...` or `export const handlers = ...`, one declarator. */
function exportedConst(statement: Statement | ModuleDeclaration): { name: string; init: Expression } | null {
  if (statement.type !== 'ExportNamedDeclaration' || !statement.declaration) return null;
  const declaration = statement.declaration;
  if (
    declaration.type !== 'VariableDeclaration' ||
    declaration.kind !== 'const' ||
    declaration.declarations.length !== 1
  )
    return null;
  const [declarator] = declaration.declarations;
  if (!declarator || declarator.id.type !== 'Identifier' || !EXPORT_NAMES.has(declarator.id.name) || !declarator.init)
    return null;
  return { name: declarator.id.name, init: declarator.init };
}

/** v1.2.0: a `schema` binding exported, holding an object with a `flowMCP` field. */
function isLegacy(program: Program): boolean {
  return program.body.some((statement) => {
    const declaration: VariableDeclaration | null =
      statement.type === 'VariableDeclaration'
        ? statement
        : statement.type === 'ExportNamedDeclaration' && statement.declaration?.type === 'VariableDeclaration'
          ? statement.declaration
          : null;
    return (
      declaration?.declarations.some(
        (d) =>
          d.id.type === 'Identifier' &&
          d.id.name === 'schema' &&
          d.init?.type === 'ObjectExpression' &&
          d.init.properties.some(
            (p) => p.type === 'Property' && !p.computed && p.key.type === 'Identifier' && p.key.name === 'flowMCP',
          ),
      ) ?? false
    );
  });
}

function describeStatement(statement: Statement | ModuleDeclaration): string {
  switch (statement.type) {
    case 'ExportNamedDeclaration':
      return statement.declaration ? 'export other than `const main` / `const handlers`' : 'export list';
    case 'ExportDefaultDeclaration':
      return 'default export';
    case 'VariableDeclaration':
      return `${statement.kind} declaration`;
    case 'FunctionDeclaration':
      return 'function declaration';
    case 'ExpressionStatement':
      return 'expression';
    default:
      return `statement (${statement.type})`;
  }
}
