// Reads the data of a 1.2.0 `schema` object from the syntax tree, as `main` is read (R3: never
// run). 1.2.0 files often name module-level constants in their data (`primitive: chainEnum`),
// spread them, or join strings; those are resolved at the tree level first, so the literal
// reader sees plain data. Whatever still is not data is kept as its source text and reported.

import { childPath, type FindingSink } from '../report/findings.js';
import {
  endOf,
  startOf,
  type AnyNode,
  type Expression,
  type ObjectExpression,
  type SpreadElement,
} from '../scan/ast.js';
import { describeExpression, readLiteral } from '../scan/literal.js';
import { SourceText } from './format.js';
import { propertyName, sourceOf, type ModuleBinding } from './legacy-module.js';

interface Preparer {
  text: string;
  sink: FindingSink;
  bindings: ReadonlyMap<string, ModuleBinding>;
  /** Constants being resolved, against a constant defined through itself. */
  resolving: Set<string>;
  /** Source texts kept in place of values that are not data; a marker string stands for each. */
  kept: string[];
  marker: string;
}

/**
 * The data of `node` (the schema object without its handlers), read at `rootPath`. Values that
 * are not data come back as SourceText, each reported as MIG002 at its position.
 */
export function readLegacyData(
  node: ObjectExpression,
  rootPath: string,
  text: string,
  bindings: ReadonlyMap<string, ModuleBinding>,
  sink: FindingSink,
): unknown {
  const marker = `\u0000flowguard-source-${Math.random().toString(36).slice(2)}:`;
  const preparer: Preparer = { text, sink, bindings, resolving: new Set(), kept: [], marker };
  const prepared = prepare(node, rootPath, preparer);
  const { value } = readLiteral(prepared, rootPath, sink, 'MIG002');
  return restoreKept(value, preparer);
}

function prepare(node: Expression, path: string, p: Preparer): Expression {
  switch (node.type) {
    case 'ObjectExpression':
      return { ...node, properties: node.properties.flatMap((property) => prepareProperty(property, path, p)) };
    case 'ArrayExpression':
      return {
        ...node,
        elements: node.elements.flatMap((element, index) => prepareElement(element, childPath(path, index), p)),
      };
    case 'Literal':
      return 'regex' in node || 'bigint' in node ? keep(node, path, 'a regular expression or bigint', p) : node;
    case 'UnaryExpression':
      return node.operator === '-' && node.argument.type === 'Literal' && typeof node.argument.value === 'number'
        ? node
        : foldOrKeep(node, path, p);
    case 'Identifier': {
      const value = constantValue(node.name, p);
      if (!value) return keep(node, path, `the name '${node.name}' (no module-level constant)`, p);
      p.resolving.add(node.name);
      const resolved = prepare(value, path, p);
      p.resolving.delete(node.name);
      return resolved;
    }
    default:
      return foldOrKeep(node, path, p);
  }
}

type ObjectMember = ObjectExpression['properties'][number];

function prepareProperty(property: ObjectMember, path: string, p: Preparer): ObjectMember[] {
  if (property.type === 'SpreadElement') {
    const spread = spreadSource(property, 'ObjectExpression', p);
    return spread ? spread.properties.flatMap((inner) => prepareProperty(inner, path, p)) : [property];
  }
  if (property.type !== 'Property') return [property];
  const key = property.computed ? null : propertyName(property.key);
  if (key === null || property.kind !== 'init' || property.method) return [property]; // the literal reader reports these
  return [{ ...property, shorthand: false, value: prepare(property.value as Expression, childPath(path, key), p) }];
}

function prepareElement(
  element: Expression | SpreadElement | null,
  path: string,
  p: Preparer,
): Array<Expression | SpreadElement | null> {
  if (element === null) return [null];
  if (element.type !== 'SpreadElement') return [prepare(element, path, p)];
  const spread = spreadSource(element, 'ArrayExpression', p);
  return spread
    ? spread.elements.map((inner) => (inner && inner.type !== 'SpreadElement' ? prepare(inner, path, p) : inner))
    : [element];
}

/** `...name` where name is a module-level constant holding an object (or array) literal. */
function spreadSource<T extends 'ObjectExpression' | 'ArrayExpression'>(
  spread: SpreadElement,
  type: T,
  p: Preparer,
): Extract<Expression, { type: T }> | null {
  if (spread.argument.type !== 'Identifier') return null;
  const value = constantValue(spread.argument.name, p);
  return value?.type === type ? (value as Extract<Expression, { type: T }>) : null;
}

function constantValue(name: string, p: Preparer): Expression | null {
  if (p.resolving.has(name)) return null;
  return p.bindings.get(name)?.constValue ?? null;
}

/** String and number arithmetic of constants (`${base}/v1`, 'enum(' + list + ')') becomes its value. */
function foldOrKeep(node: Expression, path: string, p: Preparer): Expression {
  const value = fold(node, p);
  if (value === null) return keep(node, path, describeExpression(node), p);
  return { type: 'Literal', value, start: startOf(node), end: endOf(node) } as Expression;
}

function fold(node: AnyNode, p: Preparer): string | number | null {
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'string' || typeof node.value === 'number' ? node.value : null;
    case 'UnaryExpression': {
      const value = node.operator === '-' ? fold(node.argument, p) : null;
      return typeof value === 'number' ? -value : null;
    }
    case 'TemplateLiteral': {
      let text = node.quasis[0]?.value.cooked ?? '';
      for (let i = 0; i < node.expressions.length; i += 1) {
        const part = fold(node.expressions[i] as AnyNode, p);
        if (part === null || node.quasis[i + 1]?.value.cooked == null) return null;
        text += String(part) + node.quasis[i + 1]?.value.cooked;
      }
      return text;
    }
    case 'BinaryExpression': {
      if (node.operator !== '+') return null;
      const [left, right] = [fold(node.left, p), fold(node.right, p)];
      if (left === null || right === null) return null;
      return typeof left === 'number' && typeof right === 'number' ? left + right : String(left) + String(right);
    }
    case 'Identifier': {
      const value = constantValue(node.name, p);
      if (!value) return null;
      p.resolving.add(node.name);
      const folded = fold(value, p);
      p.resolving.delete(node.name);
      return folded;
    }
    default:
      return null;
  }
}

/** Keeps the node's source text in place of a value, and says so. */
function keep(node: AnyNode, path: string, what: string, p: Preparer): Expression {
  p.sink.addAt(
    'MIG002',
    startOf(node),
    `${what} is not literal data; written to the new file as it was`,
    'replace it with the value it stands for (plain JSON-like data)',
    path,
  );
  p.kept.push(sourceOf(p.text, node));
  return {
    type: 'Literal',
    value: `${p.marker}${p.kept.length - 1}`,
    start: startOf(node),
    end: endOf(node),
  } as Expression;
}

function restoreKept(value: unknown, p: Preparer): unknown {
  if (typeof value === 'string' && value.startsWith(p.marker))
    return new SourceText(p.kept[Number(value.slice(p.marker.length))] ?? '');
  if (Array.isArray(value)) return value.map((item) => restoreKept(item, p));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, restoreKept(item, p)]));
  return value;
}
