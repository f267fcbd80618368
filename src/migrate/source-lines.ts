// Moving code of the legacy file to another place in the new one: its lines take the new
// indentation, except lines that begin inside a template literal or string, whose leading
// spaces are part of the value (a GraphQL query in a template keeps its exact text).

import { endOf, startOf, type AnyNode } from '../scan/ast.js';
import { forEachChild } from '../scan/walk.js';

/** The source of `node`, its lines moved from the node's own indentation to `indent`. */
export function reindented(text: string, node: AnyNode, indent: string): string {
  const start = startOf(node);
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const before = text.slice(lineStart, start);
  const own = /^[ \t]*/.exec(before)?.[0] ?? '';
  const protectedRanges = textRanges(node);
  let result = '';
  let offset = start;
  for (const line of text.slice(start, endOf(node)).split('\n')) {
    if (offset === start) result = line;
    else if (protectedRanges.some(([from, to]) => offset > from && offset < to)) result += `\n${line}`;
    else result += `\n${line.startsWith(own) ? indent + line.slice(own.length) : line}`;
    offset += line.length + 1;
  }
  return result;
}

/** Every JavaScript line terminator: each one ends a `//` comment. */
const LINE_TERMINATOR = /\r\n|[\n\r\u2028\u2029]/;

/**
 * Every line of `text` as a `//` comment at `indent`. Lines are split at every line terminator
 * JavaScript knows, not only \n, so nothing of the text (a U+2028 in a string, a name with a
 * line break) can end a comment early and become code. A block comment could be ended by `*\/`.
 */
export function commentedOut(text: string, indent: string): string {
  return text
    .split(LINE_TERMINATOR)
    .map((line) => `${indent}//${line ? ` ${line}` : ''}`)
    .join('\n');
}

/** Ranges of template-literal text and string literals, where a line's leading spaces are data. */
function textRanges(node: AnyNode): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  const visit = (child: AnyNode): void => {
    if (child.type === 'TemplateElement' || (child.type === 'Literal' && typeof child.value === 'string'))
      ranges.push([startOf(child), endOf(child)]);
    forEachChild(child, visit, undefined, undefined);
  };
  visit(node);
  return ranges;
}
