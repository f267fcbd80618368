// One generated schema as data: its `main` fields and routes (parameters, output schema, tests,
// handler hooks), drawn from the vocabulary with a seeded Rng. render.ts writes it as source.

import type { Rng } from './random.js';
import { BODY_PARAMS, INSERT_PARAMS, QUERY_PARAMS, type ParamTemplate } from './vocabulary.js';
import { DOMAINS, GET_VERBS, POST_VERBS, type Domain } from './domains.js';

export interface GenParam {
  template: ParamTemplate;
  location: 'insert' | 'query' | 'body';
  /** A fixed value instead of {{USER_PARAM}}. */
  fixed?: string;
}

export interface GenRoute {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  description: string;
  params: GenParam[];
  output?: Record<string, unknown>;
  tests: Record<string, unknown>[];
  hooks: { pre: 'header' | 'query' | null; post: 'trim' | 'count' | null };
}

const FIXED_FORMAT: ParamTemplate = {
  key: 'format',
  primitive: 'enum(json,xml)',
  options: [],
  samples: ['json'],
  about: 'response format',
};

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
  if (
    /(price|volume|count|rate|megawatts|pages|capacity|population|lat|lon|temperature|humidity|speed|pressure|minutes|number|year|change|cap|value)/.test(
      lower,
    )
  ) {
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
          properties: {
            page: { type: 'number' },
            total: { type: 'number' },
            nextCursor: { type: 'string', nullable: true },
          },
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
      _description:
        t === 0
          ? `Typical ${route.name} call with the required inputs`
          : `${route.name} with alternative values and optional inputs`,
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

export interface GenSchema {
  namespace: string;
  /** The file name without `.mjs`. */
  stem: string;
  main: Record<string, unknown>;
  routes: GenRoute[];
}

export function makeSchema(index: number, rng: Rng, withHandlers: boolean): GenSchema {
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
  return { namespace, stem: domain.resources[0] ?? 'api', main, routes };
}
