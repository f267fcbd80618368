// MCP tool names (decision R8): short, stem and hashed names; uniqueness, validity, determinism
// and stability, on corpus cases and on a generated 300-schema catalog.

import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isValidToolName,
  nameTools,
  toolReference,
  type NamedTool,
  type ToolIdentity,
} from '../../src/catalog/names.js';

const STRICT = /^[a-zA-Z0-9_-]{1,64}$/;

const tool = (namespace: string, file: string, route: string): ToolIdentity => ({ namespace, file, route });

/** Names by `file::route`, the identity's two parts that the cases vary. */
function namesOf(tools: readonly ToolIdentity[]): Record<string, string> {
  return Object.fromEntries(nameTools(tools).map((named) => [`${named.file}::${named.route}`, named.name]));
}

/** What the hashed step yields, written out independently of the module. */
function hashed(stemName: string, reference: string, attempt = 0): string {
  const hash = createHash('sha256').update(reference).digest('hex').slice(0, 8);
  const suffix = attempt === 0 ? `_${hash}` : `_${hash}_${attempt}`;
  return stemName.slice(0, 64 - suffix.length).replace(/_+$/, '') + suffix;
}

function expectWellFormed(named: readonly NamedTool[]): void {
  const names = named.map((n) => n.name);
  expect(new Set(names).size).toBe(names.length);
  for (const name of names) expect(name).toMatch(STRICT);
}

const LONG_ROUTE = 'getHistoricalMarketChartRangeForContractAddressWithinTimeframe'; // 62 characters
/** A route whose short name `kv_<route>` is exactly the hashed name of kv/a.mjs::a/get. */
const CRAFTED = hashed('kv_a_a_get', 'kv/a.mjs::a/get').slice('kv_'.length);

