// scan/leading-data.ts reads `main` (or a list's `list`) from the text without a syntax tree. It must read exactly what
// literal.ts reads from the tree (values and source positions), give up on anything else, and
// never let the blanked text it parses change how the rest of the file reads.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Expression } from '../../src/scan/ast.js';
import { readLeadingData } from '../../src/scan/leading-data.js';
import { parseWithLeadingData, withoutObject } from '../../src/scan/leading-parse.js';
import { checkListText } from '../../src/lists/check.js';
import { readLiteral } from '../../src/scan/literal.js';
import { parseModule } from '../../src/scan/parse.js';
import { FindingSink } from '../../src/report/findings.js';
import { checkSchemaText } from '../../src/schema/check.js';

/** `main` as literal.ts reads it from the parsed file, with its locator. */
function fromTree(text: string) {
  const sink = new FindingSink('t.mjs', text);
  const program = parseModule(text, sink);
  const statement = program?.body[0] as { declaration: { declarations: Array<{ init: Expression }> } };
  return readLiteral(statement.declaration.declarations[0]!.init, 'main', sink, 'SEC017');
}

/** Every path of containers and their members in `value`, as childPath writes them. */
function pathsOf(value: unknown, path = 'main'): string[] {
  if (Array.isArray(value)) return [path, ...value.flatMap((item, index) => pathsOf(item, `${path}[${index}]`))];
  if (typeof value === 'object' && value !== null) {
    return [
      path,
      ...Object.entries(value).flatMap(([key, item]) =>
        pathsOf(item, /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`),
      ),
    ];
  }
  return [path];
}

// Source text for data, written the many ways JavaScript allows.
const trivia = fc.constantFrom('', ' ', '\n', '\t', ' /* note */ ', ' // line\n', '\r\n', '\u00a0');
const keyText = (key: string) =>
  fc.constantFrom(
    /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key),
    JSON.stringify(key),
    `'${key.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n').replaceAll('\r', '\\r').replaceAll('\u2028', '\\u2028').replaceAll('\u2029', '\\u2029')}'`,
  );
const stringText = (value: string) =>
  fc.constantFrom(
    JSON.stringify(value),
    `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n').replaceAll('\r', '\\r')}'`,
    `"${value
      .split('')
      .map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .join('')}"`,
    /[`\\$\r]/.test(value) ? JSON.stringify(value) : `\`${value}\``,
  );
const numberText = (value: number) =>
  fc.constantFrom(
    String(value),
    Number.isInteger(value) && value >= 0 ? `0x${value.toString(16)}` : String(value),
    value < 0 ? `- ${-value}` : String(value),
    Number.isInteger(value) && value > 999 ? String(value).replace(/(\d)(?=(\d{3})+$)/g, '$1_') : String(value),
    value === 0 ? '0.' : String(value),
  );

type Data = null | boolean | number | string | Data[] | { [key: string]: Data };
const data: fc.Arbitrary<Data> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -1e6, max: 1e6 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc
      .dictionary(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('a', 'b_1', '$x', '10')), tie('value'), {
        maxKeys: 4,
      })
      .filter((record) => !('__proto__' in record)),
  ),
})).value as fc.Arbitrary<Data>;

function render(value: Data): fc.Arbitrary<string> {
  if (value === null || typeof value === 'boolean') return fc.constant(String(value));
  if (typeof value === 'number') return Object.is(value, -0) ? fc.constant('-0') : numberText(value);
  if (typeof value === 'string') return stringText(value);
  if (Array.isArray(value)) {
    return fc
      .tuple(fc.tuple(...value.map(render)), trivia, fc.boolean())
      .map(([items, gap, trailing]) => `[${gap}${items.join(`,${gap}`)}${trailing && items.length > 0 ? ',' : ''}]`);
  }
  const entries = Object.entries(value);
  return fc
    .tuple(fc.tuple(...entries.map(([key, item]) => fc.tuple(keyText(key), trivia, render(item)))), fc.boolean())
    .map(
      ([parts, trailing]) =>
        `{${parts.map(([key, gap, item]) => `${gap}${key}${gap}:${gap}${item}`).join(',')}${trailing && parts.length > 0 ? ',' : ''}}`,
    );
}

const mainText = data
  .filter(
    (value): value is { [key: string]: Data } => typeof value === 'object' && value !== null && !Array.isArray(value),
  )
  .chain((value) => fc.tuple(fc.constant(value), render(value), trivia));

