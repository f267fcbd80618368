// The response cache's key against arguments built to collide (src/cache/cache-key.ts): values
// that differ only in type ("1" and 1, "true" and true, "[1]" and [1]), in key order, in unicode
// normalisation, by a `__proto__` or `constructor` key, -0 and 0, a lone surrogate. The promise:
// a cached answer is handed only to a call that would have sent the very request that fetched
// it. Each call's request is read from a dry run (what the core would send, with real parts),
// each answer says which upstream request made it (a counter), and every hit must come from a
// request equal to its own call's. Also: 100,000 distinct argument sets keep the memory store
// within its bounds.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallRecord } from '../../src/call/record.js';
import { cacheKey, toolIdentity } from '../../src/cache/cache-key.js';
import { ResponseCache } from '../../src/cache/response-cache.js';
import { Catalog } from '../../src/runtime/catalog.js';
import { MemoryState } from '../../src/state/memory-state.js';
import { tempProject, type TempProject } from '../kit/project.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { callRecordsDelivered } from '../support/wait.js';

const SCHEMA = `export const main = {
  namespace: 'things', name: 'Things', description: 'Things for the cache key tests.', version: '4.0.0',
  root: 'https://api.things.test', tags: ['cacheTtlDaily'],
  requiredServerParams: ['THINGS_KEY'],
  headers: { 'x-api-key': '{{THINGS_KEY}}' },
  tools: {
    findThings: { method: 'POST', path: '/things', description: 'Finds things.',
      meta: { isReadOnly: true, isConcurrencySafe: true, isDestructive: false, searchHint: 'things', aliases: [], alwaysLoad: false },
      parameters: [
        { position: { key: 'filter', value: '{{USER_PARAM}}', location: 'body' }, z: { primitive: 'object()', options: ['optional()'] } },
        { position: { key: 'ids', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'array()', options: ['optional()'] } },
        { position: { key: 'name', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: ['optional()'] } },
        { position: { key: 'limit', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: ['optional()'] } }
      ],
      tests: [{ _description: 'all' }] }
  }
};
`;

/** Argument sets as a client's JSON-RPC brings them (parsed, so `__proto__` is an own key). */
const VARIANTS: readonly string[] = [
  '{"filter":{"a":1}}',
  '{"filter":{"a":"1"}}',
  '{"filter":{"a":1.0}}',
  '{"filter":{"a":true}}',
  '{"filter":{"a":"true"}}',
  '{"filter":{"a":[1]}}',
  '{"filter":{"a":"[1]"}}',
  '{"filter":{"a":null}}',
  '{"filter":{"a":"null"}}',
  '{"filter":{"a":-0}}',
  '{"filter":{"a":0}}',
  '{"filter":{"a":1e21}}',
  '{"filter":{"a":1000000000000000000000}}',
  '{"filter":{"a":1,"b":2}}',
  '{"filter":{"b":2,"a":1}}',
  '{"filter":{"__proto__":{"a":1}}}',
  '{"filter":{"__proto__":{"a":2}}}',
  '{"filter":{}}',
  '{"filter":{"constructor":{"a":1}}}',
  '{"filter":{"a":"\\u00e9"}}',
  '{"filter":{"a":"e\\u0301"}}',
  '{"filter":{"a":"\\ud800"}}',
  '{"filter":{"a":"\\udc00"}}',
  '{"ids":[1,2]}',
  '{"ids":["1","2"]}',
  '{"ids":["1,2"]}',
  '{"ids":[2,1]}',
  '{"name":"\\u00e9"}',
  '{"name":"e\\u0301"}',
  '{"name":"a b"}',
  '{"name":"a+b"}',
  '{"name":"a%20b"}',
  '{"name":"1"}',
  '{"limit":1}',
  '{"limit":1.0}',
  '{"__proto__":{"limit":1}}',
  '{}',
];

/**
 * A request as the upstream reads it: a JSON body's members in one order (JSON gives their order
 * no meaning, RFC 8259; the cache's key sorts them by decision, cache-and-limits.md).
 */
function asSent(request: { body?: unknown }): unknown {
  const body = typeof request.body === 'string' ? membersInOrder(JSON.parse(request.body)) : request.body;
  return JSON.stringify({ ...request, body });
}

/** JSON data with each object as its sorted [name, value] pairs: no object is written to, so `__proto__` stays a name. */
function membersInOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(membersInOrder);
  if (value === null || typeof value !== 'object') return value;
  return Object.entries(value)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, member]) => [name, membersInOrder(member)]);
}

let upstream: Upstream;
let project: TempProject;
let served = 0;

