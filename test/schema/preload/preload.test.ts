import { describe, expect, it } from 'vitest';
import { FindingSink } from '../../../src/report/findings.js';
import { checkPreload } from '../../../src/schema/preload.js';
import type { CanonicalParam } from '../../../src/schema/types.js';

const ROUTE = 'main.routes.getChains';
const PRELOAD = `${ROUTE}.preload`;

function param(key: string, overrides: Partial<CanonicalParam> = {}): CanonicalParam {
  return {
    key,
    location: 'query',
    source: { kind: 'user' },
    type: { kind: 'string' },
    optional: false,
    handlerOnly: false,
    ...overrides,
  };
}

const required = param('chain');
const optional = param('limit', { optional: true });
const defaulted = param('page', { default: 1 });
const fixed = param('apikey', { source: { kind: 'template', template: [{ kind: 'secret', key: 'API_KEY' }] } });

function check(raw: unknown, params: CanonicalParam[] = []) {
  const sink = new FindingSink('t.mjs');
  const spec = checkPreload(raw, PRELOAD, params, sink);
  return { spec, findings: sink.findings, codes: sink.findings.map((f) => [f.code, f.path]) };
}

const enabled = { enabled: true, ttl: 604800 };

describe('checkPreload: VAL084 parameterless route without preload', () => {
  it.each<[string, CanonicalParam[]]>([
    ['no parameters', []],
    ['only fixed parameters', [fixed]],
  ])('suggests preloading a route with %s', (_, params) => {
    const { spec, findings } = check(undefined, params);
    expect(spec).toBeUndefined();
    expect(findings).toMatchObject([{ code: 'VAL084', severity: 'info', path: ROUTE }]);
  });

  it.each<[string, unknown, CanonicalParam[]]>([
    ['a route with a user parameter', undefined, [optional]],
    ['a route that preloads', enabled, []],
    ['a route that disabled preload', { enabled: false, ttl: 60 }, []],
  ])('says nothing for %s', (_, raw, params) => {
    expect(check(raw, params).codes).toEqual([]);
  });
});

describe('checkPreload: VAL085 preload with required parameters', () => {
  it('warns at the preload and names the required parameters', () => {
    const { spec, findings } = check(enabled, [required, optional, param('address'), fixed]);
    expect(findings).toMatchObject([{ code: 'VAL085', severity: 'warning', path: PRELOAD }]);
    expect(findings[0]?.message).toContain('chain, address');
    expect(spec).toEqual(enabled);
  });

  it('counts a handler-only insert parameter as required', () => {
    expect(check(enabled, [param('id', { location: 'insert', handlerOnly: true })]).codes).toEqual([
      ['VAL085', PRELOAD],
    ]);
  });

  it.each<[string, unknown, CanonicalParam[]]>([
    ['optional parameters', enabled, [optional]],
    ['parameters with a default', enabled, [defaulted]],
    ['fixed parameters', enabled, [fixed]],
    ['a disabled preload', { enabled: false, ttl: 60 }, [required]],
  ])('says nothing for %s', (_, raw, params) => {
    expect(check(raw, params).codes).toEqual([]);
  });

  it('still warns when the ttl shape is wrong (Ajv reports the ttl)', () => {
    expect(check({ enabled: true, ttl: 0 }, [required])).toMatchObject({
      spec: undefined,
      codes: [['VAL085', PRELOAD]],
    });
  });
});

describe('checkPreload: canonical form and shape left to Ajv', () => {
  it('keeps enabled, ttl and description', () => {
    const raw = { enabled: true, ttl: 2592000, description: 'chain list changes monthly' };
    const { spec } = check(raw);
    expect(spec).toEqual(raw);
    expect(spec).not.toBe(raw);
  });

  it('drops a description that is no string (VAL083 is a warning)', () => {
    expect(check({ enabled: true, ttl: 60, description: 5 })).toMatchObject({
      spec: { enabled: true, ttl: 60 },
      codes: [],
    });
  });

  it('treats enabled: false as no preload', () => {
    expect(check({ enabled: false, ttl: 60 }).spec).toBeUndefined();
  });

  it.each<[string, unknown]>([
    ['preload that is no object', true],
    ['preload that is null', null],
    ['enabled that is no boolean', { enabled: 'yes', ttl: 60 }],
    ['enabled missing', { ttl: 60 }],
    ['ttl missing', { enabled: true }],
    ['ttl that is no integer', { enabled: true, ttl: 1.5 }],
    ['ttl that is a string', { enabled: true, ttl: '60' }],
    ['ttl below 1', { enabled: true, ttl: -5 }],
  ])('skips %s silently', (_, raw) => {
    expect(check(raw, [optional])).toMatchObject({ spec: undefined, codes: [] });
  });
});
