// The stricter scan of list files (SPEC-NOTES §10.1, decisions R1/R3): a list is data, so any
// function syntax, async/await or template expression is reported wherever it stands, and
// every schema pattern too. Nothing of the file runs; this reads the syntax tree only.

import {
  startOf,
  type AnyNode,
  type Expression,
  type ModuleDeclaration,
  type Program,
  type Statement,
} from '../scan/ast.js';
import type { FindingSink } from '../report/findings.js';
import type { Code } from '../report/codes.js';
import { scanForbidden, type Recode } from '../scan/forbidden.js';
import { forEachChild } from '../scan/walk.js';

const DATA_HINT = 'a list file holds only `export const list = { meta, entries }` with plain literal data';
const SCHEMA_PATTERN: Recode = { code: 'SEC204', hint: DATA_HINT };

/** How the top-level statements a list file may not hold are named in messages. */
const STATEMENTS: Partial<Record<string, string>> = {
  ExportNamedDeclaration: 'export other than one `const list`',
  ExportDefaultDeclaration: 'default export',
  VariableDeclaration: 'variable declaration',
  FunctionDeclaration: 'function declaration',
  ClassDeclaration: 'class declaration',
  ExpressionStatement: 'expression',
};

interface Hit {
  code: Code;
  what: string;
}

/**
 * Finds `export const list = ...`; every other top-level statement is SEC205. Imports and
 * re-exports are left to the schema patterns (SEC204), which name the module as well.
 */
export function findListExport(program: Program, sink: FindingSink): Expression | null {
  let init: Expression | null = null;
  for (const statement of program.body) {
    const declared: Expression | null = init ? null : listDeclaration(statement);
    if (declared) init = declared;
    else if (!isModuleLink(statement) && statement.type !== 'EmptyStatement') {
      sink.addAt(
        'SEC205',
        startOf(statement),
        `top-level ${describe(statement)} is code outside \`export const list\``,
        DATA_HINT,
      );
    }
  }
  if (!init)
    sink.addAt('LST001', startOf(program), 'the file has no `export const list = { meta, entries }`', DATA_HINT);
  return init;
}

/**
 * Reports function syntax (SEC200), arrows (SEC201), async/await (SEC202), template
 * expressions (SEC203) and schema patterns (SEC204). Returns the offsets of the nodes reported
 * as SEC200–SEC203, so the literal reader does not report them a second time.
 */
export function scanListCode(program: Program, sink: FindingSink): ReadonlySet<number> {
  const named = new Set<number>();
  visit(program, program, '', sink, named);
  scanForbidden(program, sink, null, SCHEMA_PATTERN);
  return named;
}

function visit(node: AnyNode, parent: AnyNode, _field: string, sink: FindingSink, named: Set<number>): void {
  for (const hit of hitsOf(node, parent)) {
    sink.addAt(hit.code, reportedAt(node, parent), `${hit.what} in a list file`, DATA_HINT);
    named.add(startOf(node));
  }
  forEachChild(node, visit, sink, named);
}

function hitsOf(node: AnyNode, parent: AnyNode): Hit[] {
  switch (node.type) {
    case 'FunctionDeclaration':
    case 'FunctionExpression':
      return withAsync(node.async, { code: 'SEC200', what: functionKind(parent) });
    case 'ArrowFunctionExpression':
      return withAsync(node.async, { code: 'SEC201', what: 'an arrow function' });
    case 'AwaitExpression':
      return [{ code: 'SEC202', what: 'await' }];
    case 'ForOfStatement':
      return node.await ? [{ code: 'SEC202', what: 'for await' }] : [];
    case 'VariableDeclaration':
      return node.kind === 'await using' ? [{ code: 'SEC202', what: 'await using' }] : [];
    case 'TemplateLiteral':
      return node.expressions.length > 0 ? [{ code: 'SEC203', what: 'a template literal with expressions' }] : [];
    default:
      return [];
  }
}

function withAsync(async: boolean, hit: Hit): Hit[] {
  return async ? [hit, { code: 'SEC202', what: 'async' }] : [hit];
}

/** A method's function node starts at its parameters; the finding points at the method's name. */
function reportedAt(node: AnyNode, parent: AnyNode): number {
  return node.type === 'FunctionExpression' && (parent.type === 'Property' || parent.type === 'MethodDefinition')
    ? startOf(parent)
    : startOf(node);
}

function functionKind(parent: AnyNode): string {
  if (parent.type === 'MethodDefinition')
    return parent.kind === 'constructor' ? 'a class constructor' : 'a class method';
  if (parent.type !== 'Property') return 'a function';
  if (parent.kind !== 'init') return `a ${parent.kind}ter`;
  return parent.method ? 'a method' : 'a function';
}

/** `export const list = <init>`, one declarator. */
function listDeclaration(statement: Statement | ModuleDeclaration): Expression | null {
  if (statement.type !== 'ExportNamedDeclaration' || statement.declaration?.type !== 'VariableDeclaration') return null;
  const { kind, declarations } = statement.declaration;
  const [declarator] = declarations;
  if (kind !== 'const' || declarations.length !== 1 || !declarator) return null;
  return declarator.id.type === 'Identifier' && declarator.id.name === 'list' ? (declarator.init ?? null) : null;
}

function isModuleLink(statement: Statement | ModuleDeclaration): boolean {
  return (
    statement.type === 'ImportDeclaration' ||
    statement.type === 'ExportAllDeclaration' ||
    (statement.type === 'ExportNamedDeclaration' && statement.source != null)
  );
}

function describe(statement: Statement | ModuleDeclaration): string {
  return STATEMENTS[statement.type] ?? `statement (${statement.type})`;
}
