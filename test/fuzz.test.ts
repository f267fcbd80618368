// Property-based tests: thousands of random and mutated schema and list texts and `main` and
// `list` objects go through the scanner and validator. Whatever the input, the result is
// findings: nothing is thrown, and every finding carries a known code with the table's severity.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Finding } from '../src/report/findings.js';
import { CODES } from '../src/report/codes.js';
import { effectiveAllowlist } from '../src/libraries/allowlist.js';
import { checkListText } from '../src/lists/check.js';
import { buildListRegistry } from '../src/lists/registry.js';
import { checkSchemaText } from '../src/schema/check.js';

const options = { allowedLibraries: effectiveAllowlist([]) };

function expectOnlyFindings(text: string): void {
  const result = checkSchemaText('fuzz.mjs', text, options);
  for (const finding of result.findings) expectWellFormed(finding);
  if (result.schema === null) expect(result.findings.some((f) => f.severity === 'error')).toBe(true);
}

function expectWellFormed(finding: Finding): void {
  expect(CODES[finding.code]?.severity).toBe(finding.severity);
  expect(typeof finding.message).toBe('string');
  expect(finding.message.length).toBeGreaterThan(0);
  if (finding.line !== undefined) expect(finding.line).toBeGreaterThan(0);
}

const BASE = `export const main = {
  namespace: 'example',
  name: 'ExampleApi',
  description: 'Prices and metadata of example things.',
  version: '2.0.0',
  root: 'https://api.example.com',
  requiredServerParams: ['EXAMPLE_API_KEY'],
  headers: { 'x-api-key': '{{EXAMPLE_API_KEY}}' },
  sharedLists: [{ ref: 'evmChains', version: '2.0.0', filter: { key: 'isTestnet', value: false } }],
  routes: {
    getThing: {
      method: 'GET',
      path: '/things/{{id}}',
      description: 'One thing by id.',
      parameters: [
        { position: { key: 'id', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: ['min(1)'] } },
        { position: { key: 'chain', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'enum(custom,{{evmChains:alias}})', options: ['optional()'] } },
        { position: { key: 'limit', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: ['min(1)', 'max(100)', 'default(10)'] } }
      ],
      output: { mimeType: 'application/json', schema: { type: 'object', properties: { id: { type: 'string' } } } },
      tests: [{ _description: 'a thing', id: 'abc' }]
    },
    createThing: {
      method: 'POST',
      path: '/things',
      description: 'Creates a thing.',
      parameters: [
        { position: { key: 'name', value: '{{USER_PARAM}}', location: 'body' }, z: { primitive: 'string()', options: [] } }
      ],
      tests: [{ _description: 'create', name: 'x' }]
    }
  }
}

export const handlers = ({ sharedLists, libraries }) => ({
  getThing: {
    preRequest: async ({ struct, payload }) => {
      struct.url = struct.url + '&chain=' + sharedLists.evmChains.length
      return { struct }
    },
    postRequest: async ({ response, struct, payload }) => ({ response: { ...response, ok: true } })
  }
})
`;

// Tokens that are meaningful to the scanner, the literal reader or the placeholder grammar.
const TOKENS = [
  '{',
  '}',
  '[',
  ']',
  '(',
  ')',
  ',',
  ':',
  "'",
  '"',
  '`',
  '${',
  '//',
  '/*',
  '*/',
  '=>',
  'process',
  'globalThis',
  'import(',
  'import.meta',
  'require(',
  'eval',
  'new Function',
  'await ',
  'async ',
  '__proto__',
  'constructor',
  '\\u0070rocess',
  '{{',
  '}}',
  '{{USER_PARAM}}',
  'enum(',
  'default(',
  'optional()',
  'regex(',
  'values(',
  '--x--',
  '?',
  '/',
  ':id',
  '1e999',
  '-',
  'null',
  'undefined',
  '...',
  'export const ',
  '\n',
];

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.oneof(fc.constantFrom(...TOKENS), fc.string({ maxLength: 8 })),
  }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 80 }) }),
);

type Mutation = { kind: 'delete' | 'insert' | 'duplicate'; at: number; length?: number; text?: string };

function mutate(text: string, steps: readonly Mutation[]): string {
  let result = text;
  for (const step of steps) {
    const at = step.at % (result.length + 1);
    if (step.kind === 'delete') result = result.slice(0, at) + result.slice(at + (step.length ?? 1));
    else if (step.kind === 'insert') result = result.slice(0, at) + (step.text ?? '') + result.slice(at);
    else result = result.slice(0, at) + result.slice(at, at + (step.length ?? 1)) + result.slice(at);
  }
  return result;
}

