// Plain data written as JavaScript source, in the style of the schema files: single-quoted
// strings, bare keys where they are identifiers, an object or array on one line where it fits,
// otherwise one entry a line (with a trailing comma where the file writes them). What
// `--update-output` puts into a file.

import { terminalJson } from '../report/format.js';
import { isRecord } from '../shared/raw.js';

/** A line longer than this is broken into one entry a line. */
const MAX_LINE = 120;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export interface LiteralLayout {
  /** The indentation of the line the value starts on. */
  indent: string;
  /** What each nesting level adds to it. */
  step: string;
  /** The column the value starts at. */
  column: number;
  /** A comma after the last entry of a broken object or array. */
  trailingComma: boolean;
}

/** `value` as source text laid out as `layout` says; nested lines are indented by `step` more per level. */
export function literalText(value: unknown, layout: LiteralLayout): string {
  const inline = inlineText(value);
  if (layout.column + inline.length <= MAX_LINE || !isContainer(value)) return inline;
  const inner = layout.indent + layout.step;
  const nested = (column: number): LiteralLayout => ({ ...layout, indent: inner, column });
  const entries = Array.isArray(value)
    ? value.map((item) => literalText(item, nested(inner.length)))
    : Object.entries(value as Record<string, unknown>).map(([key, item]) => {
        const head = `${keyText(key)}: `;
        return head + literalText(item, nested(inner.length + head.length));
      });
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  const body = entries.map((entry) => `${inner}${entry}`).join(',\n');
  return `${open}\n${body}${layout.trailingComma ? ',' : ''}\n${layout.indent}${close}`;
}

function isContainer(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : isRecord(value) && Object.keys(value).length > 0;
}

function inlineText(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[ ${value.map(inlineText).join(', ')} ]`;
  if (isRecord(value)) {
    const entries = Object.entries(value).map(([key, item]) => `${keyText(key)}: ${inlineText(item)}`);
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  }
  if (typeof value === 'string') return stringText(value);
  return value === undefined ? 'null' : String(value);
}

function keyText(key: string): string {
  return IDENTIFIER.test(key) ? key : stringText(key);
}

/**
 * A single-quoted string literal; JSON's escapes, with `'` escaped instead of `"`. Controls and
 * bidi characters an answer brought are escaped too: raw, they would disguise the file's code in
 * an editor and in the diff shown (and older parsers end a string at U+2028).
 */
function stringText(text: string): string {
  const json = terminalJson(JSON.stringify(text)).slice(1, -1).replaceAll('\\"', '"').replaceAll("'", "\\'");
  return `'${json}'`;
}