describe('nameTools: the rules, case by case', () => {
  const cases: Array<{ title: string; tools: ToolIdentity[]; expected: Record<string, string> }> = [
    {
      title: 'unique namespace_routeName stays short',
      tools: [
        tool('coingecko', 'coingecko-com/prices.mjs', 'getPrice'),
        tool('etherscan', 'etherscan/contracts.mjs', 'getContractAbi'),
      ],
      expected: {
        'coingecko-com/prices.mjs::getPrice': 'coingecko_getPrice',
        'etherscan/contracts.mjs::getContractAbi': 'etherscan_getContractAbi',
      },
    },
    {
      title: "the same namespace and route in two files: both get the file stem, the file's other routes stay short",
      tools: [
        tool('pegelonline', 'pegelonline/pegelonline.mjs', 'getStations'),
        tool('pegelonline', 'pegelonline/pegelonline.mjs', 'getCurrentLevel'),
        tool('pegelonline', 'pegelonline/water-levels.mjs', 'getStations'),
      ],
      expected: {
        'pegelonline/pegelonline.mjs::getStations': 'pegelonline_pegelonline_getStations',
        'pegelonline/pegelonline.mjs::getCurrentLevel': 'pegelonline_getCurrentLevel',
        'pegelonline/water-levels.mjs::getStations': 'pegelonline_water-levels_getStations',
      },
    },
    {
      title: 'two colliding pairs between the same two files (ens resolveName, lookupAddress)',
      tools: [
        tool('ens', 'ens/ens.mjs', 'resolveName'),
        tool('ens', 'ens/ens.mjs', 'lookupAddress'),
        tool('ens', 'ens/ens-subgraph.mjs', 'resolveName'),
        tool('ens', 'ens/ens-subgraph.mjs', 'lookupAddress'),
      ],
      expected: {
        'ens/ens.mjs::resolveName': 'ens_ens_resolveName',
        'ens/ens.mjs::lookupAddress': 'ens_ens_lookupAddress',
        'ens/ens-subgraph.mjs::resolveName': 'ens_ens-subgraph_resolveName',
        'ens/ens-subgraph.mjs::lookupAddress': 'ens_ens-subgraph_lookupAddress',
      },
    },
    {
      title: 'a route name that is a literal path is sanitised and carries the stem',
      tools: [
        tool('moralis', 'moralis-com/eth/nftApi-part1.mjs', '/nft/:address'),
        tool('moralis', 'moralis-com/eth/nftApi-part1.mjs', '/:address/nft'),
      ],
      expected: {
        'moralis-com/eth/nftApi-part1.mjs::/nft/:address': 'moralis_nftApi-part1__nft__address',
        'moralis-com/eth/nftApi-part1.mjs::/:address/nft': 'moralis_nftApi-part1___address_nft',
      },
    },
    {
      title: 'characters outside the set, one `_` per character (code point), stem dots included',
      tools: [tool('bund', 'bund/pegel.v2.mjs', 'getPreis€'), tool('bund', 'bund/pegel.v2.mjs', 'get 🌊 level')],
      expected: {
        'bund/pegel.v2.mjs::getPreis€': 'bund_pegel_v2_getPreis_',
        'bund/pegel.v2.mjs::get 🌊 level': 'bund_pegel_v2_get___level',
      },
    },
    {
      title: 'a short name of exactly 64 characters stays; 65 is cut and hashed',
      tools: [tool('a', 'a/x.mjs', LONG_ROUTE), tool('ab', 'ab/x.mjs', LONG_ROUTE)],
      expected: {
        [`a/x.mjs::${LONG_ROUTE}`]: `a_${LONG_ROUTE}`,
        [`ab/x.mjs::${LONG_ROUTE}`]: hashed(`ab_x_${LONG_ROUTE}`, `ab/x.mjs::${LONG_ROUTE}`),
      },
    },
    {
      title: 'colliding short names whose stem names are too long are hashed',
      tools: [
        tool('coingecko', 'coingecko-com/historical-market-data.mjs', 'getCoinHistoricalChartDataByContract'),
        tool('coingecko', 'coingecko-com/onchain.mjs', 'getCoinHistoricalChartDataByContract'),
      ],
      expected: {
        'coingecko-com/historical-market-data.mjs::getCoinHistoricalChartDataByContract': hashed(
          'coingecko_historical-market-data_getCoinHistoricalChartDataByContract',
          'coingecko/historical-market-data.mjs::getCoinHistoricalChartDataByContract',
        ),
        'coingecko-com/onchain.mjs::getCoinHistoricalChartDataByContract':
          'coingecko_onchain_getCoinHistoricalChartDataByContract',
      },
    },
    {
      title: 'two routes that collide only after sanitising are both hashed, with different hashes',
      tools: [
        tool('kv', 'kv/store.mjs', 'get/item'),
        tool('kv', 'kv/store.mjs', 'get:item'),
        tool('kv', 'kv/store.mjs', 'get_items'),
      ],
      expected: {
        'kv/store.mjs::get/item': hashed('kv_store_get_item', 'kv/store.mjs::get/item'),
        'kv/store.mjs::get:item': hashed('kv_store_get_item', 'kv/store.mjs::get:item'),
        'kv/store.mjs::get_items': 'kv_get_items',
      },
    },
    {
      title: "a stem name that is another tool's short name is hashed: the short name wins",
      tools: [
        tool('ens', 'ens/resolver.mjs', 'lookup'),
        tool('ens', 'ens/other.mjs', 'lookup'),
        tool('ens', 'ens/misc.mjs', 'resolver_lookup'),
      ],
      expected: {
        'ens/misc.mjs::resolver_lookup': 'ens_resolver_lookup',
        'ens/resolver.mjs::lookup': hashed('ens_resolver_lookup', 'ens/resolver.mjs::lookup'),
        'ens/other.mjs::lookup': 'ens_other_lookup',
      },
    },
    {
      title: 'one reference in two folders: one hash, the later file in canonical order gets `_1`',
      tools: [
        tool('moralis', 'moralis-com/sol/utils.mjs', 'getVersion'),
        tool('moralis', 'moralis-com/eth/utils.mjs', 'getVersion'),
      ],
      expected: {
        'moralis-com/eth/utils.mjs::getVersion': hashed('moralis_utils_getVersion', 'moralis/utils.mjs::getVersion'),
        'moralis-com/sol/utils.mjs::getVersion': hashed('moralis_utils_getVersion', 'moralis/utils.mjs::getVersion', 1),
      },
    },
    {
      title: 'a route named like a hashed name keeps it; the hashed tool moves on to `_1`',
      tools: [tool('kv', 'kv/a.mjs', 'a/get'), tool('kv', 'kv/a.mjs', 'a:get'), tool('kv', 'kv/c.mjs', CRAFTED)],
      expected: {
        'kv/a.mjs::a/get': hashed('kv_a_a_get', 'kv/a.mjs::a/get', 1),
        'kv/a.mjs::a:get': hashed('kv_a_a_get', 'kv/a.mjs::a:get'),
        [`kv/c.mjs::${CRAFTED}`]: hashed('kv_a_a_get', 'kv/a.mjs::a/get'),
      },
    },
    {
      title: "a namespace with `_` whose short name is another tool's stem name: the short name wins",
      tools: [tool('a', 'a/b.mjs', 'c'), tool('a', 'a/x.mjs', 'c'), tool('a_b', 'a_b/y.mjs', 'c')],
      expected: { 'a/b.mjs::c': hashed('a_b_c', 'a/b.mjs::c'), 'a/x.mjs::c': 'a_x_c', 'a_b/y.mjs::c': 'a_b_c' },
    },
  ];

  it.each(cases)('$title', ({ tools, expected }) => {
    const named = nameTools(tools);
    expect(namesOf(tools)).toEqual(expected);
    expect(named).toHaveLength(tools.length);
    expectWellFormed(named);
  });

  it('hashed names are at most 64 characters, valid, and keep the start of the stem name', () => {
    const route = `${LONG_ROUTE}${LONG_ROUTE}`;
    const [named] = nameTools([tool('coingecko', 'coingecko-com/simple.mjs', route)]);
    expect(named?.name).toBe(hashed(`coingecko_simple_${route}`, `coingecko/simple.mjs::${route}`));
    expect(named?.name).toHaveLength(64);
    expect(named?.name).toMatch(/^coingecko_simple_getHistoricalMarketChart\w+_[0-9a-f]{8}$/);
    expect(isValidToolName(named?.name ?? '')).toBe(true);
  });

  it('the cut part loses its trailing `_` before the hash', () => {
    // 'ns_f_' + 49 'x' + '__yyy…': the cut at 55 characters ends in `_`.
    const route = `${'x'.repeat(49)}_/${'y'.repeat(20)}`;
    const [named] = nameTools([tool('ns', 'ns/f.mjs', route)]);
    expect(named?.name).toMatch(/^ns_f_x{49}_[0-9a-f]{8}$/);
  });

  it('returns name and reference for every tool, in canonical order (namespace, file, route)', () => {
    const tools = [
      tool('b', 'b/z.mjs', 'r'),
      tool('a', 'a/y.mjs', 's'),
      tool('a', 'a/y.mjs', 'r'),
      tool('a', 'a/x.mjs', 'z'),
    ];
    expect(nameTools(tools)).toEqual([
      { namespace: 'a', file: 'a/x.mjs', route: 'z', name: 'a_z', reference: 'a/x.mjs::z' },
      { namespace: 'a', file: 'a/y.mjs', route: 'r', name: 'a_r', reference: 'a/y.mjs::r' },
      { namespace: 'a', file: 'a/y.mjs', route: 's', name: 'a_s', reference: 'a/y.mjs::s' },
      { namespace: 'b', file: 'b/z.mjs', route: 'r', name: 'b_r', reference: 'b/z.mjs::r' },
    ]);
  });

  it("does not modify or keep the caller's objects", () => {
    const input = [tool('b', 'b/x.mjs', 'r'), tool('a', 'a/x.mjs', 'r')];
    const copy = structuredClone(input);
    const named = nameTools(input);
    expect(input).toEqual(copy);
    expect(named.some((n) => (input as object[]).includes(n))).toBe(false);
  });

  it('an empty catalog has no names', () => {
    expect(nameTools([])).toEqual([]);
  });

  it('throws when the same tool is given twice', () => {
    expect(() => nameTools([tool('a', 'a/x.mjs', 'r'), tool('b', 'b/x.mjs', 'r'), tool('a', 'a/x.mjs', 'r')])).toThrow(
      /given twice.*'r'.*'a\/x\.mjs'/,
    );
  });
});

