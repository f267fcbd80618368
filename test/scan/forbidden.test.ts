import { describe, expect, it } from 'vitest';
import { FindingSink, type Finding } from '../../src/report/findings.js';
import { type Code } from '../../src/report/codes.js';
import { scanForbidden } from '../../src/scan/forbidden.js';
import { parseModule } from '../../src/scan/parse.js';

interface Parts {
  /** A top-level statement on line 1. */
  top?: string;
  /** The expression of `main.description`, on line 4 from column 16. */
  description?: string;
  /** A statement inside the async preRequest handler, on line 16 from column 7. */
  body?: string;
}

/** A small schema file with three slots for the code under test. */
function schema({ top = '', description = "'Demo schema'", body = '' }: Parts): string {
  return [
    top,
    'export const main = {',
    "  namespace: 'demo',",
    `  description: ${description},`,
    "  name: 'Demo',",
    "  version: '2.0.0',",
    "  root: 'https://api.example.com',",
    '  routes: {',
    "    getItem: { method: 'GET', path: '/item', description: 'One item', parameters: [] }",
    '  }',
    '}',
    '',
    'export const handlers = ({ sharedLists, libraries }) => ({',
    '  getItem: {',
    '    preRequest: async ({ struct, payload }) => {',
    `      ${body}`,
    '      return { struct }',
    '    }',
    '  }',
    '})',
    '',
  ].join('\n');
}

type Hit = [Code, number, number];

// Positions are written as an offset into the slot's snippet, so each number can be checked by eye.
const top = (code: Code, offset: number): Hit => [code, 1, 1 + offset];
const desc = (code: Code, offset: number): Hit => [code, 4, 16 + offset];
const body = (code: Code, offset: number): Hit => [code, 16, 7 + offset];

function scan(text: string): Finding[] {
  const sink = new FindingSink('t.mjs', text);
  const program = parseModule(text, sink);
  if (program) scanForbidden(program, sink);
  return sink.findings;
}

/** Code, line and column of every finding, in source order. */
function hits(parts: Parts): Hit[] {
  return scan(schema(parts))
    .map((f): Hit => [f.code, f.line ?? 0, f.column ?? 0])
    .sort((a, b) => a[1] - b[1] || a[2] - b[2]);
}

