// Benchmark corpus generator: writes realistic, spec-valid FlowMCP 2.0 schema files into a fresh
// temp dir. Output depends only on the options (seeded mulberry32, no Math.random), so the same
// seed always yields byte-identical files.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface GeneratedCatalog {
  dir: string;
  files: string[];
}

export interface GenerateOptions {
  count: number;
  seed: number;
  /** Share (0..1) of the files that get a `handlers` factory. Default 0. */
  handlerShare?: number;
}

// ---------------------------------------------------------------------------------------------
// Seeded randomness

class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** mulberry32: a float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** `n` distinct items in random order. */
  sample<T>(items: readonly T[], n: number): T[] {
    const pool = [...items];
    for (let i = pool.length - 1; i > 0; i -= 1) {
      const j = Math.floor(this.next() * (i + 1));
      [pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
    }
    return pool.slice(0, Math.min(n, pool.length));
  }
}

// ---------------------------------------------------------------------------------------------
// Vocabulary

interface ParamTemplate {
  key: string;
  primitive: string;
  options: string[];
  /** Values that satisfy the z block; tests take them in turn so enum values vary. */
  samples: unknown[];
  /** What the parameter means, for descriptions. */
  about: string;
}

const ADDRESSES = [
  '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
  '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
];

const DATE = 'regex(^[0-9]{4}-[0-9]{2}-[0-9]{2}$)';

/** Path segments: always required, so neither optional() nor default(). */
const INSERT_PARAMS: ParamTemplate[] = [
  { key: 'id', primitive: 'string()', options: ['min(1)', 'max(64)'], samples: ['btc-bitcoin', 'eth-ethereum', 'sol-solana'], about: 'identifier' },
  { key: 'accountId', primitive: 'string()', options: ['length(12)'], samples: ['acc000000001', 'acc7f3k2m9x1'], about: 'account' },
  { key: 'address', primitive: 'string()', options: ['regex(^0x[a-fA-F0-9]{40}$)'], samples: ADDRESSES, about: 'address' },
  { key: 'symbol', primitive: 'string()', options: ['min(1)', 'max(12)'], samples: ['BTC', 'ETH', 'AAPL'], about: 'ticker symbol' },
  { key: 'region', primitive: 'enum(eu,us,apac,latam)', options: [], samples: ['eu', 'us', 'apac'], about: 'region' },
  { key: 'category', primitive: 'enum(news,sports,science,business,culture)', options: [], samples: ['science', 'business', 'news'], about: 'category' },
  { key: 'orderId', primitive: 'number()', options: ['min(1)'], samples: [1024, 77, 500001], about: 'order number' },
  { key: 'year', primitive: 'number()', options: ['min(1900)', 'max(2100)'], samples: [2023, 2024, 1999], about: 'year' },
  { key: 'slug', primitive: 'string()', options: ['min(3)', 'max(80)'], samples: ['annual-report', 'city-centre', 'open-data'], about: 'slug' },
  { key: 'network', primitive: 'enum(mainnet,testnet)', options: [], samples: ['mainnet', 'testnet'], about: 'network' },
  { key: 'stationId', primitive: 'string()', options: ['min(3)', 'max(16)'], samples: ['10384', 'KJFK', 'EDDM'], about: 'station' },
];

