// The parts of a FlowMCP 1.2.0 file, found in its syntax tree without running anything: the
// `schema` object, the module-level declarations its data and handlers may use, and any other
// top-level code, which only a person can judge.

import {
  endOf,
  startOf,
  type AnyNode,
  type Expression,
  type ModuleDeclaration,
  type ObjectExpression,
  type Program,
  type Statement,
} from '../scan/ast.js';
import { forEachChild } from '../scan/walk.js';

export interface ModuleBinding {
  name: string;
  /** The whole top-level statement, `export` included when there is one: what would be copied. */
  statement: Statement | ModuleDeclaration;
  /** The value of a `const` binding, for reading data through it; null for let, var, functions and classes. */
  constValue: Expression | null;
}

export interface LegacyModule {
  /** The `schema = { ... flowMCP ... }` object literal. */
  schema: ObjectExpression;
  /** Top-level bindings other than `schema`, by name. */
  bindings: Map<string, ModuleBinding>;
  /** Top-level code that is neither a binding nor `export { schema }`: imports, expressions, other exports. */
  otherCode: Array<Statement | ModuleDeclaration>;
}

/** The 1.2.0 parts of the file, or null when it has no `schema` object with a `flowMCP` field. */
export function readLegacyModule(program: Program): LegacyModule | null {
  let schema: ObjectExpression | null = null;
  const bindings = new Map<string, ModuleBinding>();
  const otherCode: Array<Statement | ModuleDeclaration> = [];
  for (const statement of program.body) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
    if (statement.type === 'ExportNamedDeclaration' && !declaration) {
      if (
        statement.source ||
        statement.specifiers.some((s) => s.local.type !== 'Identifier' || s.local.name !== 'schema')
      )
        otherCode.push(statement);
      continue;
    }
    if (declaration?.type === 'VariableDeclaration') {
      for (const declarator of declaration.declarations) {
        if (declarator.id.type !== 'Identifier') {
          otherCode.push(statement);
          break;
        }
        const init = declarator.init ?? null;
        if (declarator.id.name === 'schema' && init?.type === 'ObjectExpression' && hasFlowMcpField(init)) {
          schema = init;
          continue;
        }
        bindings.set(declarator.id.name, {
          name: declarator.id.name,
          statement,
          constValue: declaration.kind === 'const' ? init : null,
        });
      }
    } else if (
      (declaration?.type === 'FunctionDeclaration' || declaration?.type === 'ClassDeclaration') &&
      declaration.id
    ) {
      bindings.set(declaration.id.name, { name: declaration.id.name, statement, constValue: null });
    } else if (statement.type !== 'EmptyStatement') {
      otherCode.push(statement);
    }
  }
  return schema ? { schema, bindings, otherCode } : null;
}

function hasFlowMcpField(node: ObjectExpression): boolean {
  return node.properties.some((p) => p.type === 'Property' && !p.computed && propertyName(p.key) === 'flowMCP');
}

/** The name of a non-computed property key: an identifier or a string or number literal. */
export function propertyName(key: AnyNode): string | null {
  if (key.type === 'Identifier') return key.name;
  if (key.type === 'Literal' && (typeof key.value === 'string' || typeof key.value === 'number'))
    return String(key.value);
  return null;
}

/**
 * The names `node` reads from its surroundings, roughly: every identifier in a reading position
 * (not a property key, not the name after a dot). A name the code declares itself may be
 * counted too; that only copies a module-level binding nobody needed.
 */
export function referencedNames(node: AnyNode): Set<string> {
  const names = new Set<string>();
  collectNames(node, null, '', names);
  return names;
}

function collectNames(node: AnyNode, parent: AnyNode | null, field: string, names: Set<string>): void {
  if (node.type === 'Identifier') {
    if (!isNameOnly(parent, field)) names.add(node.name);
    return;
  }
  forEachChild(
    node,
    (child, from, childField, into: Set<string>) => collectNames(child, from, childField, into),
    names,
    undefined,
  );
}

function isNameOnly(parent: AnyNode | null, field: string): boolean {
  if (!parent) return false;
  const computed = (parent as { computed?: boolean }).computed === true;
  if (field === 'property' && parent.type === 'MemberExpression') return !computed;
  if (
    field === 'key' &&
    (parent.type === 'Property' || parent.type === 'MethodDefinition' || parent.type === 'PropertyDefinition')
  )
    return !computed;
  return field === 'label';
}

/** The source text of a node. */
export function sourceOf(text: string, node: AnyNode): string {
  return text.slice(startOf(node), endOf(node));
}
