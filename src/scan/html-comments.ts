// SES refuses to evaluate source text that holds `<!--` or `-->` anywhere (an HTML-like comment
// is a comment in sloppy scripts, so it could hide code from a reader), even inside a string or a
// regular expression, where it is plain text; two files of the public catalogs scrape HTML that
// way. Such text is rewritten to the same value before the sandbox evaluates it: in strings,
// templates and regular expressions `<` and `>` become `\x3C` and `\x3E` (the same character),
// in comments they become spaces. Where the sequence is code, not text, the source is unchanged
// and SES still refuses it.

import { endOf, startOf, type AnyNode } from './ast.js';
import { meriyah } from '../shared/deps.js';
import { forEachChild } from './walk.js';

const HTML_COMMENT = /<!--|-->/;

/** `source` (an expression, the handlers factory) with every HTML-like comment sequence inside text or comments escaped. */
export function escapeHtmlComments(source: string): string {
  if (!HTML_COMMENT.test(source)) return source;
  // Parsed in parentheses, as the sandbox evaluates it: offsets are one more than in `source`.
  const ranges: Array<{ start: number; end: number; comment: boolean }> = [];
  let program: AnyNode;
  try {
    program = meriyah().parseScript(`(${source}\n)`, {
      ranges: true,
      next: true,
      onComment: (_type: string, _value: string, start: number, end: number) =>
        ranges.push({ start: start - 1, end: end - 1, comment: true }),
    }) as unknown as AnyNode;
  } catch {
    // A file the parser refuses is reported by the scan that parses it; here it is left as it is.
    return source;
  }
  collectText(program, ranges);
  let result = source;
  // From the end, so that earlier offsets stay valid; each range is rewritten on its own.
  for (const { start, end, comment } of ranges.sort((a, b) => b.start - a.start)) {
    const text = result.slice(start, end);
    if (!HTML_COMMENT.test(text)) continue;
    const escaped = comment
      ? text.replaceAll('<!--', '    ').replaceAll('-->', '   ')
      : text.replaceAll('<!--', '\\x3C!--').replaceAll('-->', '--\\x3E');
    result = result.slice(0, start) + escaped + result.slice(end);
  }
  return result;
}

/** The ranges of string literals, regular expressions and template text, shifted back by the parenthesis. */
function collectText(node: AnyNode, ranges: Array<{ start: number; end: number; comment: boolean }>): void {
  const isText =
    (node.type === 'Literal' && (typeof (node as { value?: unknown }).value === 'string' || 'regex' in node)) ||
    node.type === 'TemplateElement';
  if (isText) ranges.push({ start: startOf(node) - 1, end: endOf(node) - 1, comment: false });
  forEachChild(node, (child, _parent, _field, list: typeof ranges) => collectText(child, list), ranges, null);
}
