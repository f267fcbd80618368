// The route output → MCP outputSchema converter, and the validator of results.

import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { OutputValidator, toOutputSchema } from '../../src/schema/tool-output.js';
import type { OutputSpec } from '../../src/schema/types.js';

const json = (schema: Record<string, unknown>): OutputSpec => ({ mimeType: 'application/json', schema });

describe('toOutputSchema', () => {
  it('converts nullable to a type union, keeps date-time and uri formats, drops empty descriptions', () => {
    expect(
      toOutputSchema(
        json({
          type: 'object',
          description: '',
          properties: {
            price: { type: 'number', nullable: true, description: 'In USD.' },
            side: { type: 'string', enum: ['buy', 'sell'], nullable: true },
            at: { type: 'string', format: 'date-time' },
            link: { type: 'string', format: 'uri' },
            logo: { type: 'string', format: 'base64' },
            rows: { type: 'array', items: { type: 'object', nullable: true, properties: { n: { type: 'number' } } } },
          },
        }),
      ),
    ).toEqual({
      type: 'object',
      properties: {
        price: { type: ['number', 'null'], description: 'In USD.' },
        side: { type: ['string', 'null'], enum: ['buy', 'sell', null] },
        at: { type: 'string', format: 'date-time' },
        link: { type: 'string', format: 'uri' },
        logo: { type: 'string' },
        rows: { type: 'array', items: { type: ['object', 'null'], properties: { n: { type: 'number' } } } },
      },
    });
  });

  it.each([
    ['an array root', json({ type: 'array', items: { type: 'string' } })],
    ['a nullable object root', json({ type: 'object', nullable: true })],
    ['a text output', { mimeType: 'text/plain', schema: { type: 'string' } } as OutputSpec],
    ['an image output', { mimeType: 'image/png', schema: { type: 'string', format: 'base64' } } as OutputSpec],
    ['an enum its own type rejects', json({ type: 'object', properties: { n: { type: 'number', enum: ['one'] } } })],
    ['an empty enum', json({ type: 'object', properties: { n: { type: 'string', enum: [] } } })],
    ['no output at all', undefined],
  ])('advertises nothing for %s', (_name, output) => {
    expect(toOutputSchema(output)).toBeUndefined();
  });

  it('keeps a property named __proto__ as a plain property', () => {
    const schema = toOutputSchema(
      json({ type: 'object', properties: JSON.parse('{"__proto__": {"type": "string"}}') as Record<string, unknown> }),
    );
    expect(Object.keys(schema?.properties as object)).toEqual(['__proto__']);
    expect(new Ajv2020({ strict: true }).validateSchema(schema as object)).toBe(true);
  });
});

describe('OutputValidator', () => {
  const validator = new OutputValidator(
    toOutputSchema(
      json({
        type: 'object',
        properties: {
          at: { type: 'string', format: 'date-time' },
          link: { type: 'string', format: 'uri' },
          price: { type: 'number', nullable: true },
        },
      }),
    ) as Record<string, unknown>,
  );

  it('accepts matching results, extra properties and nulls where nullable', () => {
    expect(
      validator.problem({
        at: '2025-02-28T23:59:60+01:00',
        link: 'https://example.org/a?b=1',
        price: null,
        extra: [1],
      }),
    ).toBeUndefined();
    expect(validator.problem({})).toBeUndefined();
  });

  it.each([
    [{ price: '12' }, '/price must be number,null'],
    [{ at: '2025-02-30T10:00:00Z' }, '/at must match format "date-time"'],
    [{ at: '2025-01-01' }, '/at must match format "date-time"'],
    [{ link: 'not a uri' }, '/link must match format "uri"'],
    [[], '(root) must be object'],
  ])('names the first problem of %j', (value, problem) => {
    expect(validator.problem(value)).toBe(problem);
  });
});
