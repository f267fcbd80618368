import { parseModule } from 'meriyah';
import { describe, expect, it } from 'vitest';
import { FindingSink } from '../../src/report/findings.js';
import { readLiteral } from '../../src/scan/literal.js';
import type { Expression } from '../../src/scan/ast.js';

const PREFIX = 'export const main = ';

function read(source: string) {
  const program = parseModule(`${PREFIX}${source}`, { ranges: true });
  const statement = program.body[0] as { declaration: { declarations: Array<{ init: Expression }> } };
  const sink = new FindingSink('t.mjs');
  const data = readLiteral(statement.declaration.declarations[0]!.init, 'main', sink, 'SEC017');
  return { ...data, findings: sink.findings };
}

describe('readLiteral', () => {
  it('reads JSON-like literals, negative numbers and plain template strings', () => {
    const { value, findings } = read(`{ a: 'x', "b-c": [1, -2.5, true, null], d: \`plain\`, 7: { e: [] } }`);
    expect(findings).toEqual([]);
    expect(value).toEqual({ a: 'x', 'b-c': [1, -2.5, true, null], d: 'plain', 7: { e: [] } });
  });

  it('finds where every path was written', () => {
    const source = `{\n  routes: {\n    getX: { path: '/x', 'odd key': [1, 2] }\n  }\n}`;
    const { locate } = read(source);
    const offset = (needle: string) => PREFIX.length + source.indexOf(needle);
    expect(locate('main.routes.getX.path')).toBe(offset("'/x'"));
    expect(locate('main.routes.getX["odd key"][1]')).toBe(offset('2]'));
    expect(locate('main')).toBe(PREFIX.length);
    // A field that was not written is placed where its nearest written ancestor is.
    expect(locate('main.routes.getX.method')).toBe(offset('{ path'));
  });

  it.each([
    ['an identifier', `{ a: undefinedValue }`, 'main.a', "the identifier 'undefinedValue'"],
    ['a call', `{ a: JSON.stringify({}) }`, 'main.a', 'a call'],
    ['a function', `{ a: () => 1 }`, 'main.a', 'a function'],
    ['a getter', `{ get a() { return 1 } }`, 'main.a', 'a getter'],
    ['a method', `{ a() { return 1 } }`, 'main.a', 'a method'],
    ['a shorthand property', `{ a }`, 'main.a', 'a shorthand property'],
    ['a spread', `{ ...other }`, 'main', 'a spread'],
    ['a computed key', `{ ['a' + 'b']: 1 }`, 'main', 'a computed or non-string key'],
    ['a template with an expression', '{ a: `x${1}` }', 'main.a', 'a template literal with expressions'],
    ['an array hole', `{ a: [, 'optional()'] }`, 'main.a[0]', 'an array hole'],
    ['a regular expression', `{ a: /x/ }`, 'main.a', 'a regular expression or bigint'],
    ['a bigint', `{ a: 1n }`, 'main.a', 'a regular expression or bigint'],
    ['a __proto__ key', `{ __proto__: { polluted: true } }`, 'main.__proto__', 'a __proto__ key'],
    ['a duplicate key', `{ a: 1, a: 2 }`, 'main.a', "a second 'a' key"],
    ['a unary other than minus', `{ a: !0 }`, 'main.a', "the expression '!…'"],
  ])('reports %s as SEC017 and reads it as null', (_name, source, path, what) => {
    const { findings, opaque } = read(source);
    expect(findings.map((f) => [f.code, f.path, f.message])).toEqual([['SEC017', path, `${what} is not literal data`]]);
    expect(opaque).toEqual([path]);
  });

  it('lists numbers that JSON cannot carry', () => {
    expect(read(`{ a: [1e999, -1e999, 2] }`).nonFinite).toEqual(['main.a[0]', 'main.a[1]']);
  });

  it('never lets a __proto__ key reach the prototype', () => {
    const { value } = read(`{ __proto__: { polluted: true }, ok: 1 }`);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