beforeAll(async () => {
  upstream = await startUpstream((_req, res, entry) => {
    served += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ served, url: entry.url }));
  });
  project = tempProject();
  mkdirSync(join(project.dir, 'schemas'));
  writeFileSync(join(project.dir, 'schemas', 'things.mjs'), SCHEMA);
});
afterAll(async () => {
  await upstream.close();
  project.remove();
});

describe('the cache key against arguments built to collide', () => {
  it('hands a cached answer only to a call that would send the request that fetched it', async () => {
    const catalog = await Catalog.load({
      schemas: join(project.dir, 'schemas'),
      project: project.dir,
      env: {},
      keys: { THINGS_KEY: 'things-key-value-0123456789' },
      upstreams: { '*': upstream.origin },
    });
    const records: CallRecord[] = [];
    catalog.onCall((record) => records.push(record));
    try {
      /** The request that fetched each answer, by the answer's counter. */
      const fetchedBy = new Map<number, unknown>();
      const hits: string[] = [];
      const refused: string[] = [];
      for (const text of VARIANTS) {
        const args: unknown = JSON.parse(text);
        const planned = await catalog.call('things_findThings', args, { dryRun: true });
        const before = served;
        const result = await catalog.call('things_findThings', args);
        if (!planned.ok) {
          // Arguments the check refuses (an argument the tool does not have) are refused alike, nothing sent.
          refused.push(`${text}: ${planned.error.message}`);
          expect(result.ok, text).toBe(false);
          expect(served).toBe(before);
          continue;
        }
        const request = asSent(planned.dryRun);
        if (!result.ok || result.content.kind !== 'json') throw new Error(`${text}: ${JSON.stringify(result)}`);
        const counter = (result.content.value as { served: number }).served;
        if (served > before) fetchedBy.set(counter, request);
        else {
          hits.push(text);
          expect(request, `${text} was answered with the answer of another request`).toEqual(fetchedBy.get(counter));
        }
      }
      // The honest repeats are hits (key order, a number written two ways): the cache took part.
      expect(hits).toEqual(
        expect.arrayContaining(['{"filter":{"a":1.0}}', '{"filter":{"b":2,"a":1}}', '{"limit":1.0}']),
      );
      expect(refused).toEqual([expect.stringContaining('{"__proto__":{"limit":1}}')]);
      await callRecordsDelivered();
      expect(records.filter((record) => record.cache === 'hit')).toHaveLength(hits.length);
    } finally {
      await catalog.close();
    }
  });
});

describe('the memory store under many distinct argument sets', () => {
  it('keeps at most maxEntries of 100,000 answers and at most its bytes of large ones', async () => {
    const maxEntries = 1_000;
    const maxCacheBytes = 4 * 1024 * 1024;
    const state = new MemoryState({ maxCacheEntries: maxEntries, maxCacheBytes });
    const cache = new ResponseCache({
      store: state,
      config: { enabled: true, ttlSeconds: 3_600, maxEntries, overrides: {} },
      keyValue: () => undefined,
      maxDepth: 256,
    });
    const tool = {
      name: 'things_findThings',
      reference: 'things/things.mjs::findThings',
      namespace: 'things',
      schema: { file: 'things.mjs', tags: [] },
      route: { method: 'GET' },
      declaredKeys: [],
      reach: { describe: () => ({ origins: [], denied: [] }) },
    } as unknown as Parameters<ResponseCache['through']>[0];
    const answer = (value: string) => async () => ({
      ok: true as const,
      status: 200,
      content: { kind: 'text' as const, value },
    });
    const identity = toolIdentity(tool, () => undefined);
    /** Stores `count` answers of distinct arguments, then counts those the store still holds (lookups that store nothing). */
    const stored = async (count: number, value: (i: number) => string): Promise<number> => {
      for (let i = 0; i < count; i += 1) await cache.through(tool, { i }, {}, answer(value(i)));
      // Storing does not wait for the store: let the last sets land.
      await new Promise((resolve) => setImmediate(resolve));
      let kept = 0;
      for (let i = 0; i < count; i += 1) if ((await state.cacheGet(cacheKey(identity, { i }))) !== null) kept += 1;
      return kept;
    };
    try {
      expect(await stored(100_000, (i) => `answer ${i}`)).toBe(maxEntries);
      await state.close();
      // 64 KiB answers: the bytes bound the store before its entry count does.
      const large = await stored(200, (i) => `${i}`.padEnd(64 * 1024, '.'));
      expect(large).toBeGreaterThan(0);
      expect(large * 64 * 1024).toBeLessThanOrEqual(maxCacheBytes);
    } finally {
      await state.close();
    }
  });
});
