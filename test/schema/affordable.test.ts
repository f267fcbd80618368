// Sizing a tool definition (schema/affordable.ts): what a cut copies and what it shares. Listings
// and VAL100 cut the largest definitions of a catalog (output schemas of thousands of nodes), so a
// cut copies only the way to what it changes. The cuts themselves are attacked through a server
// in test/discovery/affordable.test.ts.

import { describe, expect, it } from 'vitest';
import { affordableDefinition, estimateTokens } from '../../src/schema/affordable.js';

const chains = Array.from({ length: 300 }, (_, at) => `a-rather-long-chain-name-${at}`);
/** An output schema of many plain nodes, one of them with an enum of 300 values. */
const fields: Record<string, object> = Object.fromEntries(
  Array.from({ length: 200 }, (_, at) => [`field${at}`, { type: 'string', description: 'a field of the answer' }]),
);
const network = { type: 'object', properties: { chain: { type: 'string', enum: chains } } };
const output = { type: 'object', properties: { ...fields, network } };
const entry = {
  name: 'demo_getThing',
  description: 'Gets a thing.',
  inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
  outputSchema: output,
};

describe('affordableDefinition', () => {
  it('cuts a long enum deep in the output schema and shares every subschema it did not change', () => {
    const { definition, cuts } = affordableDefinition(entry);
    expect(cuts[0]).toBe('the output network.chain (300 values) shortened to their first 25 values (as examples)');
    const properties = definition.outputSchema?.properties as Record<string, typeof network | undefined>;
    expect(properties.network?.properties.chain).toEqual({
      type: 'string',
      examples: chains.slice(0, 25),
      description: '(one of 300 values; examples shows the first 25)',
    });
    // The way to the cut enum is copied; its siblings are the entry's own objects, and the entry is unchanged.
    expect(properties.field7).toBe(fields.field7);
    expect(definition.inputSchema).toBe(entry.inputSchema);
    expect(network.properties.chain.enum).toHaveLength(300);
  });

  it('gives the estimate of the definition as given, before any cut', () => {
    expect(affordableDefinition(entry).tokens).toBe(estimateTokens(entry));
    expect(affordableDefinition(entry, 100_000).tokens).toBe(estimateTokens(entry));
  });

  it('keeps a property named __proto__ as a property beside a cut, and names cut enums in lists and items by their place', () => {
    // JSON.parse makes `__proto__` an own property, as an author's output schema may have it.
    const odd = JSON.parse(
      JSON.stringify({
        type: 'object',
        properties: {
          proto: { type: 'string', enum: chains },
          rows: { type: 'array', items: { anyOf: [{ type: 'number' }, { type: 'string', enum: chains }] } },
          ...fields,
        },
      }).replace('"proto"', '"__proto__"'),
    ) as typeof output;
    const { definition, cuts } = affordableDefinition({ ...entry, outputSchema: odd });
    expect(cuts[0]).toBe(
      'the output __proto__ (300 values), the output rows.[].anyOf[1] (300 values) shortened to their first 25 values (as examples)',
    );
    const properties = definition.outputSchema?.properties as Record<string, { examples?: unknown[] } | undefined>;
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(Object.keys(properties).slice(0, 3)).toEqual(['__proto__', 'rows', 'field0']);
    expect(Object.getOwnPropertyDescriptor(properties, '__proto__')?.value).toMatchObject({
      examples: chains.slice(0, 25),
    });
    expect(properties.field0).toBe((odd.properties as Record<string, unknown>).field0);
  });
});
