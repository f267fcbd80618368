import { describe, expect, it } from 'vitest';
import { FindingSink } from '../../../src/report/findings.js';
import { checkOutput } from '../../../src/schema/output.js';

const ROUTE = 'main.routes.getPrice';
const OUTPUT = `${ROUTE}.output`;
const SCHEMA = `${OUTPUT}.schema`;

function check(raw: unknown) {
  const sink = new FindingSink('t.mjs');
  const spec = checkOutput(raw, OUTPUT, sink);
  return { spec, findings: sink.findings, codes: sink.findings.map((f) => [f.code, f.path]) };
}

const json = (schema: unknown) => ({ mimeType: 'application/json', schema });
const object = (properties: Record<string, unknown>) => ({ type: 'object', properties });

/** An object schema whose deepest node sits at `levels` (the root is level 1). */
function nested(levels: number): Record<string, unknown> {
  return levels === 1 ? { type: 'string' } : object({ inner: nested(levels - 1) });
}

describe('checkOutput: VAL036 missing output', () => {
  it('warns at the route when there is no output', () => {
    const { spec, findings } = check(undefined);
    expect(spec).toBeUndefined();
    expect(findings).toMatchObject([{ code: 'VAL036', severity: 'warning', path: ROUTE }]);
  });

  it('says nothing when the output is there', () => {
    expect(check(json({ type: 'object' })).codes).toEqual([]);
  });
});

describe('checkOutput: VAL060 mimeType', () => {
  it.each(['application/xml', 'text/html', 'APPLICATION/JSON'])('rejects %s', (mimeType) => {
    const { spec, codes } = check({ mimeType, schema: { type: 'string' } });
    expect(codes).toEqual([['VAL060', `${OUTPUT}.mimeType`]]);
    expect(spec).toBeUndefined();
  });

  it.each([
    ['application/json', { type: 'array' }],
    ['image/png', { type: 'string', format: 'base64' }],
    ['text/plain', { type: 'string' }],
    // Used by the public catalogs; the answers decode as text, text and binary.
    ['text/markdown', { type: 'string' }],
    ['application/rss+xml', { type: 'string' }],
    ['application/octet-stream', { type: 'string' }],
  ])('accepts %s', (mimeType, schema) => {
    const { spec, codes } = check({ mimeType, schema });
    expect(codes).toEqual([]);
    expect(spec).toEqual({ mimeType, schema });
  });
});

describe('checkOutput: VAL061 schema outside the subset', () => {
  it.each<[string, unknown, string]>([
    ['$ref', object({ a: { type: 'object', $ref: '#/x' } }), `${SCHEMA}.properties.a.$ref`],
    ['required', { type: 'object', required: ['a'] }, `${SCHEMA}.required`],
    ['additionalProperties', { type: 'object', additionalProperties: false }, `${SCHEMA}.additionalProperties`],
    ['oneOf', object({ a: { type: 'string', oneOf: [] } }), `${SCHEMA}.properties.a.oneOf`],
    ['a type outside the five', object({ price: { type: 'integer' } }), `${SCHEMA}.properties.price.type`],
    ['a type that is no string', object({ price: { type: ['number', 'null'] } }), `${SCHEMA}.properties.price.type`],
    ['a node without type', object({ price: { description: 'the price' } }), `${SCHEMA}.properties.price`],
    ['a root without type', { properties: {} }, SCHEMA],
    ['an unknown format', object({ at: { type: 'string', format: 'email' } }), `${SCHEMA}.properties.at.format`],
    ['properties that are no object', { type: 'object', properties: ['a'] }, `${SCHEMA}.properties`],
    [
      'an enum that is no array',
      object({ side: { type: 'string', enum: 'buy,sell' } }),
      `${SCHEMA}.properties.side.enum`,
    ],
    ['a description that is no string', { type: 'object', description: 3 }, `${SCHEMA}.description`],
    [
      'nullable that is no boolean',
      object({ a: { type: 'string', nullable: 'yes' } }),
      `${SCHEMA}.properties.a.nullable`,
    ],
    ['tuple items', { type: 'array', items: [{ type: 'string' }] }, `${SCHEMA}.items`],
    ['a property that is no schema', object({ price: 'number' }), `${SCHEMA}.properties.price`],
  ])('reports %s at the node', (_, schema, path) => {
    const { spec, codes } = check(json(schema));
    expect(codes).toEqual([['VAL061', path]]);
    expect(spec).toBeUndefined();
  });

  it('accepts every keyword of the subset', () => {
    const schema = object({
      price: { type: 'number', description: 'USD', nullable: true },
      side: { type: 'string', enum: ['buy', 'sell'] },
      at: { type: 'string', format: 'date-time' },
      link: { type: 'string', format: 'uri' },
      ok: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' } },
    });
    const { spec, codes } = check(json(schema));
    expect(codes).toEqual([]);
    expect(spec).toEqual({ mimeType: 'application/json', schema });
  });

  it('quotes an odd property name in the path', () => {
    expect(check(json(object({ 'a b': { type: 'date' } }))).codes).toEqual([
      ['VAL061', `${SCHEMA}.properties["a b"].type`],
    ]);
  });

  it('reports every problem of one schema', () => {
    const schema = object({ a: { type: 'integer' }, b: { type: 'string', pattern: 'x' } });
    expect(check(json(schema)).codes).toEqual([
      ['VAL061', `${SCHEMA}.properties.a.type`],
      ['VAL061', `${SCHEMA}.properties.b.pattern`],
    ]);
  });
});

