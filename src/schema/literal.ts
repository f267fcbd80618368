// Reads `main` (and, later, shared lists) as data straight from the syntax tree. The file is
// never imported: only object and array literals, strings, finite and negative numbers,
// booleans and null are data. Anything else is reported where it stands and read as null.

import type { Expression, Node, Property, SpreadElement } from 'acorn';
import { childPath, type Code, type FindingSink, type SourceLocation } from '../findings.js';

export interface LiteralData {
  value: unknown;
  /** Where every path of the value was written. */
  locations: Map<string, SourceLocation>;
  /** Paths whose value was not literal data (read as null, so later checks must ignore them). */
  opaque: string[];
}

interface Reader {
  sink: FindingSink;
  code: Code;
  locations: Map<string, SourceLocation>;
  opaque: string[];
}

export function locationOf(node: Node): SourceLocation {
  const start = node.loc?.start;
  return start ? { line: start.line, column: start.column + 1 } : { line: 1, column: 1 };
}

/** Reads `node` as literal data rooted at `rootPath`; non-literal nodes are reported as `code`. */
export function readLiteral(node: Expression, rootPath: string, sink: FindingSink, code: Code): LiteralData {
  const reader: Reader = { sink, code, locations: new Map(), opaque: [] };
  const value = readNode(node, rootPath, reader);
  return { value, locations: reader.locations, opaque: reader.opaque };
}

function readNode(node: Expression | SpreadElement, path: string, reader: Reader): unknown {
  reader.locations.set(path, locationOf(node));
  switch (node.type) {
    case 'ObjectExpression':
      return readObject(node.properties, path, reader);
    case 'ArrayExpression': {
      const items: unknown[] = [];
      node.elements.forEach((element, index) => {
        const itemPath = childPath(path, index);
        if (element === null) {
          reader.locations.set(itemPath, locationOf(node));
          items.push(notLiteral(itemPath, 'an array hole', reader));
        } else {
          items.push(readNode(element, itemPath, reader));
        }
      });
      return items;
    }
    case 'Literal':
      if (typeof node.value === 'string' || typeof node.value === 'number' || typeof node.value === 'boolean' || node.value === null) {
        // A regex or bigint literal also has type Literal; only JSON scalars are data.
        if (!('regex' in node) && !('bigint' in node)) return node.value;
      }
      return notLiteral(path, 'a regular expression or bigint', reader);
    case 'TemplateLiteral':
      if (node.expressions.length === 0) return node.quasis[0]?.value.cooked ?? '';
      return notLiteral(path, 'a template literal with expressions', reader);
    case 'UnaryExpression':
      if (node.operator === '-' && node.argument.type === 'Literal' && typeof node.argument.value === 'number') {
        return -node.argument.value;
      }
      return notLiteral(path, `the expression '${node.operator}…'`, reader);
    default:
      return notLiteral(path, describe(node), reader);
  }
}

function readObject(properties: Array<Property | SpreadElement>, path: string, reader: Reader): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const property of properties) {
    if (property.type === 'SpreadElement') {
      reader.locations.set(path, locationOf(property));
      notLiteral(path, 'a spread', reader);
      continue;
    }
    const key = propertyKey(property);
    if (key === null) {
      reader.locations.set(path, locationOf(property));
      notLiteral(path, 'a computed or non-string key', reader);
      continue;
    }
    const valuePath = childPath(path, key);
    if (property.kind !== 'init' || property.method || property.shorthand) {
      reader.locations.set(valuePath, locationOf(property));
      const what = property.kind !== 'init' ? `a ${property.kind}ter` : property.method ? 'a method' : 'a shorthand property';
      result[key] = notLiteral(valuePath, what, reader);
      continue;
    }
    if (key === '__proto__' || Object.hasOwn(result, key)) {
      reader.locations.set(valuePath, locationOf(property));
      notLiteral(valuePath, key === '__proto__' ? 'a __proto__ key' : `a second '${key}' key`, reader);
      continue;
    }
    result[key] = readNode(property.value as Expression, valuePath, reader);
  }
  return result;
}

function propertyKey(property: Property): string | null {
  if (property.computed) return null;
  if (property.key.type === 'Identifier') return property.key.name;
  if (property.key.type === 'Literal' && (typeof property.key.value === 'string' || typeof property.key.value === 'number')) {
    return String(property.key.value);
  }
  return null;
}

function notLiteral(path: string, what: string, reader: Reader): null {
  reader.opaque.push(path);
  reader.sink.add(reader.code, path, `${what} is not literal data`, 'write plain JSON-like values: objects, arrays, strings, numbers, booleans, null');
  return null;
}

function describe(node: Node): string {
  switch (node.type) {
    case 'Identifier':
      return `the identifier '${(node as Node & { name: string }).name}'`;
    case 'CallExpression':
    case 'NewExpression':
      return 'a call';
    case 'ArrowFunctionExpression':
    case 'FunctionExpression':
      return 'a function';
    default:
      return `an expression (${node.type})`;
  }
}