// Pools of plausible and implausible values for each field of `main`, so that random objects
// reach the semantic rules instead of stopping at the first type error.
const anyJson = fc.jsonValue({ maxDepth: 2 });
const zPrimitive = fc.oneof(
  fc.constantFrom(
    'string()',
    'number()',
    'boolean()',
    'array()',
    'object()',
    'enum(a,b)',
    'enum()',
    'enum(1,5,137)',
    'enum(custom,{{evmChains:alias}})',
    'enum({{nope:x}})',
    'date()',
    'string',
    '',
  ),
  fc.string({ maxLength: 12 }),
);
const zOption = fc.oneof(
  fc.constantFrom(
    'min(1)',
    'max(5)',
    'length(3)',
    'optional()',
    'default(10)',
    "default('x')",
    'default([1,2])',
    'default(true)',
    'regex(^0x[a-f0-9]+$)',
    'regex([)',
    'values(a,b)',
    'min(x)',
    'max()',
    'length(-1)',
    'nope()',
    '{{evmChains:alias}}',
  ),
  fc.string({ maxLength: 12 }),
);
const parameter = fc.record(
  {
    position: fc.record(
      {
        key: fc.oneof(fc.constantFrom('id', 'chain', 'limit', 'chain_id', 'q', ''), fc.string({ maxLength: 6 })),
        value: fc.oneof(
          fc.constantFrom(
            '{{USER_PARAM}}',
            '{{SERVER_PARAM:EXAMPLE_API_KEY}}',
            '{{EXAMPLE_API_KEY}}',
            '{{OTHER}}',
            'json',
            '10',
          ),
          fc.string({ maxLength: 6 }),
        ),
        location: fc.oneof(fc.constantFrom('insert', 'query', 'body', 'header'), anyJson),
      },
      { requiredKeys: [] },
    ),
    z: fc.record(
      { primitive: fc.oneof(zPrimitive, anyJson), options: fc.oneof(fc.array(zOption, { maxLength: 4 }), anyJson) },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);
const outputSchema: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.record(
    {
      type: fc.constantFrom('string', 'number', 'boolean', 'object', 'array', 'integer'),
      properties: fc.dictionary(fc.string({ maxLength: 4 }), tie('node'), { maxKeys: 2 }),
      items: tie('node'),
      format: fc.constantFrom('base64', 'uri', 'date-time', 'x'),
      nullable: fc.oneof(fc.boolean(), anyJson),
    },
    { requiredKeys: [] },
  ),
})).node;
const route = fc.record(
  {
    method: fc.oneof(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'), anyJson),
    path: fc.oneof(
      fc.constantFrom('/things/{{id}}', '/things/:id', '/x?a=1', '/{{EXAMPLE_API_KEY}}/y', '/{height}', 'nope'),
      fc.string({ maxLength: 10 }),
    ),
    description: fc.oneof(fc.constant('A route.'), anyJson),
    parameters: fc.oneof(fc.array(parameter, { maxLength: 5 }), anyJson),
    output: fc.oneof(
      fc.record(
        { mimeType: fc.constantFrom('application/json', 'text/plain', 'image/png', 'text/html'), schema: outputSchema },
        { requiredKeys: [] },
      ),
      anyJson,
    ),
    preload: fc.oneof(
      fc.record(
        { enabled: fc.oneof(fc.boolean(), anyJson), ttl: fc.oneof(fc.integer(), anyJson), description: anyJson },
        { requiredKeys: [] },
      ),
      anyJson,
    ),
    tests: fc.oneof(
      fc.array(
        fc.dictionary(fc.constantFrom('_description', 'id', 'chain', 'limit', 'other'), anyJson, { maxKeys: 4 }),
        { maxLength: 3 },
      ),
      anyJson,
    ),
    async: fc.boolean(),
  },
  { requiredKeys: [] },
);
const mainObject = fc.record(
  {
    namespace: fc.oneof(fc.constantFrom('example', 'Bad-Name'), anyJson),
    name: fc.oneof(fc.constantFrom('ExampleApi', 'example api'), anyJson),
    description: fc.oneof(fc.constant('Example.'), anyJson),
    version: fc.oneof(fc.constantFrom('2.0.0', '1.2.0', '2.x'), anyJson),
    root: fc.oneof(
      fc.constantFrom(
        'https://api.example.com',
        'http://x.io',
        'https://x.io/',
        'https://--chain--.x.io/{{EXAMPLE_API_KEY}}',
        'https:...',
      ),
      anyJson,
    ),
    routes: fc.oneof(
      fc.dictionary(
        fc.oneof(fc.constantFrom('getThing', 'get_thing', '/nft/:address', ''), fc.string({ maxLength: 5 })),
        route,
        { maxKeys: 9 },
      ),
      anyJson,
    ),
    requiredServerParams: fc.oneof(fc.constant(['EXAMPLE_API_KEY']), anyJson),
    requiredLibraries: fc.oneof(fc.constantFrom(['ethers'], ['left-pad'], ['ethers/lib'], ['../x']), anyJson),
    sharedLists: fc.oneof(
      fc.array(
        fc.record(
          {
            ref: fc.constantFrom('evmChains', 'lists/evm', ''),
            version: fc.constantFrom('2.0.0', 'x'),
            filter: anyJson,
          },
          { requiredKeys: [] },
        ),
      ),
      anyJson,
    ),
    headers: fc.oneof(
      fc.dictionary(fc.string({ maxLength: 5 }), fc.constantFrom('{{EXAMPLE_API_KEY}}', 'v', '{{NOPE}}')),
      anyJson,
    ),
    tags: fc.oneof(fc.constant(['prices', 'cacheTtlDaily']), anyJson),
    docs: fc.oneof(fc.constant(['https://docs.example.com']), anyJson),
    extra: anyJson,
  },
  { requiredKeys: [] },
);

const PARENT_LIST = `export const list = {
  meta: { name: 'chainFamilies', version: '1.0.0', description: 'Families of chains.', fields: [{ key: 'family', type: 'string', description: 'Family.' }] },
  entries: [{ family: 'evm' }, { family: 'svm' }]
};
`;

const LIST_BASE = `// EVM chains. Pure data: read as a literal, never executed.
export const list = {
  meta: {
    name: 'evmChains',
    version: '2.0.0',
    description: 'EVM networks with provider aliases.',
    dependsOn: [{ ref: 'chainFamilies', version: '1.0.0', condition: { field: 'family', value: 'evm' } }],
    fields: [
      { key: 'alias', type: 'string', description: 'Neutral alias.' },
      { key: 'chainId', type: 'number', description: 'EIP-155 id.' },
      { key: 'isTestnet', type: 'boolean', description: 'Test network.', optional: false },
      { key: 'etherscanAlias', type: 'string', description: 'Etherscan alias.', optional: true }
    ]
  },
  entries: [
    { alias: 'ETHEREUM_MAINNET', chainId: 1, isTestnet: false, etherscanAlias: 'ETH' },
    { alias: 'SEPOLIA_TESTNET', chainId: 11155111, isTestnet: true, etherscanAlias: null },
    { alias: 'BASE_MAINNET', chainId: 8453, isTestnet: false }
  ]
};
`;

const LIST_TOKENS = [
  ...TOKENS,
  'get ',
  'set ',
  'function ',
  '() => 1',
  'async ',
  '`${x}`',
  'optional: true',
  "type: 'number'",
  'dependsOn: []',
  "ref: 'evmChains'",
  "version: '2.0.0'",
  "'1'",
  '0x10',
  '1n',
  '/re/g',
  'class {}',
  ';',
  'export default 1',
  'export const list = 1\n',
];

const listMutation = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.oneof(fc.constantFrom(...LIST_TOKENS), fc.string({ maxLength: 8 })),
  }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 80 }) }),
);

