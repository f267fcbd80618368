// Writes routes' `output.schema` into a schema file's text, surgically: the file is parsed (never
// run), each route's object literal is found under `main.routes` (or `main.tools`), and only the
// value of its `output.schema` is replaced, or the missing property inserted. Every other byte
// of the file stays as it was, comments and formatting included.

import { FindingSink } from '../report/findings.js';
import { endOf, startOf, type Expression, type ObjectExpression, type Property } from '../scan/ast.js';
import { parseModule } from '../scan/parse.js';
import { readSchemaModule } from '../schema/module.js';
import { literalText, type LiteralLayout } from './literal-text.js';

export interface OutputEdit {
  /** The route's name, as a key of `main.routes` or `main.tools`. */
  route: string;
  /** The new `output.schema`. */
  schema: Record<string, unknown>;
}

/** One replacement of `text.slice(start, end)`. */
interface Splice {
  start: number;
  end: number;
  insert: string;
}

/** The file's text with every edit applied, or why one of them cannot be placed. */
export function applyOutputEdits(text: string, edits: readonly OutputEdit[]): { text: string } | { problem: string } {
  const sink = new FindingSink('(edit)', text);
  const program = parseModule(text, sink);
  const main = program ? readSchemaModule(program, sink).main : null;
  if (main?.type !== 'ObjectExpression') return { problem: '`export const main` is not written as an object literal' };
  const routes = propertyOf(main, 'routes') ?? propertyOf(main, 'tools');
  if (routes?.value.type !== 'ObjectExpression')
    return { problem: '`main.routes` (or `main.tools`) is not written as an object literal' };
  const splices: Splice[] = [];
  for (const edit of edits) {
    const route = propertyOf(routes.value, edit.route)?.value;
    if (route?.type !== 'ObjectExpression')
      return { problem: `route '${edit.route}' is not written as an object literal in main` };
    const splice = outputSplice(text, route, edit.schema);
    if ('problem' in splice) return { problem: `route '${edit.route}': ${splice.problem}` };
    splices.push(splice);
  }
  // From the end backwards, so that each splice's offsets still hold.
  let edited = text;
  for (const { start, end, insert } of splices.sort((a, b) => b.start - a.start))
    edited = edited.slice(0, start) + insert + edited.slice(end);
  return { text: edited };
}

/** Replaces `output.schema`'s value, or inserts `schema` into `output`, or `output` into the route. */
function outputSplice(
  text: string,
  route: ObjectExpression,
  schema: Record<string, unknown>,
): Splice | { problem: string } {
  const output = propertyOf(route, 'output');
  if (!output) {
    const value = { mimeType: 'application/json', schema };
    return insertProperty(text, route, 'output', value);
  }
  if (output.value.type !== 'ObjectExpression') return { problem: '`output` is not written as an object literal' };
  const current = propertyOf(output.value, 'schema');
  if (!current) return insertProperty(text, output.value, 'schema', schema);
  const start = startOf(current.value);
  return {
    start,
    end: endOf(current.value),
    insert: literalText(schema, { ...layoutOf(text, output.value), column: start - lineStart(text, start) }),
  };
}

/** `key: value` added after the object's last property (or as its only one). */
function insertProperty(text: string, object: ObjectExpression, key: string, value: unknown): Splice {
  const layout = layoutOf(text, object);
  const { indent } = layout;
  const head = `${key}: `;
  const entry = head + literalText(value, { ...layout, column: indent.length + head.length });
  const last = object.properties.at(-1);
  if (last) return { start: endOf(last), end: endOf(last), insert: `,\n${indent}${entry}` };
  // `{}`: the property goes on a line of its own between the braces.
  const closeIndent = indentOfLine(text, startOf(object));
  return {
    start: startOf(object) + 1,
    end: endOf(object) - 1,
    insert: `\n${indent}${entry}${layout.trailingComma ? ',' : ''}\n${closeIndent}`,
  };
}

/**
 * How the object's properties are laid out: their indentation, by how much more than the line
 * the object opens on, and whether a comma follows the last entry of a broken object (looked
 * for in the object's own text and, for one written on one line, the whole file's).
 */
function layoutOf(text: string, object: ObjectExpression): Omit<LiteralLayout, 'column'> {
  const outer = indentOfLine(text, startOf(object));
  const first = object.properties[0];
  const inner = first && lineStart(text, startOf(first)) > startOf(object) ? indentOfLine(text, startOf(first)) : '';
  const own = text.slice(startOf(object), endOf(object));
  const trailingComma = TRAILING_COMMA.test(own.includes('\n') ? own : text);
  if (inner.length > outer.length && inner.startsWith(outer))
    return { indent: inner, step: inner.slice(outer.length), trailingComma };
  const step = inner.startsWith('\t') || outer.startsWith('\t') ? '\t' : '    ';
  return { indent: outer + step, step, trailingComma };
}

/** A comma at the end of a line whose next line closes an object or array. */
const TRAILING_COMMA = /,[ \t]*\r?\n[ \t]*[}\]]/;

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function indentOfLine(text: string, offset: number): string {
  const start = lineStart(text, offset);
  return /^[ \t]*/.exec(text.slice(start, offset))?.[0] ?? '';
}

/** The property `name` of an object literal, written as `name`, `'name'` or `"name"`; the last one wins, as in JavaScript. */
function propertyOf(object: ObjectExpression, name: string): (Property & { value: Expression }) | undefined {
  let found: (Property & { value: Expression }) | undefined;
  for (const property of object.properties) {
    if (property.type !== 'Property' || property.computed) continue;
    const key =
      property.key.type === 'Identifier'
        ? property.key.name
        : property.key.type === 'Literal'
          ? String(property.key.value)
          : undefined;
    if (key === name) found = property as Property & { value: Expression };
  }
  return found;
}
