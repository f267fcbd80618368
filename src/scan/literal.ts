// Reads `main` (and, later, shared lists) as data straight from the syntax tree. The file is
// never imported: only object and array literals, strings, negative numbers, booleans and null
// are data. Anything else is reported where it stands and read as null.
//
// Paths are built only when something is reported, and positions are found by walking the
// tree back down a reported path: reading a valid `main` allocates nothing but the data.

import {
  startOf,
  type AnyNode,
  type Expression,
  type ObjectExpression,
  type Property,
  type SpreadElement,
} from './ast.js';
import { pathText, type FindingSink, type Locator, type PathRef } from '../report/findings.js';
import { type Code } from '../report/codes.js';

export interface LiteralData {
  value: unknown;
  /** Paths whose value was not literal data (read as null, so later checks must ignore them). */
  opaque: string[];
  /** Paths of numbers that JSON cannot carry (1e999 reads as Infinity). */
  nonFinite: string[];
  /** Finds where a path of the value was written; a path that was not written gets its nearest ancestor's. */
  locate: Locator;
}

interface Reader {
  sink: FindingSink;
  code: Code;
  opaque: string[];
  nonFinite: string[];
}

/**
 * Reads `node` as literal data rooted at `rootPath`; non-literal nodes are reported as `code`.
 * From here on the sink places paths under `rootPath` in this tree, so its own findings and
 * every later check's have a line and column.
 */
export function readLiteral(node: Expression, rootPath: string, sink: FindingSink, code: Code): LiteralData {
  const locate = astLocator(node, rootPath);
  sink.useLocator(locate);
  const reader: Reader = { sink, code, opaque: [], nonFinite: [] };
  const value = readNode(node, rootPath, reader);
  return { value, opaque: reader.opaque, nonFinite: reader.nonFinite, locate };
}

function readNode(node: Expression | SpreadElement, path: PathRef, reader: Reader): unknown {
  switch (node.type) {
    case 'ObjectExpression':
      return readObject(node.properties, path, reader);
    case 'ArrayExpression': {
      const items: unknown[] = new Array(node.elements.length);
      for (let index = 0; index < node.elements.length; index += 1) {
        const element = node.elements[index];
        const itemPath = { parent: path, key: index };
        items[index] = element ? readNode(element, itemPath, reader) : notLiteral(itemPath, 'an array hole', reader);
      }
      return items;
    }
    case 'Literal': {
      const value = node.value;
      // A regex or bigint literal also has type Literal; only JSON scalars are data.
      if (typeof value === 'string')
        return 'regex' in node ? notLiteral(path, 'a regular expression or bigint', reader) : ownText(value);
      if (typeof value === 'boolean' || value === null)
        return 'bigint' in node ? notLiteral(path, 'a regular expression or bigint', reader) : value;
      if (typeof value === 'number') return finite(value, path, reader);
      return notLiteral(path, 'a regular expression or bigint', reader);
    }
    case 'TemplateLiteral':
      if (node.expressions.length === 0) return ownText(node.quasis[0]?.value.cooked ?? '');
      return notLiteral(path, 'a template literal with expressions', reader);
    case 'UnaryExpression':
      if (node.operator === '-' && node.argument.type === 'Literal' && typeof node.argument.value === 'number') {
        return finite(-node.argument.value, path, reader);
      }
      return notLiteral(path, `the expression '${node.operator}…'`, reader);
    default:
      return notLiteral(path, describeExpression(node), reader);
  }
}

/**
 * A copy of a string read from the source that does not keep the source alive. The parser's
 * strings are slices of the whole file text, so one kept description would keep the file (a
 * catalog of large files held most of them that way).
 */
export function ownText(text: string): string {
  // Short strings are copied anyway; a longer one is flattened into new storage by the concatenation.
  return text.length < 13 ? text : (' ' + text).slice(1);
}

function readObject(
  properties: ObjectExpression['properties'],
  path: PathRef,
  reader: Reader,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const property of properties) {
    if (property.type !== 'Property') {
      notLiteral(path, property.type === 'SpreadElement' ? 'a spread' : 'a method', reader);
      continue;
    }
    const key = propertyKey(property);
    if (key === null) {
      notLiteral(path, 'a computed or non-string key', reader);
      continue;
    }
    const valuePath = { parent: path, key };
    if (property.kind !== 'init' || property.method || property.shorthand) {
      const what =
        property.kind !== 'init' ? `a ${property.kind}ter` : property.method ? 'a method' : 'a shorthand property';
      result[key] = notLiteral(valuePath, what, reader);
    } else if (key === '__proto__' || Object.hasOwn(result, key)) {
      notLiteral(valuePath, key === '__proto__' ? 'a __proto__ key' : `a second '${key}' key`, reader);
    } else {
      result[key] = readNode(property.value as Expression, valuePath, reader);
    }
  }
  return result;
}

function propertyKey(property: Property): string | null {
  if (property.computed) return null;
  if (property.key.type === 'Identifier') return property.key.name;
  if (
    property.key.type === 'Literal' &&
    (typeof property.key.value === 'string' || typeof property.key.value === 'number')
  ) {
    return String(property.key.value);
  }
  return null;
}

function finite(value: number, path: PathRef, reader: Reader): number {
  if (!Number.isFinite(value)) reader.nonFinite.push(pathText(path));
  return value;
}

function notLiteral(link: PathRef, what: string, reader: Reader): null {
  const path = pathText(link);
  reader.opaque.push(path);
  reader.sink.add(
    reader.code,
    path,
    `${what} is not literal data`,
    'write plain JSON-like values: objects, arrays, strings, numbers, booleans, null',
  );
  return null;
}

/** What a node that is not literal data is, in words a finding can use. */
export function describeExpression(node: AnyNode): string {
  switch (node.type) {
    case 'TemplateLiteral':
      return 'a template literal with expressions';
    case 'Identifier':
      return `the identifier '${(node as AnyNode & { name: string }).name}'`;
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

/** `.name`, `[3]` or `["odd key"]`, the three steps `childPath` writes. */
export const PATH_STEP = /\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;

/** Walks the syntax tree along a path; where the path leaves what was written, the last node reached answers. */
function astLocator(root: Expression, rootPath: string): Locator {
  return (path) => {
    if (!path.startsWith(rootPath)) return undefined;
    let node: AnyNode = root;
    for (const step of path.slice(rootPath.length).matchAll(PATH_STEP)) {
      const next = stepInto(node, step[1] ?? (step[3] ? (JSON.parse(step[3]) as string) : Number(step[2])));
      if (!next) break;
      node = next;
    }
    return startOf(node);
  };
}

function stepInto(node: AnyNode, key: string | number): AnyNode | null {
  if (node.type === 'ArrayExpression' && typeof key === 'number') {
    return (node as unknown as { elements: Array<AnyNode | null> }).elements[key] ?? null;
  }
  if (node.type !== 'ObjectExpression') return null;
  const properties = (node as unknown as { properties: Array<Property | SpreadElement> }).properties;
  for (const property of properties) {
    if (property.type === 'Property' && propertyKey(property) === String(key)) return property.value;
  }
  return null;
}
