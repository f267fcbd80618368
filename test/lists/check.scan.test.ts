// List files are data: whatever code one holds is a finding, and nothing of it ever runs.

import { describe, expect, it } from 'vitest';
import { checkListText } from '../../src/lists/check.js';

const META = `meta: { name: 'colours', version: '1.0.0', description: 'Colours.', fields: [{ key: 'code', type: 'string', description: 'The code.' }] }`;

/** A list file whose only entry is `entry`, followed by `after`. */
function listWith(entry: string, after = ''): string {
  return `export const list = {\n  ${META},\n  entries: [${entry}]\n};\n${after}`;
}

function codes(text: string): string[] {
  return checkListText('colours.mjs', text).sink.findings.map((f) => f.code);
}

describe('code in a list file is reported, never run', () => {
  it.each([
    ['a getter that would loop forever', listWith('{ get code() { while (true) {} } }'), ['SEC200']],
    ['a getter that would throw', listWith("{ get code() { throw new Error('ran') } }"), ['SEC200']],
    ['a setter', listWith("{ code: 'a', set other(v) { globalThis.x = v } }"), ['SEC200', 'SEC204']],
    ['a method', listWith("{ code() { return 'a' } }"), ['SEC200']],
    ['a function expression', listWith("{ code: function () { return 'a' } }"), ['SEC200']],
    ['an arrow', listWith("{ code: () => 'a' }"), ['SEC201']],
    ['an IIFE', listWith("{ code: (() => 'a')() }"), ['SEC201', 'SEC206']],
    ['an async arrow', listWith("{ code: async () => 'a' }"), ['SEC201', 'SEC202']],
    ['top-level await', listWith("{ code: await 'a' }"), ['SEC202', 'SEC204']],
    ['a template expression', listWith('{ code: `a${1}` }'), ['SEC203']],
    ['process.env inside a value', listWith('{ code: process.env.HOME }'), ['SEC204', 'SEC206']],
    ['process.env in a template', listWith('{ code: `${process.env.HOME}` }'), ['SEC203', 'SEC204']],
    ['a computed global', listWith("{ code: globalThis['pro' + 'cess'] }"), ['SEC204', 'SEC204', 'SEC206']],
    ['an import', `import fs from 'node:fs';\n${listWith("{ code: 'a' }")}`, ['SEC204', 'SEC204']],
    ['an extra statement', listWith("{ code: 'a' }", 'globalThis.ran = true;\n'), ['SEC205', 'SEC204']],
    ['a function declaration', listWith("{ code: 'a' }", 'function f() {}\n'), ['SEC205', 'SEC200']],
    ['a second export', listWith("{ code: 'a' }", 'export const other = 1;\n'), ['SEC205']],
    ['a default export', listWith("{ code: 'a' }", 'export default 1;\n'), ['SEC205']],
    ['an identifier', listWith('{ code: colour }'), ['SEC206']],
    ['a spread', listWith("{ ...base, code: 'a' }"), ['SEC206']],
    ['a computed key (the entry is not checked further)', listWith("{ ['co' + 'de']: 'a' }"), ['SEC206']],
    ['a number JSON cannot carry', listWith("{ code: 'a', n: 1e999 }"), ['SEC206', 'LST012']],
  ])('%s', (_name, text, expected) => {
    expect(codes(text).sort()).toEqual([...expected].sort());
  });

  it('reads a list whose getter would loop forever in finite time, without running it', () => {
    const text = listWith(
      "{ code: 'a' }, { get code() { globalThis.__listRan = true; while (true) {} } }",
      'globalThis.__listRan = true;\n',
    );
    // Running the getter would never return: the test's own timeout is the bound, not a clock.
    const result = checkListText('colours.mjs', text);
    expect(result.list).toBeNull();
    expect(result.sink.findings.map((f) => f.code)).toContain('SEC200');
    expect((globalThis as { __listRan?: boolean }).__listRan).toBeUndefined();
  });

  it('names the construct, points at it, and says the rule of a schema pattern', () => {
    const [getter, pattern] = checkListText('colours.mjs', listWith('{ get code() { return process.env.X } }')).sink
      .findings;
    expect(getter).toMatchObject({ code: 'SEC200', line: 3, column: 15, message: 'a getter in a list file' });
    expect(pattern).toMatchObject({ code: 'SEC204', message: 'forbidden: process (schema rule SEC006)' });
  });

  it('accepts comments, a template without expressions and words like process in strings', () => {
    const text = `// process.env is never read here\n/* () => 1 */\n${listWith('{ code: `process.env` }')}`;
    expect(codes(text)).toEqual([]);
  });

  it('reports a missing list export and a syntax error without throwing', () => {
    expect(codes('export const lists = { meta: {}, entries: [] };\n')).toEqual(['SEC205', 'LST001']);
    expect(codes('export const list = {')).toEqual(['SEC016']);
  });
});