const QUERY_PARAMS: ParamTemplate[] = [
  { key: 'limit', primitive: 'number()', options: ['min(1)', 'max(100)', 'default(10)'], samples: [25, 5, 100], about: 'page size' },
  { key: 'page', primitive: 'number()', options: ['min(1)', 'optional()', 'default(1)'], samples: [2, 1, 3], about: 'page number' },
  { key: 'offset', primitive: 'number()', options: ['min(0)', 'optional()'], samples: [0, 50, 200], about: 'offset' },
  { key: 'sort', primitive: 'enum(asc,desc)', options: ['default(desc)'], samples: ['asc', 'desc'], about: 'sort direction' },
  { key: 'orderBy', primitive: 'enum(createdAt,updatedAt,name,volume)', options: ['optional()'], samples: ['createdAt', 'volume', 'name'], about: 'sort field' },
  { key: 'currency', primitive: 'enum(usd,eur,gbp,jpy,chf)', options: ['default(usd)'], samples: ['eur', 'usd', 'jpy'], about: 'quote currency' },
  { key: 'from', primitive: 'string()', options: [DATE, 'optional()'], samples: ['2024-01-01', '2023-06-15'], about: 'start date' },
  { key: 'to', primitive: 'string()', options: [DATE, 'optional()'], samples: ['2024-03-31', '2023-12-31'], about: 'end date' },
  { key: 'interval', primitive: 'enum(1m,5m,15m,1h,4h,1d)', options: ['default(1h)'], samples: ['1d', '15m', '4h'], about: 'interval' },
  { key: 'includeMetadata', primitive: 'boolean()', options: ['optional()', 'default(false)'], samples: [true, false], about: 'metadata flag' },
  { key: 'verbose', primitive: 'boolean()', options: ['optional()'], samples: [true, false], about: 'verbosity flag' },
  { key: 'search', primitive: 'string()', options: ['min(2)', 'max(100)', 'optional()'], samples: ['solar', 'berlin', 'uniswap'], about: 'search text' },
  { key: 'query', primitive: 'string()', options: ['min(1)', 'max(200)'], samples: ['bitcoin', 'rain radar', 'quarterly results'], about: 'search query' },
  { key: 'lang', primitive: 'enum(en,de,fr,es,ja)', options: ['optional()', 'default(en)'], samples: ['de', 'en', 'ja'], about: 'language' },
  { key: 'fields', primitive: 'array()', options: ['optional()'], samples: [['name', 'id'], ['id', 'price', 'updatedAt']], about: 'field selection' },
  { key: 'ids', primitive: 'array()', options: [], samples: [['bitcoin', 'ethereum'], ['solana']], about: 'identifiers' },
  { key: 'minAmount', primitive: 'number()', options: ['min(0)', 'optional()'], samples: [100, 0.5, 25000], about: 'minimum amount' },
  { key: 'status', primitive: 'enum(open,closed,pending,all)', options: ['default(all)'], samples: ['open', 'closed', 'pending'], about: 'status' },
  { key: 'country', primitive: 'string()', options: ['length(2)', 'optional()'], samples: ['de', 'us', 'jp'], about: 'country code' },
  { key: 'latitude', primitive: 'number()', options: ['min(-90)', 'max(90)'], samples: [52.52, -33.87, 35.68], about: 'latitude' },
  { key: 'longitude', primitive: 'number()', options: ['min(-180)', 'max(180)'], samples: [13.41, 151.21, 139.69], about: 'longitude' },
];

const BODY_PARAMS: ParamTemplate[] = [
  { key: 'name', primitive: 'string()', options: ['min(1)', 'max(120)'], samples: ['Quarterly export', 'Berlin sensors', 'Treasury wallet'], about: 'name' },
  { key: 'email', primitive: 'string()', options: ['min(5)', 'max(254)'], samples: ['ops@example.org', 'data@example.com'], about: 'contact e-mail' },
  { key: 'amount', primitive: 'number()', options: ['min(0)', 'max(1000000)'], samples: [250, 19.99, 1000000], about: 'amount' },
  { key: 'quantity', primitive: 'number()', options: ['min(1)', 'max(1000)', 'default(1)'], samples: [3, 1, 12], about: 'quantity' },
  { key: 'items', primitive: 'array()', options: [], samples: [['sku-1001', 'sku-1002'], ['sku-2040']], about: 'items' },
  { key: 'metadata', primitive: 'object()', options: ['optional()'], samples: [{ source: 'bench', batch: 7 }, { team: 'data', tags: ['a', 'b'] }], about: 'metadata' },
  { key: 'notes', primitive: 'string()', options: ['max(500)', 'optional()'], samples: ['Deliver before noon.', 'Generated by the nightly job.'], about: 'notes' },
  { key: 'priority', primitive: 'enum(low,normal,high)', options: ['default(normal)'], samples: ['high', 'low', 'normal'], about: 'priority' },
  { key: 'dryRun', primitive: 'boolean()', options: ['optional()', 'default(false)'], samples: [true, false], about: 'dry-run flag' },
  { key: 'callbackUrl', primitive: 'string()', options: ['min(8)', 'max(2048)', 'optional()'], samples: ['https://hooks.example.org/bench', 'https://example.com/callback'], about: 'callback URL' },
  { key: 'filter', primitive: 'object()', options: [], samples: [{ status: 'open' }, { minVolume: 1000, chain: 'base' }], about: 'filter' },
  { key: 'labels', primitive: 'array()', options: ['optional()'], samples: [['urgent'], ['finance', 'q1']], about: 'labels' },
];

