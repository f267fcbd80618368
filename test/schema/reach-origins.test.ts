// Issue 23 (decision R12): the https origins a schema's text writes, read by its check. A `${...}`
// label stands for one DNS label under a fixed domain, by the public suffix list as VAL027 judges
// roots; a literal that is no usable origin is SEC023 with its line, and left out; a list's text
// binds no key. The catalog's attacks on the same rules are in test/catalog/reach.test.ts.

import { describe, expect, it } from 'vitest';
import { effectiveAllowlist } from '../../src/libraries/allowlist.js';
import { FindingSink } from '../../src/report/findings.js';
import { checkSchemaText } from '../../src/schema/check.js';
import { readReachOrigins } from '../../src/schema/reach-origins.js';

function read(text: string, lists: Record<string, Array<Record<string, string>>> = {}, keys: string[] = ['KEY']) {
  const sink = new FindingSink('t.mjs', text);
  const origins = readReachOrigins(text, lists, keys, sink);
  const shown = origins.map(({ template, source, keys: bound }) => ({
    origin: template
      .map((part) => (part.kind === 'marker' ? `--${part.name}--` : part.kind === 'literal' ? part.text : ''))
      .join(''),
    source,
    keys: bound,
  }));
  return { shown, findings: sink.findings };
}

describe('a ${...} label in an https origin', () => {
  it.each([
    'https://${user}.github.io/feed', // a private suffix: anyone may own a name under it
    'https://${bucket}.s3.amazonaws.com/x',
    'https://${site}.co.uk',
    'https://api.${domain}.com',
    'https://${a}.${b}',
    'https://10.0.0.${last}',
  ])('%s is SEC023 and left out', (literal) => {
    const { shown, findings } = read(`const u = \`${literal}\`;`);
    expect(shown).toEqual([]);
    expect(findings.map((f) => [f.code, f.severity, f.line])).toEqual([['SEC023', 'warning', 1]]);
    expect(findings[0]?.message).toContain('registrable domain');
    expect(findings[0]?.hint).toBeTruthy();
  });

  it.each([
    ['https://${chain}.rpc.example.com/v1', 'https://--label0--.rpc.example.com'],
    ['https://${network}.infura.io/v3/', 'https://--label0--.infura.io'],
    ['https://${slug}.g.alchemy.com/v2', 'https://--label0--.g.alchemy.com'],
    ['https://api.${region}.example.co.uk', 'https://api.--label1--.example.co.uk'],
  ])('%s stands for one label under a fixed domain', (literal, origin) => {
    const { shown, findings } = read(`const u = \`${literal}\`;`);
    expect(shown).toEqual([{ origin, source: 'file', keys: [] }]);
    expect(findings).toEqual([]);
  });
});

describe('a literal no URL can name', () => {
  it.each(['https://1.2.3.4.5', 'https://a.b:99999/x', 'https://0x1.2.3.4.5/x'])(
    '%s is SEC023 with its line; the rest is read',
    (literal) => {
      const { shown, findings } = read(`// first\n// mirror: ${literal}\nconst u = 'https://ok.example.com';`);
      expect(shown).toEqual([{ origin: 'https://ok.example.com', source: 'file', keys: [] }]);
      expect(findings.map((f) => [f.code, f.line, f.column])).toEqual([['SEC023', 2, 12]]);
      expect(findings[0]?.message).toContain(literal.replace(/\/x$/, ''));
    },
  );

  it('is found on its line in main too, which the check reads apart from the rest of the file', () => {
    const text = `export const main = {
    namespace: 'example', name: 'Example', description: 'Looks things up.', version: '2.0.0',
    docs: ['https://1.2.3.4.5/docs'],
    root: 'https://api.example.com',
    routes: { getThing: { method: 'GET', path: '/things', description: 'All things.', parameters: [], tests: [{ _description: 'all things' }] } }
};
export const handlers = () => ({ getThing: { executeRequest: async ({ struct }) => ({ response: 'https://9.9.9.9.9' }) } });
`;
    const check = checkSchemaText('t.mjs', text, { allowedLibraries: effectiveAllowlist([]) });
    expect(check.findings.filter((f) => f.code === 'SEC023').map((f) => [f.line, f.column])).toEqual([
      [3, 13],
      [7, 98],
    ]);
    expect(check.schema?.reachOrigins).toEqual([
      {
        template: [
          { kind: 'literal', text: 'https://' },
          { kind: 'literal', text: 'api' },
          { kind: 'literal', text: '.' },
          { kind: 'literal', text: 'example' },
          { kind: 'literal', text: '.' },
          { kind: 'literal', text: 'com' },
        ],
        source: 'file',
        keys: [],
      },
    ]);
  });
});

describe('keys', () => {
  it('the file binds a key where its own string places the placeholder after the origin; every mention of one origin counts', () => {
    const { shown } = read(
      "const a = 'https://rpc.example.com/v1'; const b = 'https://rpc.example.com/v2/{{KEY}}'; const c = 'https://other.example.com/{{OTHER}}';",
      {},
      ['KEY', 'OTHER'],
    );
    expect(shown).toEqual([
      { origin: 'https://rpc.example.com', source: 'file', keys: ['KEY'] },
      { origin: 'https://other.example.com', source: 'file', keys: ['OTHER'] },
    ]);
  });

  it('a list’s URL template widens the reach and binds no key', () => {
    const { shown, findings } = read('', {
      rpcNodes: [{ url: 'https://rpc.other.invalid/v3/{{KEY}}' }, { url: 'https://1.2.3.4.5/{{KEY}}' }],
    });
    expect(shown).toEqual([{ origin: 'https://rpc.other.invalid', source: 'list', keys: [] }]);
    expect(findings.map((f) => [f.code, f.path])).toEqual([['SEC023', 'main.sharedLists']]);
    expect(findings[0]?.message).toContain('the list rpcNodes writes https://1.2.3.4.5');
  });

  it('an origin the file writes keeps the file’s keys when a list writes it too', () => {
    const { shown } = read("const a = 'https://rpc.example.com/{{KEY}}';", {
      nodes: [{ url: 'https://rpc.example.com/x' }],
    });
    expect(shown).toEqual([{ origin: 'https://rpc.example.com', source: 'file', keys: ['KEY'] }]);
  });
});