const listField = fc.record(
  {
    key: fc.oneof(
      fc.constantFrom('alias', 'chainId', 'isTestnet', 'etherscanAlias', 'chain id', '__proto__', 'constructor', ''),
      anyJson,
    ),
    type: fc.oneof(fc.constantFrom('string', 'number', 'boolean', 'integer'), anyJson),
    description: fc.oneof(fc.constant('A field.'), anyJson),
    optional: fc.oneof(fc.boolean(), anyJson),
    extra: anyJson,
  },
  { requiredKeys: [] },
);
const listEntry = fc.dictionary(
  fc.constantFrom('alias', 'chainId', 'isTestnet', 'etherscanAlias', 'other', 'constructor', 'toString'),
  fc.oneof(fc.constantFrom('ETH', 1, true, null, '1'), anyJson),
  { maxKeys: 5 },
);
const listObject = fc.record(
  {
    meta: fc.oneof(
      fc.record(
        {
          name: fc.oneof(fc.constantFrom('evmChains', 'chainFamilies', 'EvmChains', ''), anyJson),
          version: fc.oneof(fc.constantFrom('2.0.0', '1.0.0', '2.0'), anyJson),
          description: fc.oneof(fc.constant('Chains.'), anyJson),
          fields: fc.oneof(fc.array(listField, { maxLength: 5 }), anyJson),
          dependsOn: fc.oneof(
            fc.array(
              fc.record(
                {
                  ref: fc.oneof(fc.constantFrom('chainFamilies', 'evmChains', 'nowhere'), anyJson),
                  version: fc.oneof(fc.constantFrom('1.0.0', '2.0.0', 'x'), anyJson),
                  condition: fc.oneof(
                    fc.record(
                      {
                        field: fc.constantFrom('family', 'alias', ''),
                        value: fc.oneof(fc.constantFrom('evm', 'svm', 1), anyJson),
                      },
                      { requiredKeys: [] },
                    ),
                    anyJson,
                  ),
                },
                { requiredKeys: [] },
              ),
              { maxLength: 3 },
            ),
            anyJson,
          ),
          extra: anyJson,
        },
        { requiredKeys: [] },
      ),
      anyJson,
    ),
    entries: fc.oneof(fc.array(listEntry, { maxLength: 6 }), anyJson),
    extra: anyJson,
  },
  { requiredKeys: [] },
);