interface Domain {
  word: string;
  title: string;
  what: string;
  resources: string[];
  tags: string[];
  fields: string[];
  /** Keys of INSERT_PARAMS that make sense as path segments of this domain. */
  inserts: string[];
}

const DOMAINS: Domain[] = [
  { word: 'weather', title: 'Weather', what: 'weather forecasts, station observations and severe-weather alerts', resources: ['forecasts', 'stations', 'observations', 'alerts', 'warnings', 'radar'], tags: ['weather', 'forecast'], fields: ['temperature', 'humidity', 'windSpeed', 'pressure', 'condition'], inserts: ['stationId', 'region', 'year', 'slug'] },
  { word: 'markets', title: 'Markets', what: 'prices, order books and historical candles of traded assets', resources: ['tickers', 'candles', 'trades', 'orderbooks', 'assets', 'exchanges'], tags: ['finance', 'market-data'], fields: ['price', 'volume', 'change24h', 'marketCap', 'symbol'], inserts: ['symbol', 'id', 'region', 'year'] },
  { word: 'transit', title: 'Transit', what: 'public transport stops, departures and disruptions', resources: ['stops', 'departures', 'lines', 'disruptions', 'journeys'], tags: ['transport', 'mobility'], fields: ['line', 'direction', 'plannedTime', 'delayMinutes', 'platform'], inserts: ['stationId', 'slug', 'region', 'id'] },
  { word: 'news', title: 'News', what: 'news articles, sources and trending topics', resources: ['articles', 'sources', 'topics', 'headlines'], tags: ['news', 'media'], fields: ['title', 'url', 'publishedAt', 'source', 'summary'], inserts: ['category', 'slug', 'id', 'region'] },
  { word: 'energy', title: 'Energy', what: 'electricity generation, grid load and day-ahead prices', resources: ['generation', 'load', 'prices', 'plants', 'emissions'], tags: ['energy', 'open-data'], fields: ['megawatts', 'source', 'timestamp', 'pricePerMwh', 'zone'], inserts: ['region', 'year', 'stationId', 'id'] },
  { word: 'books', title: 'Books', what: 'book metadata, authors and library availability', resources: ['works', 'authors', 'editions', 'subjects', 'loans'], tags: ['books', 'library'], fields: ['title', 'author', 'isbn', 'publishedYear', 'pages'], inserts: ['id', 'slug', 'year', 'category'] },
  { word: 'chain', title: 'Chain', what: 'blocks, transactions, token transfers and balances on EVM networks', resources: ['blocks', 'transactions', 'transfers', 'balances', 'tokens', 'contracts'], tags: ['blockchain', 'evm'], fields: ['hash', 'blockNumber', 'from', 'to', 'value'], inserts: ['address', 'network', 'id', 'accountId'] },
  { word: 'health', title: 'Health', what: 'hospital capacity, vaccination figures and air quality', resources: ['hospitals', 'vaccinations', 'airquality', 'cases'], tags: ['health', 'statistics'], fields: ['region', 'date', 'count', 'rate', 'capacity'], inserts: ['region', 'year', 'slug', 'id'] },
  { word: 'sports', title: 'Sports', what: 'fixtures, results, standings and player statistics', resources: ['fixtures', 'results', 'standings', 'players', 'teams'], tags: ['sports', 'statistics'], fields: ['homeTeam', 'awayTeam', 'score', 'kickoff', 'venue'], inserts: ['id', 'slug', 'year', 'region'] },
  { word: 'geo', title: 'Geo', what: 'geocoding, reverse geocoding and points of interest', resources: ['places', 'geocode', 'boundaries', 'pois', 'routes'], tags: ['geo', 'maps'], fields: ['name', 'lat', 'lon', 'countryCode', 'population'], inserts: ['region', 'slug', 'id', 'accountId'] },
];

