import { describe, expect, it } from 'vitest';
import { FindingSink } from '../../src/report/findings.js';
import { compilePath, compileRoot, compileValueTemplate } from '../../src/schema/templates.js';

function context() {
  const sink = new FindingSink('t.mjs');
  return { sink, serverKeys: new Set(['API_KEY']) };
}
const codes = (sink: FindingSink) => sink.findings.map((f) => f.code);

describe('compileRoot', () => {
  it('splits secrets and markers out of the root', () => {
    const ctx = context();
    expect(compileRoot('https://--chain--.rpc.io/v3/{{API_KEY}}', 'main.root', ctx)).toEqual([
      { kind: 'literal', text: 'https://' },
      { kind: 'marker', name: 'chain' },
      { kind: 'literal', text: '.rpc.io/v3/' },
      { kind: 'secret', key: 'API_KEY' },
    ]);
    expect(codes(ctx.sink)).toEqual(['VAL097']);
  });

  it.each([
    ['https://api.example.com', []],
    ['https://api.example.com/v1', []],
    ['http://api.example.com', ['VAL017']],
    ['local://ccxt', ['VAL017']],
    ['https://api.example.com/', ['VAL018']],
    ['https:...', ['VAL015']],
    ['api.example.com', ['VAL015']],
    ['https://api.example.com/v1?x=1', ['VAL015']],
    ['https://{{OTHER}}.example.com', ['VAL052']],
  ])('%s gives %j', (root, expected) => {
    const ctx = context();
    compileRoot(root, 'main.root', ctx);
    expect(codes(ctx.sink)).toEqual(expected);
  });
});

describe('compilePath', () => {
  it('reads {{key}} and :key as insert slots and keeps a literal query string', () => {
    const ctx = context();
    const compiled = compilePath('/coins/{{id}}/history/:date?apikey={{API_KEY}}&x=1', 'p', ctx);
    expect(compiled.template).toEqual([
      { kind: 'literal', text: '/coins/' },
      { kind: 'insert', key: 'id' },
      { kind: 'literal', text: '/history/' },
      { kind: 'insert', key: 'date' },
      { kind: 'literal', text: '?apikey=' },
      { kind: 'secret', key: 'API_KEY' },
      { kind: 'literal', text: '&x=1' },
    ]);
    expect([...compiled.slots]).toEqual(['id', 'date']);
    expect(compiled.hasQuery).toBe(true);
    expect(codes(ctx.sink)).toEqual(['VAL091', 'VAL096']);
  });

  it('keeps a single-brace placeholder as literal text and names it for the route check (path-braces.test.ts)', () => {
    const ctx = context();
    const compiled = compilePath('/blocks/{height}/{{id}}/{tx}', 'p', ctx);
    expect(compiled.template[0]).toEqual({ kind: 'literal', text: '/blocks/{height}/' });
    expect(compiled.singleBraces).toEqual(['height', 'tx']);
    expect(codes(ctx.sink)).toEqual([]);
  });

  it('does not read a colon inside a segment as a slot', () => {
    const ctx = context();
    expect(compilePath('/v1/items:batchGet', 'p', ctx).slots.size).toBe(0);
    expect(codes(ctx.sink)).toEqual([]);
  });
});

describe('compileValueTemplate', () => {
  it.each([
    [
      'Bearer {{SERVER_PARAM:API_KEY}}',
      [
        { kind: 'literal', text: 'Bearer ' },
        { kind: 'secret', key: 'API_KEY' },
      ],
      [],
    ],
    ['{{API_KEY}}', [{ kind: 'secret', key: 'API_KEY' }], []],
    ['{{SERVER_PARAM:MISSING}}', [], ['VAL052']],
    ['{{MISSING}}', [], ['VAL052']],
    ['{{evmChains:alias}}', [], ['VAL047']],
    ['x-{{USER_PARAM}}', [{ kind: 'literal', text: 'x-' }], ['VAL042']],
    ['json', [{ kind: 'literal', text: 'json' }], []],
  ])('%s', (text, parts, expected) => {
    const ctx = context();
    expect(compileValueTemplate(text, 'v', ctx)).toEqual(parts);
    expect(codes(ctx.sink)).toEqual(expected);
  });
});