/** The text checked as a list file next to a parent list it may depend on; the registry then serves a schema. */
function expectOnlyListFindings(text: string): void {
  const check = checkListText('evm-chains.mjs', text);
  const registry = buildListRegistry([checkListText('chain-families.mjs', PARENT_LIST), check]);
  for (const finding of registry.findings) expectWellFormed(finding);
  // A list with an error is never registered.
  if (check.sink.hasErrors())
    expect([...registry.lists.values()].map((list) => list.file)).not.toContain('evm-chains.mjs');
  const schema = checkSchemaText('fuzz.mjs', BASE, { ...options, lists: registry });
  for (const finding of schema.findings) expectWellFormed(finding);
}

describe('list checker under random input', () => {
  it('turns random text into findings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300, unit: 'grapheme' }), (text) => expectOnlyListFindings(text)),
      { numRuns: 1000 },
    );
  }, 120_000);

  it('turns mutated list texts into findings', () => {
    fc.assert(
      fc.property(fc.array(listMutation, { minLength: 1, maxLength: 6 }), (steps) =>
        expectOnlyListFindings(mutate(LIST_BASE, steps)),
      ),
      { numRuns: 2000 },
    );
  }, 120_000);

  it('turns random list objects into findings', () => {
    fc.assert(
      fc.property(listObject, (list) => expectOnlyListFindings(`export const list = ${JSON.stringify(list)}\n`)),
      { numRuns: 2000 },
    );
  }, 120_000);

  it('accepts the unmutated base list', () => {
    const registry = buildListRegistry([
      checkListText('chain-families.mjs', PARENT_LIST),
      checkListText('evm-chains.mjs', LIST_BASE),
    ]);
    expect(registry.findings).toEqual([]);
    expect([...registry.lists.keys()]).toEqual(['chainFamilies', 'evmChains']);
  });
});

describe('scanner and validator under random input', () => {
  it('turn random text into findings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300, unit: 'grapheme' }), (text) => expectOnlyFindings(text)),
      { numRuns: 2000 },
    );
  }, 120_000);

  it('turn mutated schema texts into findings', () => {
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 6 }), (steps) =>
        expectOnlyFindings(mutate(BASE, steps)),
      ),
      { numRuns: 3000 },
    );
  }, 120_000);

  it('turn random main objects into findings', () => {
    fc.assert(
      fc.property(mainObject, (main) => expectOnlyFindings(`export const main = ${JSON.stringify(main)}\n`)),
      { numRuns: 2000 },
    );
  }, 120_000);

  it('accept the unmutated base schema', () => {
    const result = checkSchemaText('base.mjs', BASE, options);
    expect(result.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(result.schema?.routes.map((r) => r.name)).toEqual(['getThing', 'createThing']);
  });
});
