// Property-based tests: thousands of random and mutated schema texts and `main` objects go
// through the scanner and validator. Whatever the input, the result is findings: nothing is
// thrown, and every finding carries a known code with the table's severity.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CODES, type Finding } from '../src/findings.js';
import { effectiveAllowlist } from '../src/libraries/allowlist.js';
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
const TOKENS = ['{', '}', '[', ']', '(', ')', ',', ':', "'", '"', '`', '${', '//', '/*', '*/', '=>', 'process', 'globalThis', 'import(', 'import.meta',
  'require(', 'eval', 'new Function', 'await ', 'async ', '__proto__', 'constructor', '\\u0070rocess', '{{', '}}', '{{USER_PARAM}}', 'enum(', 'default(',
  'optional()', 'regex(', 'values(', '--x--', '?', '/', ':id', '1e999', '-', 'null', 'undefined', '...', 'export const ', '\n'];

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.oneof(fc.constantFrom(...TOKENS), fc.string({ maxLength: 8 })) }),
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
const zPrimitive = fc.oneof(fc.constantFrom('string()', 'number()', 'boolean()', 'array()', 'object()', 'enum(a,b)', 'enum()', 'enum(1,5,137)',
  'enum(custom,{{evmChains:alias}})', 'enum({{nope:x}})', 'date()', 'string', ''), fc.string({ maxLength: 12 }));
const zOption = fc.oneof(fc.constantFrom('min(1)', 'max(5)', 'length(3)', 'optional()', 'default(10)', "default('x')", 'default([1,2])', 'default(true)',
  'regex(^0x[a-f0-9]+$)', 'regex([)', 'values(a,b)', 'min(x)', 'max()', 'length(-1)', 'nope()', '{{evmChains:alias}}'), fc.string({ maxLength: 12 }));
const parameter = fc.record({
  position: fc.record({
    key: fc.oneof(fc.constantFrom('id', 'chain', 'limit', 'chain_id', 'q', ''), fc.string({ maxLength: 6 })),
    value: fc.oneof(fc.constantFrom('{{USER_PARAM}}', '{{SERVER_PARAM:EXAMPLE_API_KEY}}', '{{EXAMPLE_API_KEY}}', '{{OTHER}}', 'json', '10'), fc.string({ maxLength: 6 })),
    location: fc.oneof(fc.constantFrom('insert', 'query', 'body', 'header'), anyJson),
  }, { requiredKeys: [] }),
  z: fc.record({ primitive: fc.oneof(zPrimitive, anyJson), options: fc.oneof(fc.array(zOption, { maxLength: 4 }), anyJson) }, { requiredKeys: [] }),
}, { requiredKeys: [] });
const outputSchema: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.record({
    type: fc.constantFrom('string', 'number', 'boolean', 'object', 'array', 'integer'),
    properties: fc.dictionary(fc.string({ maxLength: 4 }), tie('node'), { maxKeys: 2 }),
    items: tie('node'),
    format: fc.constantFrom('base64', 'uri', 'date-time', 'x'),
    nullable: fc.oneof(fc.boolean(), anyJson),
  }, { requiredKeys: [] }),
})).node;
const route = fc.record({
  method: fc.oneof(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'), anyJson),
  path: fc.oneof(fc.constantFrom('/things/{{id}}', '/things/:id', '/x?a=1', '/{{EXAMPLE_API_KEY}}/y', '/{height}', 'nope'), fc.string({ maxLength: 10 })),
  description: fc.oneof(fc.constant('A route.'), anyJson),
  parameters: fc.oneof(fc.array(parameter, { maxLength: 5 }), anyJson),
  output: fc.oneof(fc.record({ mimeType: fc.constantFrom('application/json', 'text/plain', 'image/png', 'text/html'), schema: outputSchema }, { requiredKeys: [] }), anyJson),
  preload: fc.oneof(fc.record({ enabled: fc.oneof(fc.boolean(), anyJson), ttl: fc.oneof(fc.integer(), anyJson), description: anyJson }, { requiredKeys: [] }), anyJson),
  tests: fc.oneof(fc.array(fc.dictionary(fc.constantFrom('_description', 'id', 'chain', 'limit', 'other'), anyJson, { maxKeys: 4 }), { maxLength: 3 }), anyJson),
  async: fc.boolean(),
}, { requiredKeys: [] });
const mainObject = fc.record({
  namespace: fc.oneof(fc.constantFrom('example', 'Bad-Name'), anyJson),
  name: fc.oneof(fc.constantFrom('ExampleApi', 'example api'), anyJson),
  description: fc.oneof(fc.constant('Example.'), anyJson),
  version: fc.oneof(fc.constantFrom('2.0.0', '1.2.0', '2.x'), anyJson),
  root: fc.oneof(fc.constantFrom('https://api.example.com', 'http://x.io', 'https://x.io/', 'https://--chain--.x.io/{{EXAMPLE_API_KEY}}', 'https:...'), anyJson),
  routes: fc.oneof(fc.dictionary(fc.oneof(fc.constantFrom('getThing', 'get_thing', '/nft/:address', ''), fc.string({ maxLength: 5 })), route, { maxKeys: 9 }), anyJson),
  requiredServerParams: fc.oneof(fc.constant(['EXAMPLE_API_KEY']), anyJson),
  requiredLibraries: fc.oneof(fc.constantFrom(['ethers'], ['left-pad'], ['ethers/lib'], ['../x']), anyJson),
  sharedLists: fc.oneof(fc.array(fc.record({ ref: fc.constantFrom('evmChains', 'lists/evm', ''), version: fc.constantFrom('2.0.0', 'x'), filter: anyJson }, { requiredKeys: [] })), anyJson),
  headers: fc.oneof(fc.dictionary(fc.string({ maxLength: 5 }), fc.constantFrom('{{EXAMPLE_API_KEY}}', 'v', '{{NOPE}}')), anyJson),
  tags: fc.oneof(fc.constant(['prices', 'cacheTtlDaily']), anyJson),
  docs: fc.oneof(fc.constant(['https://docs.example.com']), anyJson),
  extra: anyJson,
}, { requiredKeys: [] });

describe('scanner and validator under random input', () => {
  it('turn random text into findings', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300, unit: 'grapheme' }), (text) => expectOnlyFindings(text)), { numRuns: 2000 });
  }, 120_000);

  it('turn mutated schema texts into findings', () => {
    fc.assert(fc.property(fc.array(mutation, { minLength: 1, maxLength: 6 }), (steps) => expectOnlyFindings(mutate(BASE, steps))), { numRuns: 3000 });
  }, 120_000);

  it('turn random main objects into findings', () => {
    fc.assert(fc.property(mainObject, (main) => expectOnlyFindings(`export const main = ${JSON.stringify(main)}\n`)), { numRuns: 2000 });
  }, 120_000);

  it('accept the unmutated base schema', () => {
    const result = checkSchemaText('base.mjs', BASE, options);
    expect(result.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(result.schema?.routes.map((r) => r.name)).toEqual(['getThing', 'createThing']);
  });
});
