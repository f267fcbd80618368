// The prepared argument check against Ajv itself: over argument objects made of values chosen to
// sit on every edge the keywords have (code points around surrogates, bounds, NaN and the
// infinities, -0, numeric text, inherited names, `__proto__`), it never accepts what Ajv refuses,
// writes the same defaults, and a tool's check answers exactly as Ajv alone did.

import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareCheck } from '../../src/schema/prepared-check.js';
import { InputSchema, type JsonSchema } from '../../src/schema/tool-input.js';
import type { CanonicalParam, ParamType } from '../../src/schema/types.js';

const user = (key: string, type: ParamType, extra: Partial<CanonicalParam> = {}): CanonicalParam => ({
  key,
  location: 'query',
  source: { kind: 'user' },
  type,
  optional: true,
  handlerOnly: false,
  ...extra,
});

/** Each schema's parameters, and arguments valid for it that the generated ones are laid over. */
const SCHEMAS: Record<string, CanonicalParam[]> = {
  bench: [
    user('symbol', { kind: 'string', minLength: 1 }, { optional: false }),
    user('currency', { kind: 'enum', values: ['usd', 'eur'], lists: [], listsResolved: true }, { default: 'usd' }),
  ],
  bounds: [
    user('short', { kind: 'string', minLength: 2, maxLength: 3 }),
    user('emoji', { kind: 'string', pattern: '^\\p{Emoji}+$' }),
    user('address', { kind: 'string', pattern: '^0x[a-fA-F0-9]{4}$' }, { optional: false }),
    user('limit', { kind: 'number', minimum: -1, maximum: 100 }, { default: 10 }),
    user('flag', { kind: 'boolean' }, { default: false }),
  ],
  shapes: [
    user('chainId', { kind: 'enum', values: ['1', '56', '0'], lists: [], listsResolved: true }, { optional: false }),
    user('ids', { kind: 'array', minItems: 1, maxItems: 2 }),
    user('filter', { kind: 'object' }),
    user('constructor', { kind: 'string' }, { optional: false }),
    user('text', { kind: 'string' }, { default: '' }),
  ],
};

const VALID: Record<string, Record<string, unknown>> = {
  bench: { symbol: 'eth' },
  bounds: { address: '0x12aF' },
  shapes: { chainId: '56', constructor: 'made' },
};

const KEYS = [
  'symbol',
  'currency',
  'short',
  'emoji',
  'address',
  'limit',
  'flag',
  'chainId',
  'ids',
  'filter',
  'constructor',
  'text',
  'toString',
  '__proto__',
  'extra',
];
const VALUES: unknown[] = [
  undefined,
  null,
  '',
  'a',
  'ab',
  'abc',
  'abcd',
  '\uD83D\uDE00',
  '\uD83D\uDE00\uD83D\uDE00',
  '\uD83D',
  'a\uDE00',
  '\uD83D\uDE00a\uD83D\uDE00',
  '0x12aF',
  '0x12aG',
  'usd',
  'eur',
  'USD',
  '1',
  '56',
  '0',
  1,
  56,
  0,
  -0,
  -1,
  -1.5,
  100,
  100.5,
  NaN,
  Infinity,
  -Infinity,
  true,
  false,
  [],
  [1],
  [1, 2],
  [1, 2, 3],
  {},
  { a: 1 },
];

/** `__proto__` as an own key, as JSON.parse makes it. */
function withOwnKeys(args: Record<string, unknown>, entries: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(entries))
    Object.defineProperty(args, key, { value, enumerable: true, writable: true, configurable: true });
  return args;
}
const someArgs = (maxKeys: number) => fc.dictionary(fc.constantFrom(...KEYS), fc.constantFrom(...VALUES), { maxKeys });
/** Arguments as they come, and laid over valid ones (so that each edge value meets others all valid). */
const arbitraryArgs = (valid: Record<string, unknown>) =>
  fc.oneof(
    someArgs(8).map((entries) => withOwnKeys({}, entries)),
    someArgs(2).map((entries) => withOwnKeys({ ...valid }, entries)),
  );

function ajvAlone(schema: JsonSchema) {
  const validate = new Ajv2020({
    allErrors: true,
    useDefaults: true,
    strict: true,
    allowUnionTypes: true,
    validateSchema: false,
  }).compile(schema);
  return (args: Record<string, unknown>) => {
    const copy = { ...args };
    return { valid: validate(copy), copy, errors: validate.errors };
  };
}

describe('the prepared argument check', () => {
  for (const [name, params] of Object.entries(SCHEMAS)) {
    const input = InputSchema.fromParameters(params);
    const prepared = prepareCheck(input.schema);
    const ajv = ajvAlone(input.schema);

    it(`${name}: is made for the schema a tool's parameters give`, () => {
      expect(prepared).not.toBeNull();
    });

    it(`${name}: accepts only what Ajv accepts, with the same defaults written`, () => {
      let accepted = 0;
      fc.assert(
        fc.property(arbitraryArgs(VALID[name] as Record<string, unknown>), (args) => {
          const copy = { ...args };
          const verdict = (prepared as (data: Record<string, unknown>) => boolean)(copy);
          const alone = ajv(args);
          if (verdict) {
            accepted++;
            expect(alone.valid).toBe(true);
            expect(copy).toEqual(alone.copy);
          }
        }),
        { numRuns: 3000, seed: 29 },
      );
      // The shortcut is taken, not only sound: valid arguments of each schema pass it.
      expect(accepted).toBeGreaterThan(0);
    });

    it(`${name}: a tool's check answers as Ajv alone does, problems and all`, () => {
      fc.assert(
        fc.property(arbitraryArgs(VALID[name] as Record<string, unknown>), (args) => {
          const checked = input.check(args);
          const alone = ajv(args);
          expect(checked.ok).toBe(alone.valid);
          if (checked.ok) expect(checked.value).toEqual(alone.copy);
          else expect(checked.error.length).toBe(alone.errors?.length);
        }),
        { numRuns: 1500, seed: 7 },
      );
    });
  }

  it('the bench route: arguments that pass get the default, and none of the caller’s object changes', () => {
    const input = InputSchema.fromParameters(SCHEMAS.bench as CanonicalParam[]);
    const args = { symbol: 'eth' };
    expect(input.check(args)).toEqual({ ok: true, value: { symbol: 'eth', currency: 'usd' } });
    expect(args).toEqual({ symbol: 'eth' });
  });

  it('compares enum values as Ajv does (===): NaN is never one of them, even listed', () => {
    const check = prepareCheck({
      type: 'object',
      properties: { a: { type: ['string', 'number'], enum: [Number.NaN, 'x'] } },
      additionalProperties: false,
    });
    expect(check?.({ a: Number.NaN })).toBe(false);
    expect(check?.({ a: 'x' })).toBe(true);
  });

  it('is not made for a schema with a keyword it does not know, or a default that is not a scalar', () => {
    const base = { type: 'object', additionalProperties: false };
    expect(prepareCheck({ ...base, properties: { a: { type: 'string', format: 'email' } } })).toBeNull();
    expect(prepareCheck({ ...base, properties: { a: { type: 'integer' } } })).toBeNull();
    expect(prepareCheck({ ...base, properties: { a: { type: 'array', default: [] } } })).toBeNull();
    expect(prepareCheck({ ...base, properties: { a: { type: 'string', pattern: '(' } } })).toBeNull();
    expect(prepareCheck({ type: 'object', properties: {} })).toBeNull();
    expect(prepareCheck({ ...base, properties: {}, required: ['missing'] })).toBeNull();
  });
});
