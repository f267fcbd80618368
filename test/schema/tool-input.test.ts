import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { InputSchema } from '../../src/schema/tool-input.js';
import type { CanonicalParam, ParamType } from '../../src/schema/types.js';

const user = (key: string, type: ParamType, extra: Partial<CanonicalParam> = {}): CanonicalParam => ({
  key,
  location: 'query',
  source: { kind: 'user' },
  type,
  optional: false,
  handlerOnly: false,
  ...extra,
});

const PARAMS: CanonicalParam[] = [
  user(
    'address',
    { kind: 'string', minLength: 42, maxLength: 42, pattern: '^0x[a-fA-F0-9]{40}$' },
    { location: 'insert' },
  ),
  user('limit', { kind: 'number', minimum: 1, maximum: 100 }, { optional: true, default: 10 }),
  user('chain', { kind: 'enum', values: ['eth', 'bsc'], lists: [], listsResolved: true }),
  user('chainId', { kind: 'enum', values: ['1', '56', '137'], lists: [], listsResolved: true }, { optional: true }),
  user('verbose', { kind: 'boolean' }, { optional: true }),
  user('ids', { kind: 'array', minItems: 1, maxItems: 3 }, { optional: true, location: 'body' }),
  user('filter', { kind: 'object' }, { optional: true, location: 'body' }),
  {
    key: 'format',
    location: 'query',
    source: { kind: 'template', template: [{ kind: 'literal', text: 'json' }] },
    type: { kind: 'string' },
    optional: false,
    handlerOnly: false,
  },
];
const input = InputSchema.fromParameters(PARAMS);
const ADDRESS = '0x' + 'ab'.repeat(20);

describe('InputSchema.fromParameters', () => {
  it('builds one plain 2020-12 object schema of the user parameters only', () => {
    expect(input.schema).toEqual({
      type: 'object',
      properties: {
        address: { type: 'string', minLength: 42, maxLength: 42, pattern: '^0x[a-fA-F0-9]{40}$' },
        limit: { type: 'number', minimum: 1, maximum: 100, default: 10 },
        chain: { type: 'string', enum: ['eth', 'bsc'] },
        chainId: { type: ['string', 'number'], enum: ['1', '56', '137', 1, 56, 137] },
        verbose: { type: 'boolean' },
        ids: { type: 'array', minItems: 1, maxItems: 3 },
        filter: { type: 'object' },
      },
      additionalProperties: false,
      required: ['address', 'chain'],
    });
    expect(input.schema.$schema).toBeUndefined();
    expect(new Ajv2020({ strict: false }).validateSchema(input.schema)).toBe(true);
  });

  it('leaves an enum whose lists could not be resolved unconstrained', () => {
    const schema = InputSchema.fromParameters([
      user('x', { kind: 'enum', values: ['a'], lists: [{ list: 'l', field: 'f' }], listsResolved: false }),
    ]).schema;
    expect(schema.properties).toEqual({ x: { type: 'string' } });
  });

  it('has no required list when every parameter is optional', () => {
    expect(InputSchema.fromParameters([]).schema).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: false,
    });
  });
});

describe('InputSchema.check', () => {
  it("accepts valid arguments, fills defaults, and leaves the caller's object alone", () => {
    const args = { address: ADDRESS, chain: 'eth', chainId: 56 };
    expect(input.check(args)).toEqual({ ok: true, value: { address: ADDRESS, chain: 'eth', chainId: 56, limit: 10 } });
    expect(args).toEqual({ address: ADDRESS, chain: 'eth', chainId: 56 });
  });

  it("keeps the caller's argument order with the defaults after it, and a `__proto__` argument as an argument", () => {
    const checked = input.check({ chainId: 56, chain: 'eth', address: ADDRESS });
    expect(checked.ok && Object.keys(checked.value)).toEqual(['chainId', 'chain', 'address', 'limit']);
    // As JSON.parse makes it: an own property, which the copy keeps as one (and Ajv refuses as unknown).
    const withProto = input.check(JSON.parse(`{"address":"${ADDRESS}","chain":"eth","__proto__":{"limit":1}}`));
    expect(withProto).toEqual({
      ok: false,
      error: [{ parameter: '__proto__', message: "unknown argument '__proto__'" }],
    });
  });

  it.each([
    [{ chain: 'eth' }, [{ parameter: 'address', message: "missing required argument 'address'" }]],
    [{ address: ADDRESS, chain: 'eth', nope: 1 }, [{ parameter: 'nope', message: "unknown argument 'nope'" }]],
    [{ address: ADDRESS, chain: 'sol' }, [{ parameter: 'chain', message: "'chain' must be one of eth, bsc" }]],
    [{ address: ADDRESS, chain: 'eth', limit: 500 }, [{ parameter: 'limit', message: "'limit' must be <= 100" }]],
    [{ address: ADDRESS, chain: 'eth', limit: '5' }, [{ parameter: 'limit', message: "'limit' must be number" }]],
    [
      { address: ADDRESS, chain: 'eth', ids: [] },
      [{ parameter: 'ids', message: "'ids' must NOT have fewer than 1 items" }],
    ],
  ])('names the argument and the rule: %j', (args, problems) => {
    expect(input.check(args)).toEqual({ ok: false, error: problems });
  });

  it('reports a bad pattern and a bad type together', () => {
    const result = input.check({ address: '0xnope', chain: 'eth', verbose: 'yes' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.map((p) => p.parameter)).toEqual(['address', 'address', 'verbose']);
  });
});
