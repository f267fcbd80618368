// The guard's route table on its own: never more than its bound, the right route for each
// namespace of an origin however its chain is cut, and the clock's choice of what goes (a route
// asked again stays, one-off routes churn among themselves). The guard's use of it, and that a
// dropped route loses nothing, are in upstream-guard.bounded.test.ts.

import { describe, expect, it } from 'vitest';
import type { AppliedLimits } from '../../src/guard/limits.js';
import { RouteTable, type Route } from '../../src/guard/route-table.js';

const NO_LIMITS: AppliedLimits = { rate: null, concurrency: null, rateSource: '' };

/** A table whose routes name what they were built for, and the list of every build. */
function table(max: number) {
  const builds: string[] = [];
  const routes = new RouteTable(max, (origin, namespace): Route => {
    builds.push(`${namespace} ${origin}`);
    return { scope: `${origin} ${namespace}`, applied: NO_LIMITS };
  });
  return {
    routes,
    builds,
    built: (namespace: string, origin: string) => builds.filter((b) => b === `${namespace} ${origin}`).length,
  };
}

describe('a route table', () => {
  it('builds a route once and hands the same one back on every hit', () => {
    const { routes, builds } = table(4);
    const first = routes.get('https://a.test', 'ns');
    expect(first.scope).toBe('https://a.test ns');
    expect(routes.get('https://a.test', 'ns')).toBe(first);
    expect(builds).toEqual(['ns https://a.test']);
  });

  it('never keeps more than its bound, and builds a dropped route again the same', () => {
    const { routes, built } = table(8);
    for (let i = 0; i < 1_000; i += 1) {
      routes.get(`https://h${i}.test`, 'ns');
      expect(routes.size).toBeLessThanOrEqual(8);
    }
    expect(routes.size).toBe(8);
    expect(routes.get('https://h0.test', 'ns').scope).toBe('https://h0.test ns');
    expect(built('ns', 'https://h0.test')).toBe(2);
  });

  it('keeps one route per namespace of an origin, each found after others of its chain were dropped', () => {
    const { routes, built } = table(4);
    const namespaces = ['a', 'b', 'c', 'd'];
    for (const ns of namespaces) routes.get('https://shared.test', ns);
    expect(routes.size).toBe(4);
    // One new origin drops one route of the chain (b, in the middle, is kept by being asked again).
    routes.get('https://shared.test', 'b');
    routes.get('https://other.test', 'x');
    expect(routes.size).toBe(4);
    for (const ns of namespaces) expect(routes.get('https://shared.test', ns).scope).toBe(`https://shared.test ${ns}`);
    expect(built('b', 'https://shared.test')).toBe(1);
    // Each was built at most twice: dropped once, or never; the chain answered each namespace with its own.
    for (const ns of namespaces) expect(built(ns, 'https://shared.test')).toBeLessThanOrEqual(2);
    expect(routes.size).toBe(4);
  });

  it('a route asked again between drops stays; routes asked once go round', () => {
    const { routes, built } = table(16);
    for (let i = 0; i < 5_000; i += 1) {
      routes.get(`https://once${i}.test`, 'wild');
      if (i % 8 === 0) routes.get('https://steady.test', 'own');
    }
    expect(built('own', 'https://steady.test')).toBe(1);
    expect(routes.size).toBe(16);
  });

  it('with every route asked again, the hand still drops one: the bound holds', () => {
    const { routes } = table(3);
    const origins = ['https://a.test', 'https://b.test', 'https://c.test'];
    for (const origin of origins) routes.get(origin, 'ns');
    for (const origin of origins) routes.get(origin, 'ns');
    routes.get('https://d.test', 'ns');
    expect(routes.size).toBe(3);
  });

  it('refuses a bound below one', () => {
    expect(() => table(0)).toThrow(RangeError);
  });
});
