// The route output → MCP outputSchema converter, and the validator of results.

import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { FindingSink } from '../../src/report/findings.js';
import { checkOutput } from '../../src/schema/output.js';
import { OutputValidator, outputSchemaCharsBound, toOutputSchema } from '../../src/schema/tool-output.js';
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

describe('outputSchemaCharsBound', () => {
  /** An output as the check gives it (canonical), from what a file writes. */
  const checked = (raw: Record<string, unknown>): OutputSpec => {
    const output = checkOutput(raw, 'main.routes.r.output', new FindingSink('x.mjs'));
    if (!output) throw new Error(`not a sound output: ${JSON.stringify(raw)}`);
    return output;
  };
  /** The characters the converted output schema adds to a definition's JSON. */
  const added = (output: OutputSpec) =>
    JSON.stringify({ name: 'n', outputSchema: toOutputSchema(output) }).length - JSON.stringify({ name: 'n' }).length;

  it('is exact for an output the conversion copies as it is', () => {
    const output = checked({
      mimeType: 'application/json',
      schema: {
        type: 'object',
        description: 'A price.',
        properties: { price: { type: 'number' }, side: { type: 'string', enum: ['buy', 'sell'] } },
      },
    });
    expect(outputSchemaCharsBound(output)).toBe(added(output));
  });

  it('is never below what the conversion adds: nullable nodes, null joining enums, dropped keywords, the root description', () => {
    // Every node nullable with an enum that lacks null: the most a conversion adds per node.
    const nullableEnum = { type: 'string', nullable: true, enum: ['a', 'b'] };
    const outputs = [
      checked({
        mimeType: 'application/json',
        description: 'What the tool returns.',
        schema: {
          type: 'object',
          properties: {
            a: nullableEnum,
            b: {
              type: 'array',
              nullable: true,
              items: { type: 'object', nullable: true, properties: { c: nullableEnum } },
            },
            d: { type: 'number', nullable: true, enum: [1, 2, null] },
            e: { type: 'string', format: 'base64', description: '' },
            f: { type: 'boolean', nullable: false },
          },
        },
      }),
      checked({
        mimeType: 'application/json',
        schema: { type: 'object', properties: { n: { type: 'number', enum: ['x'] } } },
      }),
    ];
    for (const output of outputs) expect(outputSchemaCharsBound(output)).toBeGreaterThanOrEqual(added(output));
  });

  it('is never below what the conversion adds, over generated outputs of every keyword', () => {
    // A fixed pseudo-random sequence (no clock, no Math.random): the same 300 outputs each run.
    let seed = 29;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const node = (depth: number): Record<string, unknown> => {
      const type = depth >= 4 ? 'string' : (['string', 'number', 'boolean', 'object', 'array'] as const)[next(5)];
      const out: Record<string, unknown> = { type };
      if (next(2)) out.nullable = next(3) > 0;
      if (next(3) === 0) out.description = next(2) ? '' : 'd'.repeat(next(40));
      if (type === 'string' && next(3) === 0) out.format = ['base64', 'date-time', 'uri'][next(3)];
      if (type === 'string' && next(3) === 0) out.enum = next(2) ? ['x', 'y'] : ['x', null];
      if (type === 'number' && next(3) === 0) out.enum = [1, 2.5, -3];
      if (type === 'object')
        out.properties = Object.fromEntries([...Array(next(4))].map((_, i) => [`p${i}`, node(depth + 1)]));
      if (type === 'array') out.items = node(depth + 1);
      return out;
    };
    for (let i = 0; i < 300; i += 1) {
      const root = { type: 'object', properties: { p: node(2), q: node(2) } };
      const output = checked({
        mimeType: 'application/json',
        schema: root,
        ...(next(2) ? { description: 'Returns.' } : {}),
      });
      expect(outputSchemaCharsBound(output)).toBeGreaterThanOrEqual(added(output));
    }
  });

  it('is 0 where no output schema is advertised for any root', () => {
    expect(outputSchemaCharsBound(undefined)).toBe(0);
    expect(outputSchemaCharsBound({ mimeType: 'text/plain', schema: { type: 'string' } })).toBe(0);
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