describe('readLeadingData', () => {
  it('reads what the parser and literal.ts read, values and positions, however the data is written', () => {
    fc.assert(
      fc.property(mainText, ([value, source, gap]) => {
        const text = `// a schema${gap}\nexport const main = ${source}\n\nexport const handlers = () => ({})\n`;
        const fast = readLeadingData(text, 'main');
        const tree = fromTree(text);
        expect(fast, text).not.toBeNull();
        expect(fast!.data.value).toEqual(tree.value);
        expect(fast!.data.value).toEqual(value);
        for (const path of pathsOf(value))
          expect(fast!.data.locate(path), `${path} in ${text}`).toBe(tree.locate(path));
        // A path below what was written answers with the nearest written value, as the tree's locator does.
        expect(fast!.data.locate('main.nothing[3].here')).toBe(tree.locate('main.nothing[3].here'));
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['a spread', '{ ...other }'],
    ['an identifier', '{ a: b }'],
    ['undefined', '{ a: undefined }'],
    ['a call', "{ a: fetch('x') }"],
    ['a function', '{ a: () => 1 }'],
    ['a method', '{ a() { return 1 } }'],
    ['a getter', '{ get a() { return 1 } }'],
    ['a shorthand', '{ a }'],
    ['a computed key', "{ ['a']: 1 }"],
    ['__proto__', '{ __proto__: null }'],
    ['a second key', '{ a: 1, a: 2 }'],
    ['a hole', '{ a: [1,,2] }'],
    ['a template with a substitution', '{ a: `x${1}` }'],
    ['a template with an escape', '{ a: `x\\n` }'],
    ['a legacy octal', '{ a: 010 }'],
    ['an octal escape', "{ a: '\\1' }"],
    ['a code point escape', "{ a: '\\u{41}' }"],
    ['a line continuation', "{ a: 'x\\\ny' }"],
    ['a bigint', '{ a: 1n }'],
    ['a regular expression', '{ a: /x/ }'],
    ['a plus sign', '{ a: +1 }'],
    ['a number JSON cannot carry', '{ a: 1e999 }'],
    ['a non-ASCII name', '{ ä: 1 }'],
    ['an escaped name', '{ \\u0061: 1 }'],
    ['an unterminated comment', '{ a: 1 /* }'],
    ['a division', '{ a: 4 / 2 }'],
  ])('gives up on %s, for the parser to report', (_what, object) => {
    expect(readLeadingData(`export const main = ${object}\n`, 'main')).toBeNull();
  });

  it('gives up unless the declaration opens the file (after comments only)', () => {
    expect(readLeadingData("'use strict'\nexport const main = { a: 1 }\n", 'main')).toBeNull();
    expect(readLeadingData('const x = 1\nexport const main = { a: 1 }\n', 'main')).toBeNull();
    expect(readLeadingData('export /* */ const main = { a: 1 }\n', 'main')).toBeNull();
    expect(readLeadingData('#!/usr/bin/env node\nexport const main = { a: 1 }\n', 'main')).toBeNull();
    expect(
      readLeadingData('/* export const main = { a: 1 } */\nexport const main = { b: 2 }\n', 'main')?.data.value,
    ).toEqual({ b: 2 });
  });

  it('gives up on nesting deeper than it reads, which the parser then reads', () => {
    const deep = `export const main = { a: ${'['.repeat(100)}${']'.repeat(100)} }\n`;
    expect(readLeadingData(deep, 'main')).toBeNull();
    expect(
      checkSchemaText('deep.mjs', deep, { allowedLibraries: new Set() }).findings.map((finding) => finding.code),
    ).not.toContain('SEC016');
  });
});

describe('withoutObject', () => {
  it.each([
    ['spanning lines', "export const main = { a: 'x',\r\n b: [1,\u2028 2] }\nexport const handlers = 1\n"],
    ['empty', 'export const main = {}\n'],
  ])('cuts the object to {} and keeps the rest as it was (%s)', (_what, text) => {
    const main = readLeadingData(text, 'main')!;
    const cut = withoutObject(text, main.start, main.end);
    expect(cut).toBe(`${text.slice(0, main.start)}{}${text.slice(main.end)}`);
    const program = parseModule(cut, new FindingSink('t.mjs', cut))!;
    const statement = program.body[0] as { declaration: { declarations: Array<{ init: Expression }> } };
    expect(statement.declaration.declarations[0]?.init).toMatchObject({
      type: 'ObjectExpression',
      properties: [],
      start: main.start,
      end: main.start + 2,
    });
  });
});

describe('parseWithLeadingData', () => {
  const check = (text: string) => checkSchemaText('t.mjs', text, { allowedLibraries: new Set() });
  const slow = (text: string) => check(text.replace('export const main', 'export /**/const main'));

  it.each([
    ['a member of the object', 'export const main = { a: 1 }.a\n'],
    ['an operator after the object', "export const main = { a: 1 } + fetch('https://x.example')\n"],
    ['a second declarator with code', "export const main = { a: 1 }, other = fetch('https://x.example')\n"],
  ])('reads the file the ordinary way when %s follows, and reports what the ordinary way reports', (_what, text) => {
    const sink = new FindingSink('t.mjs', text);
    const parsed = parseWithLeadingData(text, 'main', sink);
    const leading = readLeadingData(text, 'main');
    const sameShape = parsed.data === null || (leading !== null && parsed.data.end === leading.end);
    expect(sameShape).toBe(true);
    const codes = (findings: Array<{ code: string; line?: number }>) =>
      findings.map((finding) => `${finding.code}@${finding.line}`);
    expect(codes(check(text).findings)).toEqual(codes(slow(text).findings));
  });

  it('places what it finds in the code after main, and reads the handlers factory, as the ordinary way does', () => {
    const text = [
      '// a schema',
      'export const main = {',
      "  namespace: 'demo', name: 'Demo', description: 'A demo.', version: '2.0.0', root: 'https://api.example.com',",
      "  routes: { getThing: { method: 'GET', path: '/thing', description: 'A thing.', parameters: [], tests: [{ _description: 'it' }],",
      "    output: { mimeType: 'application/json', schema: { type: 'object' } } } }",
      '}',
      '',
      'export const handlers = ({ sharedLists, libraries }) => ({',
      '  getThing: { postRequest: async ({ response }) => { globalThis.fetch; return { response } }, onError: () => 1 },',
      '  noSuchRoute: {}',
      '})',
      'process.exit(1)',
      '',
    ].join('\n');
    expect(readLeadingData(text, 'main')).not.toBeNull();
    const fast = check(text);
    const ordinary = slow(text);
    const afterMain = (findings: typeof fast.findings) => findings.filter((finding) => (finding.line ?? 0) > 6);
    expect(afterMain(fast.findings).map((finding) => finding.code)).toEqual(
      expect.arrayContaining(['SEC006', 'VAL003', 'VAL005']),
    );
    expect(afterMain(fast.findings)).toEqual(afterMain(ordinary.findings));
    expect(fast.findings).toHaveLength(ordinary.findings.length);
    // Without the faults, the file loads with the same handlers factory, read from the parsed text.
    const clean = text
      .replace('globalThis.fetch; ', '')
      .replace(', onError: () => 1', '')
      .replace('  noSuchRoute: {}\n', '')
      .replace('process.exit(1)\n', '');
    expect(check(clean).schema?.handlers).toEqual(slow(clean).schema?.handlers);
    expect(check(clean).schema?.handlers?.factorySource).toMatch(
      /^\(\{ sharedLists, libraries \}\) => \(\{\n  getThing/,
    );
  });

  it('finds code after main at the offsets of the original text', () => {
    const text = "export const main = {\n  namespace: 'x'\n}\nprocess.exit(1)\n";
    const findings = check(text).findings.filter((finding) => finding.code === 'SEC006');
    expect(findings).toEqual([expect.objectContaining({ line: 4, column: 1 })]);
    expect(findings).toEqual(slow(text).findings.filter((finding) => finding.code === 'SEC006'));
  });
});

describe('a list file', () => {
  const listText = (entries: string) =>
    `// colours\nexport const list = {\n  meta: { name: 'colours', version: '1.0.0', description: 'Colours.', fields: [{ key: 'name', type: 'string', description: 'Its name.' }] },\n  entries: ${entries}\n}\n`;

  it('is read from the text with the findings and positions the tree gives', () => {
    for (const entries of [
      "[{ name: 'red' }, { name: 'green' }]",
      "[{ name: 'red' }, { name: 7 }]",
      "[{ name: 'red', extra: true }]",
    ]) {
      const text = listText(entries);
      expect(readLeadingData(text, 'list')).not.toBeNull();
      const fast = checkListText('colours.mjs', text);
      const slow = checkListText('colours.mjs', text.replace('export const list', 'export /**/const list'));
      const seen = (check: typeof fast) =>
        check.sink.findings.map(({ code, line, column, path, message }) => ({
          code,
          line,
          column: line === 2 ? 0 : column,
          path,
          message,
        }));
      expect(seen(fast)).toEqual(seen(slow));
      expect(fast.list).toEqual(slow.list);
    }
  });

  it('with code in it is read from the tree, which reports the code', () => {
    const text = listText("[{ name: 'red' }].map((entry) => entry)");
    expect(checkListText('colours.mjs', text).sink.findings.map((finding) => finding.code)).toEqual(
      checkListText('colours.mjs', text.replace('export const list', 'export /**/const list')).sink.findings.map(
        (finding) => finding.code,
      ),
    );
  });
});