describe('nameTools: determinism and stability', () => {
  const catalog = [
    tool('pegelonline', 'pegelonline/pegelonline.mjs', 'getStations'),
    tool('pegelonline', 'pegelonline/water-levels.mjs', 'getStations'),
    tool('pegelonline', 'pegelonline/water-levels.mjs', 'getWaters'),
    tool('moralis', 'moralis-com/eth/nftApi-part1.mjs', '/nft/:address'),
    tool('coingecko', 'coingecko-com/simple.mjs', `${LONG_ROUTE}${LONG_ROUTE}`),
    tool('kv', 'kv/store.mjs', 'get/item'),
    tool('kv', 'kv/store.mjs', 'get:item'),
    tool('etherscan', 'etherscan/contracts.mjs', 'getContractAbi'),
  ];

  it('gives the same names in every input order', () => {
    const expected = nameTools(catalog);
    fc.assert(
      fc.property(fc.shuffledSubarray(catalog, { minLength: catalog.length }), (shuffled) => {
        expect(nameTools(shuffled)).toEqual(expected);
      }),
      { seed: 8, numRuns: 200 },
    );
  });

  it('adding a file that collides with nothing renames nothing', () => {
    const before = namesOf(catalog);
    const after = namesOf([
      ...catalog,
      tool('wttr', 'wttr/weather.mjs', 'getStations'),
      tool('wttr', 'wttr/weather.mjs', 'getForecast'),
    ]);
    expect(after).toMatchObject(before);
  });

  it('adding a file that collides renames only the tools it collides with', () => {
    const before = namesOf(catalog);
    const after = namesOf([...catalog, tool('pegelonline', 'pegelonline/extra.mjs', 'getWaters')]);
    expect(after).toMatchObject({
      ...before,
      'pegelonline/water-levels.mjs::getWaters': 'pegelonline_water-levels_getWaters',
    });
    expect(after['pegelonline/extra.mjs::getWaters']).toBe('pegelonline_extra_getWaters');
    const changed = Object.keys(before).filter((key) => before[key] !== after[key]);
    expect(changed).toEqual(['pegelonline/water-levels.mjs::getWaters']);
  });

  it('removing one of a colliding pair gives the other its short name back', () => {
    expect(
      namesOf(catalog.filter((t) => t.file !== 'pegelonline/pegelonline.mjs'))[
        'pegelonline/water-levels.mjs::getStations'
      ],
    ).toBe('pegelonline_getStations');
  });

  it('any catalog: names unique, valid, independent of order (property)', () => {
    const part = fc.constantFrom('a', 'b', 'a_b', 'x/y', 'x:y', 'é', '', 'get', LONG_ROUTE);
    const text = fc.oneof(
      part,
      fc.string({ maxLength: 80 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.array(part, { maxLength: 4 }).map((p) => p.join('_')),
    );
    const identity = fc.record({
      namespace: fc.oneof(fc.constantFrom('a', 'ab', 'a_b', 'ens'), fc.string({ maxLength: 30 })),
      file: fc.tuple(fc.constantFrom('', 'x/', 'y/', 'a/b/'), text).map(([dir, stem]) => `${dir}${stem}.mjs`),
      route: text,
    });
    const catalogs = fc.uniqueArray(identity, {
      maxLength: 40,
      selector: (t) => JSON.stringify([t.namespace, t.file, t.route]),
    });
    fc.assert(
      fc.property(catalogs, fc.integer(), (tools, seed) => {
        const named = nameTools(tools);
        expect(named).toHaveLength(tools.length);
        expectWellFormed(named);
        for (const n of named) expect(n.reference).toBe(toolReference(n));
        expect(nameTools(shuffle(tools, seed))).toEqual(named);
      }),
      { seed: 20, numRuns: 500 },
    );
  });
});

describe('nameTools: dense collisions (property)', () => {
  // A tiny alphabet in which short, stem and sanitised names meet across tools all the time.
  const identity = fc.record({
    namespace: fc.constantFrom('a', 'b', 'a_b'),
    file: fc
      .tuple(fc.constantFrom('', 'x/', 'y/'), fc.constantFrom('a', 'b', 'c', 'a_b', 'b_c', 'b.c'))
      .map(([dir, stem]) => `${dir}${stem}.mjs`),
    route: fc.constantFrom('c', 'b_c', 'c_c', 'a_b_c', 'c/c', 'c:c', 'b.c'),
  });

  it('names stay unique, valid and order-independent', () => {
    const catalogs = fc.uniqueArray(identity, {
      minLength: 2,
      maxLength: 30,
      selector: (t) => JSON.stringify([t.namespace, t.file, t.route]),
    });
    fc.assert(
      fc.property(catalogs, fc.integer(), (tools, seed) => {
        const named = nameTools(tools);
        expectWellFormed(named);
        expect(nameTools(shuffle(tools, seed))).toEqual(named);
      }),
      { seed: 3, numRuns: 1000 },
    );
  });
});

describe('toolReference', () => {
  it.each([
    [tool('etherscan', 'etherscan/contracts.mjs', 'getContractAbi'), 'etherscan/contracts.mjs::getContractAbi'],
    [tool('coingecko', 'coingecko-com/prices.mjs', 'getPrice'), 'coingecko/prices.mjs::getPrice'],
    [tool('moralis', 'moralis-com/eth/nftApi-part1.mjs', '/nft/:address'), 'moralis/nftApi-part1.mjs::/nft/:address'],
    [tool('moralis', 'moralis-com\\eth\\utils.mjs', 'getVersion'), 'moralis/utils.mjs::getVersion'],
    [tool('wttr', 'weather.mjs', 'get'), 'wttr/weather.mjs::get'],
  ])('%o → %s', (identity, reference) => {
    expect(toolReference(identity)).toBe(reference);
    expect(nameTools([identity])[0]?.reference).toBe(reference);
  });
});

describe('isValidToolName', () => {
  it.each([
    ['coingecko_getPrice', true],
    ['pegelonline_water-levels_getStations', true],
    ['A', true],
    ['x'.repeat(64), true],
    ['x'.repeat(65), false],
    ['', false],
    ['etherscan/contracts.mjs::getContractAbi', false],
    ['a.b', false],
    ['a b', false],
    ['a\n', false],
    ['preis€', false],
  ])('%j → %s', (name, valid) => {
    expect(isValidToolName(name)).toBe(valid);
  });
});

// ---------------------------------------------------------------------------------------------
// The issue's acceptance test: 300 schemas' worth of tool identities.

/** mulberry32: a float in [0, 1). */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: readonly T[], seed: number): T[] {
  const random = prng(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * 300 schema files over few namespaces and few file stems, routes from a small pool: many
 * namespace+route pairs recur across files, some stems recur across folders (one reference for
 * two tools), and some routes are literal paths, non-ASCII, or long enough to need a hash.
 */
function generateIdentities(schemas: number, seed: number): ToolIdentity[] {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const namespaces = [
    'pegelonline',
    'ens',
    'moralis',
    'coingecko',
    'polymarket',
    'zvgportal',
    'arbeitsagentur',
    'averyveryveryverylongnamespacename',
  ];
  const folders = ['', 'eth/', 'sol/', 'v2/', 'legacy/'];
  const stems = [
    'api',
    'stations',
    'water-levels',
    'markets',
    'nftApi-part1',
    'nftApi-part2',
    'historical-market-data-and-charts',
    'utils',
    'subgraph.v2',
    'search',
    'auctions',
    'jobs',
  ];
  const routes = [
    'getStations',
    'getWaters',
    'resolveName',
    'lookupAddress',
    'getMarkets',
    'searchAuctions',
    'searchJobs',
    '/nft/:address',
    '/:address/nft',
    'get/item',
    'get:item',
    'get_item',
    'getPreis€',
    LONG_ROUTE,
    `${LONG_ROUTE}ExtendedAgain`,
  ];
  const seen = new Set<string>();
  const tools: ToolIdentity[] = [];
  for (let made = 0; made < schemas;) {
    const namespace = pick(namespaces);
    const file = `${namespace}-com/${pick(folders)}${pick(stems)}.mjs`;
    if (seen.has(`${namespace} ${file}`)) continue; // each schema file once
    seen.add(`${namespace} ${file}`);
    made += 1;
    const count = 1 + Math.floor(random() * 6);
    const chosen = new Set<string>();
    while (chosen.size < count) chosen.add(random() < 0.1 ? `route${Math.floor(random() * 1e6)}` : pick(routes));
    for (const route of chosen) tools.push({ namespace, file, route });
  }
  return tools;
}

describe('acceptance: a generated 300-schema catalog', () => {
  const tools = generateIdentities(300, 2025);
  const first = nameTools(tools);
  const second = nameTools(shuffle(tools, 7));

  it('the generator made the collisions it is meant to make', () => {
    const shortNames = tools.map((t) => `${t.namespace}_${t.route}`);
    expect(new Set(shortNames).size).toBeLessThan(shortNames.length / 4);
    const references = tools.map(toolReference);
    expect(new Set(references).size).toBeLessThan(references.length);
    expect(shortNames.some((name) => name.length > 64)).toBe(true);
    expect(new Set(tools.map((t) => t.file)).size).toBe(300);
  });

  it('every tool is named; all names are unique and match ^[a-zA-Z0-9_-]{1,64}$', () => {
    expect(first).toHaveLength(tools.length);
    expectWellFormed(first);
    const kinds = { short: 0, stem: 0, hashed: 0 };
    for (const named of first) {
      if (named.name === `${named.namespace}_${named.route}`) kinds.short += 1;
      else if (/_[0-9a-f]{8}(?:_\d+)?$/.test(named.name)) kinds.hashed += 1;
      else kinds.stem += 1;
    }
    expect(kinds.short).toBeGreaterThan(0);
    expect(kinds.stem).toBeGreaterThan(0);
    expect(kinds.hashed).toBeGreaterThan(0);
  });

  it('naming the shuffled catalog again gives identical names', () => {
    expect(second).toEqual(first);
    const byIdentity = (named: readonly NamedTool[]) =>
      new Map(named.map((n) => [JSON.stringify([n.namespace, n.file, n.route]), n.name]));
    expect(byIdentity(second)).toEqual(byIdentity(first));
  });
});
