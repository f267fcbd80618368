// Writes data as JavaScript object-literal text the way FlowMCP schemas are written by hand:
// two-space indent, single quotes, keys bare where they can be, no trailing commas. An object or
// array goes on one line when that line stays short (one parameter, one test per line, as the
// spec asks), otherwise one entry per line. The same data always gives the same text.
//
// Source text that could not be read as data travels as a `SourceText` and is written back
// verbatim, so nothing of the legacy file is lost on the way.

import { actsOnTerminal } from '../report/format.js';

/** Code from the legacy file, written back as it was (the checker then reports it where it stands). */
export class SourceText {
  constructor(readonly text: string) {}
}

/** A value written on one line however long: FlowMCP writes each parameter and each test so. */
export class OneLine {
  constructor(readonly value: unknown) {}
}

const INDENT = '  ';
/** Longest line an object or array is written on whole; FlowMCP parameter lines run to about 160. */
const MAX_LINE = 180;

export function formatValue(value: unknown, indent = ''): string {
  if (value instanceof SourceText) return value.text;
  if (value instanceof OneLine) return formatValue(value.value, ONE_LINE);
  if (Array.isArray(value)) return formatArray(value, indent);
  if (typeof value === 'object' && value !== null) return formatObject(value as Record<string, unknown>, indent);
  return formatScalar(value);
}

/** A multi-line object even when it would fit on one line: for `main` and the routes map. */
export function formatBlock(value: Record<string, unknown>, indent = ''): string {
  return multiLine(
    Object.entries(value).map(([key, item]) => `${formatKey(key)}: ${formatValue(item, indent + INDENT)}`),
    '{',
    '}',
    indent,
  );
}

function formatObject(value: Record<string, unknown>, indent: string): string {
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  const inline = `{ ${entries.map(([key, item]) => `${formatKey(key)}: ${formatValue(item, ONE_LINE)}`).join(', ')} }`;
  if (fitsOnOneLine(inline, indent)) return inline;
  return formatBlock(value, indent);
}

function formatArray(value: unknown[], indent: string): string {
  if (value.length === 0) return '[]';
  const inline = `[${value.map((item) => formatValue(item, ONE_LINE)).join(', ')}]`;
  if (fitsOnOneLine(inline, indent)) return inline;
  return multiLine(
    value.map((item) => formatValue(item, indent + INDENT)),
    '[',
    ']',
    indent,
  );
}

/** Passed as the indent of a OneLine value and everything in it. */
const ONE_LINE = '\u0000one line';

function fitsOnOneLine(text: string, indent: string): boolean {
  return !text.includes('\n') && (indent === ONE_LINE || indent.length + text.length <= MAX_LINE);
}

function multiLine(items: string[], open: string, close: string, indent: string): string {
  const inner = indent + INDENT;
  return `${open}\n${items.map((item) => inner + item).join(',\n')}\n${indent}${close}`;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export function formatKey(key: string): string {
  return IDENTIFIER.test(key) ? key : quote(key);
}

function formatScalar(value: unknown): string {
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number')
    return Object.is(value, -0) ? '-0' : Number.isFinite(value) ? String(value) : value > 0 ? '1e999' : '-1e999';
  if (typeof value === 'boolean' || value === null) return String(value);
  return 'undefined';
}

/** A single-quoted string literal; control and line-separator characters escaped so it stays on one line. */
export function quote(text: string): string {
  let result = "'";
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (char === "'" || char === '\\') result += `\\${char}`;
    else if (char === '\n') result += '\\n';
    else if (char === '\r') result += '\\r';
    else if (char === '\t') result += '\\t';
    else if (code < 0x20 || actsOnTerminal(char)) result += `\\u${code.toString(16).padStart(4, '0')}`;
    else result += char;
  }
  return `${result}'`;
}
