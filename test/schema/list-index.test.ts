// The reverse index: which tools a change to a list, or to one of its fields, can affect.

import { expect, it } from 'vitest';
import { effectiveAllowlist } from '../../src/libraries/allowlist.js';
import { buildListIndex } from '../../src/schema/list-index.js';
import { checkSchemaText } from '../../src/schema/check.js';
import type { CanonicalSchema } from '../../src/schema/types.js';
import { registryOf } from '../lists/helpers.js';

const LISTS = registryOf(
  {
    name: 'evmChains',
    fields: [
      { key: 'alias', type: 'string' },
      { key: 'slug', type: 'string' },
    ],
    entries: [{ alias: 'ETH', slug: 'eth' }],
  },
  { name: 'timeframes', fields: [{ key: 'alias', type: 'string' }], entries: [{ alias: '1h' }] },
);

function route(primitive: string): Record<string, unknown> {
  return {
    method: 'GET',
    path: '/x',
    description: 'A route.',
    parameters: [{ position: { key: 'p', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive, options: [] } }],
    output: { mimeType: 'application/json', schema: { type: 'object' } },
    tests: [{ _description: 'a test', p: primitive.includes('{{timeframes') ? '1h' : 'eth' }],
  };
}

function schema(file: string, namespace: string, routes: Record<string, unknown>, handlers = ''): CanonicalSchema {
  const main = {
    namespace,
    name: 'Example',
    description: 'Example.',
    version: '2.0.0',
    root: 'https://x.example.com',
    sharedLists: [
      { ref: 'evmChains', version: '1.0.0' },
      { ref: 'timeframes', version: '1.0.0' },
    ],
    routes,
  };
  const result = checkSchemaText(file, `export const main = ${JSON.stringify(main)};\n${handlers}`, {
    allowedLibraries: effectiveAllowlist([]),
    lists: LISTS,
  });
  if (!result.schema) throw new Error(JSON.stringify(result.findings));
  return result.schema;
}

it('maps list:field to interpolating tools, and list to every tool that can see it', () => {
  const explorer = schema(
    'schemas/blockscout/explorer.mjs',
    'blockscout',
    {
      getBlock: route('enum({{evmChains:slug}})'),
      getCandles: route('enum({{timeframes:alias}})'),
      getStats: route('string()'),
    },
    'export const handlers = ({ sharedLists }) => ({ getStats: { preRequest: async ({ struct }) => ({ struct }) } })\n',
  );
  const prices = schema('schemas/prices/tokens.mjs', 'prices', {
    getPrice: route('enum({{evmChains:alias}},{{evmChains:slug}})'),
  });

  const index = buildListIndex([explorer, prices]);
  expect(Object.fromEntries(index)).toEqual({
    'evmChains:slug': ['blockscout/explorer.mjs::getBlock', 'prices/tokens.mjs::getPrice'],
    evmChains: [
      'blockscout/explorer.mjs::getBlock',
      'blockscout/explorer.mjs::getStats',
      'prices/tokens.mjs::getPrice',
    ],
    'timeframes:alias': ['blockscout/explorer.mjs::getCandles'],
    timeframes: ['blockscout/explorer.mjs::getCandles', 'blockscout/explorer.mjs::getStats'],
    'evmChains:alias': ['prices/tokens.mjs::getPrice'],
  });
});

it('counts every route when the handlers factory cannot be read statically', () => {
  const opaque = schema(
    'schemas/x/y.mjs',
    'x',
    { a: route('string()'), b: route('string()') },
    'export const handlers = ({ sharedLists }) => makeHandlers(sharedLists)\n',
  );
  expect(buildListIndex([opaque]).get('timeframes')).toEqual(['x/y.mjs::a', 'x/y.mjs::b']);
});