describe('scanForbidden: rejected spellings', () => {
  const rejected: [string, Parts, Hit[]][] = [
    ['static import', { top: "import { ethers } from 'ethers'" }, [top('SEC001', 0)]],
    ['side-effect import of node:fs', { top: "import 'node:fs'" }, [top('SEC001', 0), top('SEC005', 7)]],
    [
      'import from fs/promises',
      { top: "import { readFile } from 'fs/promises'" },
      [top('SEC001', 0), top('SEC005', 25)],
    ],
    ["import('fs')", { body: "const mod = import('fs')" }, [body('SEC001', 12), body('SEC005', 19)]],
    ["import('f' + 's')", { body: "const mod = import('f' + 's')" }, [body('SEC001', 12), body('SEC005', 19)]],
    ['import.meta.url', { body: 'const here = import.meta.url' }, [body('SEC001', 13)]],
    ['export * from', { top: "export * from './other.mjs'" }, [top('SEC001', 0)]],
    ['export { } from', { top: "export { helper } from './other.mjs'" }, [top('SEC001', 0)]],
    [
      'export * from node:child_process',
      { top: "export * from 'node:child_process'" },
      [top('SEC001', 0), top('SEC007', 14)],
    ],
    [
      "require('child_process')",
      { body: "const cp = require('child_process')" },
      [body('SEC002', 11), body('SEC007', 19)],
    ],
    ['require aliased', { body: 'const load = require' }, [body('SEC002', 13)]],
    ['module.exports', { top: 'module.exports = { main: {} }' }, [top('SEC002', 0)]],
    ['exports.main', { top: 'exports.main = {}' }, [top('SEC002', 0)]],
    ["eval('1')", { body: "const one = eval('1')" }, [body('SEC003', 12)]],
    ["Function('return this')()", { body: "const self = Function('return this')()" }, [body('SEC004', 13)]],
    ["new Function('x')", { body: "const f = new Function('x')" }, [body('SEC010', 10)]],
    ['const F = Function', { body: 'const F = Function' }, [body('SEC004', 10)]],
    ['process.env.X', { body: 'const key = process.env.X' }, [body('SEC006', 12)]],
    ['\\u0070rocess.env', { body: 'const key = \\u0070rocess.env.X' }, [body('SEC006', 12)]],
    ['process in main', { description: 'process.env.DESCRIPTION' }, [desc('SEC006', 0)]],
    ['globalThis.process', { body: 'const p = globalThis.process' }, [body('SEC008', 10)]],
    [
      "globalThis['pro'+'cess']",
      { body: "const p = globalThis['pro' + 'cess']" },
      [body('SEC008', 10), body('SEC006', 21)],
    ],
    ['globalThis[`process`]', { body: 'const p = globalThis[`process`]' }, [body('SEC008', 10), body('SEC006', 21)]],
    ["payload?.['process']", { body: "const p = payload?.['process']" }, [body('SEC006', 20)]],
    ["payload[`${'ev'}al`]", { body: "const e = payload[`${'ev'}al`]" }, [body('SEC003', 18)]],
    ['global.x', { body: 'const x = global.x' }, [body('SEC008', 10)]],
    ['__dirname', { body: 'const dir = __dirname' }, [body('SEC009', 12)]],
    ['__filename', { body: 'const file = __filename' }, [body('SEC009', 13)]],
    ['setTimeout', { body: 'setTimeout(() => {}, 10)' }, [body('SEC011', 0)]],
    ['setInterval', { body: 'setInterval(() => {}, 10)' }, [body('SEC011', 0)]],
    ['setImmediate', { body: 'setImmediate(() => {})' }, [body('SEC011', 0)]],
    ['fetch(url)', { body: 'const res = await fetch(struct.url)' }, [body('SEC021', 18)]],
    ['new XMLHttpRequest()', { body: 'const xhr = new XMLHttpRequest()' }, [body('SEC014', 16)]],
    ['new WebSocket(u)', { body: 'const ws = new WebSocket(struct.url)' }, [body('SEC014', 15)]],
    ['top-level await', { top: 'await Promise.resolve()' }, [top('SEC015', 0)]],
    ['top-level for await', { top: 'for await (const x of []) {}' }, [top('SEC015', 0)]],
    ['top-level await using', { top: 'await using res = null' }, [top('SEC015', 0)]],
    ["x['constructor']", { body: "const F = struct['constructor']" }, [body('SEC004', 17)]],
    ["x['construct' + 'or']", { body: "const F = struct['construct' + 'or']" }, [body('SEC004', 17)]],
    ["{ ['constructor']: F } = x", { body: "const { ['constructor']: F } = payload" }, [body('SEC004', 9)]],
    ['x.constructor.constructor', { body: 'const F = struct.constructor.constructor' }, [body('SEC004', 29)]],
    [
      '(async () => {}).constructor.constructor',
      { body: 'const F = (async () => {}).constructor.constructor' },
      [body('SEC004', 39)],
    ],
    ['{ constructor: C } = x', { body: 'const { constructor: C } = payload' }, [body('SEC004', 8)]],
    ['shorthand { process }', { body: 'const ctx = { process }' }, [body('SEC006', 14)]],
    ['destructured { process }', { body: 'const { process } = payload' }, [body('SEC006', 8)]],
    ['declaration named fetch', { body: 'const fetch = libraries.fetch' }, [body('SEC021', 6)]],
    [
      'parameter named process',
      { body: 'const read = (process) => process.env' },
      [body('SEC006', 14), body('SEC006', 26)],
    ],
    // A comment cannot join two tokens: `proc` and `ess` stay two identifiers, which do not parse.
    ['proc/**/ess', { body: 'const env = proc/**/ess.env' }, [body('SEC016', 20)]],
    ['process/**/.env: a comment between tokens', { body: 'const env = process/**/.env' }, [body('SEC006', 12)]],
    [
      "import/**/('fs'): a comment before the call",
      { body: "const mod = import/* x */('fs')" },
      [body('SEC001', 12), body('SEC005', 26)],
    ],
    ['globalThis // comment, newline, .process', { body: 'const g = globalThis // x\n.process' }, [body('SEC008', 10)]],
    ['syntax error', { body: 'const = 1' }, [body('SEC016', 6)]],
  ];

  it.each(rejected)('%s', (_title, parts, expected) => {
    expect(hits(parts)).toEqual(expected);
  });
});