describe('checkOutput: VAL062 root type against mimeType', () => {
  it.each<[string, Record<string, unknown>]>([
    ['application/json', { type: 'string' }],
    ['application/json', { type: 'number' }],
    ['image/png', { type: 'string' }],
    ['image/png', { type: 'string', format: 'uri' }],
    ['image/png', { type: 'object' }],
    ['text/plain', { type: 'object' }],
    ['text/plain', { type: 'array', items: { type: 'string' } }],
    ['text/markdown', { type: 'object' }],
    ['application/rss+xml', { type: 'array', items: { type: 'string' } }],
    ['application/octet-stream', { type: 'number' }],
  ])('rejects %s with %j', (mimeType, schema) => {
    const { spec, findings } = check({ mimeType, schema });
    expect(findings.map((f) => [f.code, f.path])).toEqual([['VAL062', `${SCHEMA}.type`]]);
    expect(findings[0]?.severity).toBe('error');
    expect(spec).toBeUndefined();
  });

  it('leaves a root whose type or format is itself wrong to VAL061', () => {
    expect(check({ mimeType: 'image/png', schema: { type: 'binary' } }).codes).toEqual([['VAL061', `${SCHEMA}.type`]]);
    expect(check({ mimeType: 'image/png', schema: { type: 'string', format: 'png' } }).codes).toEqual([
      ['VAL061', `${SCHEMA}.format`],
    ]);
  });
});

describe('checkOutput: VAL063 depth', () => {
  it('accepts four levels', () => {
    expect(check(json(nested(4))).codes).toEqual([]);
  });

  it('warns at the first node on level 5, and the output stands', () => {
    const { spec, findings } = check(json(nested(6)));
    expect(findings).toMatchObject([
      {
        code: 'VAL063',
        severity: 'warning',
        path: `${SCHEMA}.properties.inner.properties.inner.properties.inner.properties.inner`,
      },
    ]);
    expect(spec?.schema).toEqual(nested(6));
  });

  it('counts items as a level (R10)', () => {
    const schema = {
      type: 'array',
      items: { type: 'array', items: { type: 'array', items: { type: 'array', items: { type: 'string' } } } },
    };
    expect(check(json(schema)).codes).toEqual([['VAL063', `${SCHEMA}.items.items.items.items`]]);
    expect(check(json(schema.items)).codes).toEqual([]);
  });

  it('warns once per route however many branches are too deep', () => {
    const schema = object({ a: nested(4), b: nested(4) });
    expect(check(json(schema)).codes).toEqual([
      ['VAL063', `${SCHEMA}.properties.a.properties.inner.properties.inner.properties.inner`],
    ]);
  });
});

describe('checkOutput: VAL064 and VAL065 misplaced children', () => {
  it('reports properties on a non-object node', () => {
    const schema = object({ price: { type: 'string', properties: { usd: { type: 'number' } } } });
    expect(check(json(schema)).codes).toEqual([['VAL064', `${SCHEMA}.properties.price.properties`]]);
    expect(check(json(object({ price: { type: 'object', properties: { usd: { type: 'number' } } } }))).codes).toEqual(
      [],
    );
  });

  it('reports items on a non-array node', () => {
    const schema = { type: 'object', items: { type: 'string' } };
    expect(check(json(schema)).codes).toEqual([['VAL065', `${SCHEMA}.items`]]);
    expect(check(json({ type: 'array', items: { type: 'string' } })).codes).toEqual([]);
  });

  it('says nothing about children of a node whose type is unknown', () => {
    expect(check(json({ type: 'map', items: { type: 'string' } })).codes).toEqual([['VAL061', `${SCHEMA}.type`]]);
  });
});

describe('checkOutput: canonical form and shape left to Ajv', () => {
  it('lists keywords in a fixed order and keeps property order', () => {
    const { spec } = check(
      json({
        properties: { b: { format: 'uri', type: 'string' }, a: { type: 'number' } },
        description: 'd',
        type: 'object',
      }),
    );
    expect(JSON.stringify(spec?.schema)).toBe(
      '{"type":"object","description":"d","properties":{"b":{"type":"string","format":"uri"},"a":{"type":"number"}}}',
    );
  });

  it('returns a copy that shares nothing with the raw value', () => {
    const values = ['buy'];
    const schema = object({ side: { type: 'string', enum: values } });
    const { spec } = check(json(schema));
    expect(spec?.schema).toEqual(schema);
    expect(spec?.schema).not.toBe(schema);
    expect(spec?.schema).toMatchObject({ properties: { side: { enum: values } } });
    expect((spec?.schema.properties as { side: { enum: unknown } }).side.enum).not.toBe(values);
  });

  it('keeps a property named __proto__ as a plain key', () => {
    const properties = JSON.parse('{"__proto__": {"type": "string"}}');
    const { spec, codes } = check(json({ type: 'object', properties }));
    expect(codes).toEqual([]);
    expect(Object.keys(spec?.schema.properties as object)).toEqual(['__proto__']);
  });

  it.each<[string, unknown]>([
    ['output that is no object', 'application/json'],
    ['output that is null', null],
    ['mimeType that is no string', { mimeType: 1, schema: { type: 'object' } }],
    ['mimeType missing', { schema: { type: 'object' } }],
    ['schema missing', { mimeType: 'application/json' }],
    ['schema that is an array', { mimeType: 'application/json', schema: [] }],
  ])('skips %s silently', (_, raw) => {
    expect(check(raw)).toMatchObject({ spec: undefined, codes: [] });
  });

  it('still checks the schema when the mimeType shape is wrong', () => {
    expect(check({ mimeType: null, schema: { type: 'thing' } }).codes).toEqual([['VAL061', `${SCHEMA}.type`]]);
  });
});
