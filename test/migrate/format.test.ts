// The formatter migrate writes `main` with: stable, readable object-literal text that reads back
// as exactly the data it was given.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FindingSink } from '../../src/report/findings.js';
import { formatBlock, formatValue, OneLine, quote, SourceText } from '../../src/migrate/format.js';
import type { Expression } from '../../src/scan/ast.js';
import { parseModule } from '../../src/scan/parse.js';
import { readLiteral } from '../../src/scan/literal.js';

/** The value `text` stands for, read by the project's own literal reader; null when it is not data. */
function readBack(text: string): unknown {
  const sink = new FindingSink('x.mjs', text);
  const program = parseModule(`export const main = ${text}`, sink);
  const declaration = program?.body[0];
  if (declaration?.type !== 'ExportNamedDeclaration' || declaration.declaration?.type !== 'VariableDeclaration')
    return null;
  const data = readLiteral(declaration.declaration.declarations[0]?.init as Expression, 'main', sink, 'SEC017');
  return sink.findings.length === 0 ? data.value : null;
}

describe('formatValue', () => {
  it('writes single-quoted strings, escaping quotes, backslashes, control and line-separator characters', () => {
    expect(quote(`it's a \\ path`)).toBe(`'it\\'s a \\\\ path'`);
    expect(quote('two\nlines\tand\r\u0001\u2028')).toBe(`'two\\nlines\\tand\\r\\u0001\\u2028'`);
    expect(quote('naïve 日本 😀')).toBe(`'naïve 日本 😀'`);
  });

  it('writes keys bare where JavaScript allows, quoted otherwise', () => {
    expect(formatValue({ name: 1, 'x-api-key': 2, $ok: 3, '0x': 4, '': 5 })).toBe(
      `{ name: 1, 'x-api-key': 2, $ok: 3, '0x': 4, '': 5 }`,
    );
  });

  it('keeps short objects and arrays on one line and breaks long ones, two spaces per level', () => {
    const long = { description: 'x'.repeat(100), tags: ['a', 'b'], nested: { deep: 'y'.repeat(80) } };
    expect(formatValue(long)).toBe(
      `{\n  description: '${'x'.repeat(100)}',\n  tags: ['a', 'b'],\n  nested: { deep: '${'y'.repeat(80)}' }\n}`,
    );
    expect(formatValue([])).toBe('[]');
    expect(formatValue({})).toBe('{}');
  });

  it('writes a OneLine value on one line however long, and a block on many however short', () => {
    const parameter = {
      position: { key: 'k'.repeat(150), value: '{{USER_PARAM}}', location: 'query' },
      z: { primitive: 'string()', options: [] },
    };
    expect(formatValue([new OneLine(parameter)], '      ')).toBe(
      `[\n        ${formatValue(parameter, '\u0000one line')}\n      ]`,
    );
    expect(formatValue(new OneLine(parameter))).not.toContain('\n');
    expect(formatBlock({ a: 1 })).toBe('{\n  a: 1\n}');
  });

  it('writes source text back verbatim', () => {
    expect(formatValue({ primitive: new SourceText("helper( 'string' )") })).toBe(`{ primitive: helper( 'string' ) }`);
  });

  it('gives the same text for the same data (no order but the given one)', () => {
    const value = { b: [1, { c: 'd' }], a: null };
    expect(formatValue(value)).toBe(formatValue(structuredClone(value)));
    expect(formatValue(value)).toBe(`{ b: [1, { c: 'd' }], a: null }`);
  });

  it('reads back as the same data, for any JSON value (property)', () => {
    // Keys are never __proto__, which object literals and the literal reader treat apart.
    const json = fc.jsonValue({ maxDepth: 5 }).filter((value) => !JSON.stringify(value).includes('"__proto__"'));
    fc.assert(
      fc.property(json, (value) => {
        const block =
          value !== null && typeof value === 'object' && !Array.isArray(value)
            ? formatBlock(value as Record<string, unknown>)
            : formatValue(value);
        expect(readBack(block)).toEqual(value);
      }),
      { numRuns: 300 },
    );
  });
});