describe('parseModule', () => {
  it('reports nesting too deep for the parser as SEC016 instead of throwing', () => {
    const sink = new FindingSink('deep.mjs');
    expect(parseModule(`export const main = ${'['.repeat(200_000)}${']'.repeat(200_000)}`, sink)).toBeNull();
    expect(sink.findings.map((f) => [f.code, f.message])).toEqual([
      ['SEC016', 'syntax error: nested too deeply to read'],
    ]);
  });
});

describe('scanForbidden: accepted spellings', () => {
  const accepted: [string, Parts][] = [
    ['"import tariffs" in a description', { description: "'Customs data: import tariffs by HS code'" }],
    ["'child_process' in a description", { description: "'Never touches child_process or fs/promises'" }],
    ['a URL containing fs.', { body: "const url = 'https://www.imis.bfs.de/x'" }],
    ['an import in a comment', { top: "// Import: import { ethers } from 'ethers'" }],
    ['a block comment', { body: '/* process.env, fetch(url), eval(x) */' }],
    ['iface.getFunction(x)', { body: "const fn = new libraries.ethers.Interface([]).getFunction('transfer')" }],
    ["{ description: 'uses process and fetch' }", { body: "const meta = { description: 'uses process and fetch' }" }],
    ['template text', { body: 'const note = `uses fetch and eval`' }],
    ['a regex literal', { body: 'const bad = /process|require\\(/.test(struct.url)' }],
    ['struct.process', { body: 'const p = struct.process' }],
    ['a single .constructor check', { body: 'const plain = payload.filter.constructor === Object' }],
    ['a constructor key in an object literal', { body: 'const shape = { constructor: 1 }' }],
    ['{ fetch: 1 }', { body: 'const opts = { fetch: 1 }' }],
    ["{ ['process']: 1 } builds a key, reads nothing", { body: "const opts = { ['process']: 1 }" }],
    ['x.eval', { body: 'const e = payload.eval' }],
    ['obj.setTimeout', { body: 'const t = struct.setTimeout' }],
    ['class member names', { body: 'class Job { process() {} fetch = 1 }' }],
    ['a label named process', { body: 'process: for (const k of []) { break process }' }],
    ['new.target', { body: 'function Item() { return new.target }' }],
    ['await inside the async handler', { body: 'const data = await Promise.resolve(payload)' }],
    ['for await inside the async handler', { body: 'for await (const chunk of []) {}' }],
    ['a computed access to a harmless name', { body: "const v = payload['na' + 'me']" }],
    ['a computed access that does not fold', { body: 'const v = payload[struct.key]' }],
  ];

  it.each(accepted)('%s', (_title, parts) => {
    expect(scan(schema(parts))).toEqual([]);
  });
});

describe('scanForbidden: findings', () => {
  it('names the construct and says what to do instead', () => {
    const [finding] = scan(schema({ body: 'const key = process.env.X' }));
    expect(finding).toEqual({
      code: 'SEC006',
      severity: 'error',
      file: 't.mjs',
      line: 16,
      column: 19,
      message: 'forbidden: process',
      hint: 'handlers receive their inputs as arguments; the core injects keys and does all HTTP',
    });
  });

  it('names dynamic import() and computed constructor access', () => {
    const messages = scan(schema({ body: "const m = import('x'); const F = struct['constructor']" })).map(
      (f) => f.message,
    );
    expect(messages).toEqual(['forbidden: dynamic import()', 'forbidden: computed access to constructor']);
  });

  it('reports every hit, without stopping at the first', () => {
    const text = schema({
      top: "import { readFile } from 'node:fs'",
      description: 'process.env.DESCRIPTION',
      body: 'setTimeout(() => fetch(globalThis.url), 1); eval(struct.code)',
    });
    expect(
      scan(text)
        .map((f) => f.code)
        .sort(),
    ).toEqual(['SEC001', 'SEC003', 'SEC005', 'SEC006', 'SEC008', 'SEC011', 'SEC021']);
  });
});
