// The response cache's rules as data: which tools are cached and for how long (src/cache/policy.ts),
// and what an upstream's Cache-Control allows (src/cache/cache-control.ts). The catalog-level
// behaviour, with a real upstream, is test/cache/response-cache.test.ts.

import { describe, expect, it } from 'vitest';
import { directiveNames, mayStore } from '../../src/cache/cache-control.js';
import { CACHE_TTL_TAGS, cachePolicy, type CacheableTool } from '../../src/cache/policy.js';
import type { CacheConfig } from '../../src/config/project.js';
import type { CanonicalRoute, CanonicalSchema, ToolMeta } from '../../src/schema/types.js';

const CONFIG: CacheConfig = { enabled: true, ttlSeconds: 0, overrides: {} };

function tool({
  namespace = 'quotes',
  tags = [] as string[],
  method = 'GET',
  preload,
  meta,
}: {
  namespace?: string;
  tags?: string[];
  method?: string;
  preload?: CanonicalRoute['preload'];
  meta?: Partial<ToolMeta>;
} = {}): CacheableTool {
  const route = {
    name: 'getQuote',
    method,
    preload,
    meta: meta && {
      readOnly: false,
      destructive: false,
      concurrencySafe: true,
      searchHint: '',
      aliases: [],
      alwaysLoad: false,
      ...meta,
    },
  } as CanonicalRoute;
  return {
    name: `${namespace}_getQuote`,
    reference: `${namespace}/quotes.mjs::getQuote`,
    namespace,
    schema: { tags } as unknown as CanonicalSchema,
    route,
    declaredKeys: [],
    reach: { describe: () => ({ origins: [], denied: [] }) },
  };
}

const ttl = (candidate: CacheableTool, config: Partial<CacheConfig> = {}) =>
  cachePolicy(candidate, { ...CONFIG, ...config })?.ttlSeconds ?? 0;

describe('how long a tool is cached', () => {
  it('takes the first that applies: override by reference, tool name, namespace; preload; tag; the default', () => {
    const full = tool({ tags: ['cacheTtlHourly'], preload: { enabled: true, ttl: 600 } });
    const overrides = { 'quotes/quotes.mjs::getQuote': 1, quotes_getQuote: 2, quotes: 3 };
    expect(ttl(full, { overrides, ttlSeconds: 9 })).toBe(1);
    expect(ttl(full, { overrides: { quotes_getQuote: 2, quotes: 3 } })).toBe(2);
    expect(ttl(full, { overrides: { quotes: 3 } })).toBe(3);
    expect(ttl(full, { ttlSeconds: 9 })).toBe(600);
    expect(ttl(tool({ tags: ['cacheTtlHourly'], preload: { enabled: false, ttl: 600 } }), { ttlSeconds: 9 })).toBe(
      3600,
    );
    expect(ttl(tool(), { ttlSeconds: 9 })).toBe(9);
    expect(ttl(tool())).toBe(0);
  });

  it('reads every cacheTtl tag of the public catalogs, the shortest of several, and ignores others', () => {
    expect(Object.keys(CACHE_TTL_TAGS).sort()).toEqual([
      'cacheTtlDaily',
      'cacheTtlFrequent',
      'cacheTtlHourly',
      'cacheTtlLong',
      'cacheTtlRealtime',
      'cacheTtlShort',
      'cacheTtlStatic',
      'cacheTtlWeekly',
    ]);
    expect(ttl(tool({ tags: ['weather', 'cacheTtlDaily'] }))).toBe(86_400);
    expect(ttl(tool({ tags: ['cacheTtlStatic', 'cacheTtlFrequent'] }))).toBe(60);
    expect(ttl(tool({ tags: ['cacheTtlMonthly', 'toString'] }), { ttlSeconds: 5 })).toBe(5);
  });

  it("reads overrides as the config's own keys: a namespace named like an Object method is no exception", () => {
    expect(ttl(tool({ namespace: 'constructor', tags: ['cacheTtlDaily'] }))).toBe(86_400);
    expect(ttl(tool({ namespace: 'toString' }), { ttlSeconds: 7 })).toBe(7);
  });

  it('caches read-only routes only: GET without meta, or meta isReadOnly and not isDestructive', () => {
    const config = { ttlSeconds: 60 };
    expect(ttl(tool({ method: 'POST' }), config)).toBe(0);
    expect(ttl(tool({ method: 'POST', meta: { readOnly: true } }), config)).toBe(60);
    expect(ttl(tool({ meta: { readOnly: false } }), config)).toBe(0);
    expect(ttl(tool({ meta: { readOnly: true, destructive: true } }), config)).toBe(0);
    expect(
      cachePolicy(tool({ method: 'POST', meta: { readOnly: true } }), { ...CONFIG, ...config })?.declaredReadOnly,
    ).toBe(true);
    expect(ttl(tool({ tags: ['cacheTtlDaily'] }), { enabled: false })).toBe(0);
  });
});

describe("an upstream's Cache-Control", () => {
  it('forbids storing with no-store or no-cache, in any case, in any of several header values', () => {
    expect(mayStore([])).toBe(true);
    expect(mayStore(['public, max-age=0', 'private'])).toBe(true);
    expect(mayStore(['max-age=60', 'No-Store'])).toBe(false);
    expect(mayStore(['no-cache="set-cookie"'])).toBe(false);
  });

  it('splits directives at commas outside quoted arguments only', () => {
    expect(directiveNames('private="a, no-store, b", Max-Age=60 ,,')).toEqual(['private', 'max-age']);
    expect(directiveNames('no-cache="x\\", no-store", public')).toEqual(['no-cache', 'public']);
  });

  it('reads a quoted argument by its escapes: an escaped backslash before a quote ends the argument', () => {
    // RFC 9110 quoted-pair: `"x\\"` is x and a backslash, closed; the no-store after it counts.
    expect(directiveNames('private="x\\\\", no-store')).toEqual(['private', 'no-store']);
    expect(mayStore(['private="x\\\\", no-store'])).toBe(false);
    expect(directiveNames('private="a\\\\\\", no-store", public')).toEqual(['private', 'public']);
  });
});
