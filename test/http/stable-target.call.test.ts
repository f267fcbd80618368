// A seventh reviewer's attack on the URL the core does not parse per call (stable-target.ts,
// promises 3 and 4): through a whole call (arguments → plan → keys → override → client → a real
// loopback upstream), each route shape a proof at load may take, with hostile argument values,
// must put on the wire exactly the path and query `new URL` makes of the text the route builds,
// with the key in the one place its schema put it and the call's record naming the schema's
// origin. The oracle is the parser itself, run here on text built by hand from the schema.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/runtime/catalog.js';
import { loadProjectCatalog, type ProjectCatalog } from '../kit/catalog.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const KEY = 'st-key-1.2~3(4)*5!6';
const ROOT = 'https://api.stable.test/v1';

const insert = (key: string) =>
  `{ position: { key: '${key}', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: [] } }`;
const query = (key: string, value = '{{USER_PARAM}}', optional = true) =>
  `{ position: { key: '${key}', value: '${value}', location: 'query' }, z: { primitive: 'string()', options: [${optional ? "'optional()'" : ''}] } }`;

/** Each route: its path, its parameters, and the URL text the reference builds from the arguments. */
const ROUTES: Record<string, { path: string; params: string[]; url: (a: Record<string, string>) => string }> = {
  whole: { path: '/q?{{x}}', params: [insert('x')], url: (a) => `${ROOT}/q?${encodeURIComponent(a.x ?? '')}` },
  segment: {
    path: '/a/{{x}}/b',
    params: [insert('x'), query('apikey', '{{ST_KEY}}', false)],
    url: (a) => `${ROOT}/a/${encodeURIComponent(a.x ?? '')}/b?apikey=${encodeURIComponent(KEY)}`,
  },
  suffix: {
    path: '/f/{{x}}.json?module=m',
    params: [insert('x'), query('q')],
    url: (a) =>
      `${ROOT}/f/${encodeURIComponent(a.x ?? '')}.json?module=m` +
      (a.q === undefined ? '' : `&${new URLSearchParams({ q: a.q })}`),
  },
  keyed: {
    path: '/k/v{{ST_KEY}}/{{x}}',
    params: [insert('x')],
    url: (a) => `${ROOT}/k/v${encodeURIComponent(KEY)}/${encodeURIComponent(a.x ?? '')}`,
  },
};

const SCHEMA = `export const main = {
    namespace: 'stable', name: 'Stable', description: 'Routes whose URLs are not parsed per call.', version: '2.0.0',
    docs: [], tags: [], root: '${ROOT}', requiredServerParams: ['ST_KEY'],
    routes: {
${Object.entries(ROUTES)
  .map(
    ([name, route]) =>
      `        ${name}: { method: 'GET', path: '${route.path}', description: 'x', parameters: [${route.params.join(', ')}], tests: [{ _description: 'a', x: 'a' }] }`,
  )
  .join(',\n')}
    }
};
`;

/** Values that are dots, percent forms, structure, quotes, backslashes, unicode, lone surrogates, long. */
const VALUES = [
  '',
  'plain',
  '...',
  '.a',
  '%2e',
  '%2E%2e',
  '%',
  '%zz',
  "it's",
  '\\..\\',
  'a/../b',
  '?x=1#f',
  '@evil.test',
  ':443',
  ';p=1',
  ' \t\n',
  'é☃',
  '\ud800',
  '\udc00x',
  'x'.repeat(5_000),
];

let api: Upstream;
let loaded: ProjectCatalog | undefined;
let catalog: Catalog;

beforeAll(async () => {
  api = await startUpstream();
  loaded = await loadProjectCatalog(
    { schemas: { 'stable.mjs': SCHEMA } },
    { keys: { ST_KEY: KEY }, upstreams: { 'https://api.stable.test': `${api.origin}/base/` } },
  );
  catalog = loaded.catalog;
  expect(catalog.findings().filter((finding) => finding.severity === 'error')).toEqual([]);
});
afterAll(async () => {
  await loaded?.close();
  await api?.close();
});

describe('a route whose URL is not parsed per call sends what the parser would have sent', () => {
  for (const [name, route] of Object.entries(ROUTES))
    it(`${name} (${route.path}): path, query, key and record, for every hostile value`, async () => {
      for (const value of VALUES) {
        const args: Record<string, string> = name === 'suffix' ? { x: value, q: value } : { x: value };
        const mark = api.records.length;
        const result = await catalog.call(`stable_${name}`, args);
        let reference: string;
        try {
          reference = route.url(args);
        } catch {
          // A lone surrogate has no UTF-8: the argument check refuses it, naming it, and nothing is sent.
          expect(result, JSON.stringify(value)).toMatchObject({ ok: false, error: { kind: 'arguments' } });
          expect((result as { error: { message: string } }).error.message).toContain(
            "'x' holds half of a surrogate pair",
          );
          expect(api.records.length).toBe(mark);
          continue;
        }
        expect(result, JSON.stringify(value)).toMatchObject({ ok: true });
        const [sent, ...more] = api.records.slice(mark);
        expect(more).toEqual([]);
        const parsed = new URL(reference);
        // The override's base path, then the path and query as the parser writes them.
        expect(sent?.url, JSON.stringify(value)).toBe(`/base${parsed.pathname}${parsed.search}`);
        expect((result as { requests?: Array<{ origin: string }> }).requests?.[0]?.origin).toBe(
          'https://api.stable.test',
        );
      }
    });
});