const GET_VERBS = ['get', 'list', 'search', 'find', 'lookup'];
const POST_VERBS = ['create', 'submit', 'calculate', 'quote', 'register'];

// ---------------------------------------------------------------------------------------------
// Model of one generated schema

interface GenParam {
  template: ParamTemplate;
  location: 'insert' | 'query' | 'body';
  /** A fixed value instead of {{USER_PARAM}}. */
  fixed?: string;
}

interface GenRoute {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  description: string;
  params: GenParam[];
  output?: Record<string, unknown>;
  tests: Record<string, unknown>[];
  hooks: { pre: 'header' | 'query' | null; post: 'trim' | 'count' | null };
}

const FIXED_FORMAT: ParamTemplate = { key: 'format', primitive: 'enum(json,xml)', options: [], samples: ['json'], about: 'response format' };

function isOptional(t: ParamTemplate): boolean {
  return t.options.some((o) => o === 'optional()' || o.startsWith('default('));
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** 0 → a, 25 → z, 26 → ba, ... (base 26 with letters as digits). */
export function lettersFor(index: number): string {
  let n = index;
  let out = '';
  do {
    out = String.fromCharCode(97 + (n % 26)) + out;
    n = Math.floor(n / 26);
  } while (n > 0);
  return out;
}

function singular(resource: string): string {
  if (resource.endsWith('ies')) return `${resource.slice(0, -3)}y`;
  if (resource.endsWith('s') && !resource.endsWith('ss')) return resource.slice(0, -1);
  return resource;
}

function scalarSchema(field: string, rng: Rng): Record<string, unknown> {
  const lower = field.toLowerCase();
  if (/(price|volume|count|rate|megawatts|pages|capacity|population|lat|lon|temperature|humidity|speed|pressure|minutes|number|year|change|cap|value)/.test(lower)) {
    return { type: 'number' };
  }
  if (/(at|time|date|kickoff)$/.test(lower)) return { type: 'string', format: 'date-time' };
  if (/url$/.test(lower)) return { type: 'string', format: 'uri' };
  const node: Record<string, unknown> = { type: 'string' };
  if (rng.chance(0.3)) node.nullable = true;
  return node;
}

function outputSchema(domain: Domain, resource: string, rng: Rng): Record<string, unknown> {
  const fields = rng.sample(domain.fields, rng.int(3, domain.fields.length));
  const itemProps: Record<string, unknown> = {};
  for (const field of fields) itemProps[field] = scalarSchema(field, rng);
  const item = { type: 'object', properties: itemProps };
  const shape = rng.int(0, 2);
  if (shape === 0) {
    // object → array → object → scalars (4 levels, items counted)
    return {
      type: 'object',
      properties: {
        data: { type: 'array', description: `Matching ${resource}.`, items: item },
        meta: {
          type: 'object',
          properties: { page: { type: 'number' }, total: { type: 'number' }, nextCursor: { type: 'string', nullable: true } },
        },
      },
    };
  }
  if (shape === 1) {
    // object → object → scalars (3 levels)
    return {
      type: 'object',
      properties: {
        status: { type: 'string', enum: ['ok', 'error'] },
        [singular(resource)]: { ...item, description: `The requested ${singular(resource)}.` },
        updatedAt: { type: 'string', format: 'date-time' },
      },
    };
  }
  // object → scalars (2 levels)
  return { type: 'object', properties: { ...itemProps, id: { type: 'string' } } };
}

function describeRoute(verb: string, domain: Domain, resource: string, params: GenParam[]): string {
  const user = params.filter((p) => p.fixed === undefined);
  const inserts = user.filter((p) => p.location === 'insert').map((p) => p.template.about);
  const filters = user.filter((p) => p.location !== 'insert').map((p) => p.template.about);
  const subject = singular(resource);
  const first =
    verb === 'get' || verb === 'lookup'
      ? `Returns ${inserts.length > 0 ? `the ${subject} for the given ${inserts.join(' and ')}` : `current ${resource}`} from the ${domain.title.toLowerCase()} service.`
      : verb === 'list' || verb === 'find'
        ? `Lists ${resource}${inserts.length > 0 ? ` of one ${inserts.join(' and ')}` : ''}, newest first.`
        : verb === 'search'
          ? `Searches ${resource} by free text${filters.length > 1 ? ' and structured filters' : ''}.`
          : `${capitalize(verb)}s a ${subject} request and returns the stored result.`;
  const second = filters.length > 0 ? ` Filters and options: ${filters.join(', ')}.` : '';
  return first + second;
}

function makeRoute(domain: Domain, rng: Rng, usedNames: Set<string>): GenRoute {
  const method: 'GET' | 'POST' = rng.chance(0.2) ? 'POST' : 'GET';
  const verb = rng.pick(method === 'POST' ? POST_VERBS : GET_VERBS);
  const resource = rng.pick(domain.resources);
  const total = rng.int(2, 6);
  const withFixed = rng.chance(0.1);
  const userCount = withFixed ? total - 1 : total;

  const insertPool = INSERT_PARAMS.filter((p) => domain.inserts.includes(p.key));
  const insertCount = verb === 'search' ? 0 : Math.min(rng.int(0, 2), userCount - 1);
  const inserts = rng.sample(insertPool, insertCount);
  const rest = userCount - inserts.length;
  const bodyCount = method === 'POST' ? Math.max(1, rest - rng.int(0, 1)) : 0;
  const bodies = rng.sample(BODY_PARAMS, bodyCount);
  const queryPool = QUERY_PARAMS.filter((q) => q.key !== 'query');
  const queryCount = rest - bodies.length;
  // A search route always takes the free-text query.
  const searchText = verb === 'search' && queryCount > 0 ? QUERY_PARAMS.filter((q) => q.key === 'query') : [];
  const queries = [...searchText, ...rng.sample(queryPool, queryCount - searchText.length)];

  const params: GenParam[] = [
    ...inserts.map((template) => ({ template, location: 'insert' as const })),
    ...queries.map((template) => ({ template, location: 'query' as const })),
    ...bodies.map((template) => ({ template, location: 'body' as const })),
  ];
  if (withFixed) params.push({ template: FIXED_FORMAT, location: method === 'POST' ? 'body' : 'query', fixed: 'json' });

  let routePath = `/v${rng.int(1, 3)}/${resource}`;
  inserts.forEach((insert, i) => {
    routePath += `/{{${insert.key}}}`;
    if (i === 0 && inserts.length > 1) routePath += `/${rng.pick(domain.resources)}`;
  });
  if (rng.chance(0.15)) routePath += `/${rng.pick(['summary', 'history', 'latest', 'export'])}`;

  let name = `${verb}${capitalize(verb === 'get' || verb === 'lookup' || method === 'POST' ? singular(resource) : resource)}`;
  if (usedNames.has(name) && inserts[0]) name = `${name}By${capitalize(inserts[0].key)}`;
  const base = name;
  for (let n = 2; usedNames.has(name); n += 1) name = `${base}${n}`;
  usedNames.add(name);

  const route: GenRoute = {
    name,
    method,
    path: routePath,
    description: describeRoute(verb, domain, resource, params),
    params,
    tests: [],
    hooks: { pre: null, post: null },
  };
  if (rng.chance(0.85)) route.output = outputSchema(domain, resource, rng);
  route.tests = makeTests(route, rng);
  return route;
}

function makeTests(route: GenRoute, rng: Rng): Record<string, unknown>[] {
  const user = route.params.filter((p) => p.fixed === undefined);
  // A second test varies every enum and shows every optional input (TST007/TST008).
  const needsSecond = user.some((p) => p.template.primitive.startsWith('enum(') || isOptional(p.template));
  const count = needsSecond ? 2 : rng.int(1, 2);
  const tests: Record<string, unknown>[] = [];
  for (let t = 0; t < count; t += 1) {
    const test: Record<string, unknown> = {
      _description: t === 0 ? `Typical ${route.name} call with the required inputs` : `${route.name} with alternative values and optional inputs`,
    };
    for (const p of user) {
      const optional = isOptional(p.template);
      // Enum parameters appear in every test, with a different value each time.
      const show = !optional || t > 0 || p.template.primitive.startsWith('enum(');
      if (!show) continue;
      const samples = p.template.samples;
      test[p.template.key] = samples[t % samples.length];
    }
    tests.push(test);
  }
  return tests;
}

interface GenSchema {
  namespace: string;
  stem: string;
  text: string;
}

function makeSchema(index: number, rng: Rng, withHandlers: boolean): GenSchema {
  const domain = DOMAINS[index % DOMAINS.length] as Domain;
  const letters = lettersFor(index);
  const namespace = `${domain.word}${letters}`;
  const usedNames = new Set<string>();
  const routeCount = rng.int(1, 8);
  const routes: GenRoute[] = [];
  for (let i = 0; i < routeCount; i += 1) routes.push(makeRoute(domain, rng, usedNames));

  if (withHandlers) {
    let any = false;
    routes.forEach((route, i) => {
      if (!(rng.chance(0.5) || (i === routes.length - 1 && !any))) return;
      const kind = rng.int(0, 2);
      if (kind !== 1) route.hooks.pre = rng.pick(['header', 'query'] as const);
      if (kind !== 0) route.hooks.post = rng.pick(['trim', 'count'] as const);
      any = true;
    });
  }

  const host = `api.${domain.word}-${letters}.example.com`;
  const main = {
    namespace,
    name: `${domain.title}${capitalize(letters)}Api`,
    description: `${domain.title} data service ${letters.toUpperCase()}: ${domain.what}. Generated for benchmarks.`,
    version: '2.0.0',
    docs: [`https://docs.${domain.word}-${letters}.example.com/reference`],
    tags: [...domain.tags, 'generated'],
    root: `https://${host}`,
  };
  const text = renderSchema(main, routes);
  return { namespace, stem: domain.resources[0] ?? 'api', text };
}

// ---------------------------------------------------------------------------------------------
// Rendering as JavaScript source

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function str(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

/** One-line literal. */
function lit(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return str(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(lit).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return '{}';
    return `{ ${entries.map(([k, v]) => `${IDENT.test(k) ? k : str(k)}: ${lit(v)}`).join(', ')} }`;
  }
  throw new Error(`cannot render ${typeof value}`);
}

/** Multi-line literal for nested objects; short leaves stay on one line. */
function block(value: unknown, indent: number): string {
  if (value === null || typeof value !== 'object') return lit(value);
  const one = lit(value);
  if (one.length <= 72 && !one.includes('properties: { ')) return one;
  const pad = ' '.repeat(indent + 4);
  const close = ' '.repeat(indent);
  if (Array.isArray(value)) return `[\n${value.map((v) => pad + block(v, indent + 4)).join(',\n')}\n${close}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `{\n${entries.map(([k, v]) => `${pad}${IDENT.test(k) ? k : str(k)}: ${block(v, indent + 4)}`).join(',\n')}\n${close}}`;
}

function renderParam(p: GenParam): string {
  const position = { key: p.template.key, value: p.fixed ?? '{{USER_PARAM}}', location: p.location };
  return `{ position: ${lit(position)}, z: ${lit({ primitive: p.template.primitive, options: p.template.options })} }`;
}

function renderRoute(route: GenRoute): string {
  const i = ' '.repeat(12);
  const lines = [
    `        ${route.name}: {`,
    `${i}method: ${str(route.method)},`,
    `${i}path: ${str(route.path)},`,
    `${i}description: ${str(route.description)},`,
    `${i}parameters: [`,
    route.params.map((p) => `${i}    ${renderParam(p)}`).join(',\n'),
    `${i}],`,
  ];
  if (route.output) lines.push(`${i}output: ${block({ mimeType: 'application/json', schema: route.output }, 12)},`);
  lines.push(`${i}tests: [`, route.tests.map((t) => `${i}    ${lit(t)}`).join(',\n'), `${i}]`, '        }');
  return lines.join('\n');
}

const PRE_HOOKS = {
  header: [
    `        preRequest: async ( { struct, payload } ) => {`,
    `            const headers = { ...struct.headers, 'x-request-source': 'flowguard-bench' }`,
    `            return { struct: { ...struct, headers } }`,
    `        }`,
  ],
  query: [
    `        preRequest: async ( { struct, payload } ) => {`,
    `            const separator = struct.url.includes( '?' ) ? '&' : '?'`,
    `            return { struct: { ...struct, url: struct.url + separator + 'client=flowguard' } }`,
    `        }`,
  ],
} as const;

const POST_HOOKS = {
  trim: [
    `        postRequest: async ( { response, struct, payload } ) => {`,
    `            if( !response || !Array.isArray( response.data ) ) { return { response } }`,
    `            return { response: { ...response, data: response.data.slice( 0, 50 ) } }`,
    `        }`,
  ],
  count: [
    `        postRequest: async ( { response, struct, payload } ) => {`,
    `            if( !response || typeof response !== 'object' || Array.isArray( response ) ) { return { response } }`,
    `            const size = Array.isArray( response.data ) ? response.data.length : Object.keys( response ).length`,
    `            return { response: { ...response, resultCount: size } }`,
    `        }`,
  ],
} as const;

function renderHandlers(routes: GenRoute[]): string | null {
  const blocks: string[] = [];
  for (const route of routes) {
    const hooks: string[] = [];
    if (route.hooks.pre) hooks.push(PRE_HOOKS[route.hooks.pre].join('\n'));
    if (route.hooks.post) hooks.push(POST_HOOKS[route.hooks.post].join('\n'));
    if (hooks.length > 0) blocks.push(`    ${route.name}: {\n${hooks.join(',\n')}\n    }`);
  }
  if (blocks.length === 0) return null;
  return `export const handlers = ( { sharedLists, libraries } ) => ( {\n${blocks.join(',\n')}\n} )\n`;
}

function renderSchema(main: Record<string, unknown>, routes: GenRoute[]): string {
  const head = Object.entries(main)
    .map(([k, v]) => `    ${k}: ${lit(v)},`)
    .join('\n');
  const body = [
    '// Generated by bench/generate.ts for benchmarks. Not a real API.',
    'export const main = {',
    head,
    '    routes: {',
    routes.map(renderRoute).join(',\n'),
    '    }',
    '}',
    '',
  ].join('\n');
  const handlers = renderHandlers(routes);
  return handlers ? `${body}\n${handlers}` : body;
}

// ---------------------------------------------------------------------------------------------
// Entry point

/** Writes `count` realistic schema files (deterministic from `seed`) into a fresh temp dir. */
export function generateCatalog(options: { count: number; seed: number; handlerShare?: number }): GeneratedCatalog {
  const { count, seed } = options;
  const share = Math.min(1, Math.max(0, options.handlerShare ?? 0));
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count must be a non-negative integer, got ${count}`);
  const rng = new Rng(seed);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flowguard-bench-'));
  const files: string[] = [];
  // Exactly round(count * share) files get handlers, spread evenly over the catalog.
  const handlerFiles = Math.round(count * share);
  for (let index = 0; index < count; index += 1) {
    const withHandlers = Math.floor(((index + 1) * handlerFiles) / count) > Math.floor((index * handlerFiles) / count);
    const schema = makeSchema(index, rng, withHandlers);
    const folder = path.join(dir, schema.namespace);
    fs.mkdirSync(folder, { recursive: true });
    const file = path.join(folder, `${schema.stem}.mjs`);
    fs.writeFileSync(file, schema.text);
    files.push(file);
  }
  return { dir, files };
}
