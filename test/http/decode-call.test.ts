// Issue 13, point 7, through Catalog.load and call: what a tool reports when the upstream's
// answer is compressed, a bomb, deeply nested, not UTF-8, or when the request went to an
// upstream override.

import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/runtime/catalog.js';
import type { CallResult } from '../../src/call/outcome.js';
import { freePort, startUpstream, type Upstream } from '../support/upstream.js';
import { KEY, makeProject, type TestProject } from './project.js';

const SCHEMA = `export const main = {
  namespace: 'answers', name: 'Answers', description: 'Answers of every kind.', version: '2.0.0',
  root: 'https://api.example.test',
  requiredServerParams: ['TEST_KEY'],
  headers: { 'x-api-key': '{{TEST_KEY}}' },
  routes: {
    getAnswer: {
      method: 'GET', path: '/answers/{{kind}}', description: 'One answer.',
      parameters: [{ position: { key: 'kind', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: [] } }],
      tests: [{ _description: 'json', kind: 'json' }]
    }
  }
};
`;

const MIB = 1024 * 1024;
const INVALID_UTF8 = Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);

let upstream: Upstream;
const projects: TestProject[] = [];
let catalog: Catalog;

beforeAll(async () => {
  const bombMember = gzipSync(Buffer.alloc(8 * MIB), { level: 9 });
  upstream = await startUpstream((req, res) => {
    const kind = req.url?.split('/').pop();
    switch (kind) {
      case 'gzip':
        res
          .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
          .end(gzipSync('{"price":3120.5}'));
        return;
      case 'bomb':
        res
          .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
          .end(Buffer.concat(Array.from({ length: 64 }, () => bombMember)));
        return;
      case 'deep':
        res.writeHead(200, { 'content-type': 'application/json' }).end('['.repeat(100_000) + ']'.repeat(100_000));
        return;
      case 'three-deep':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":[{"b":1}]}');
        return;
      case 'latin1-as-json':
        res.writeHead(200, { 'content-type': 'application/json' }).end(INVALID_UTF8);
        return;
      case 'latin1-as-text':
        res.writeHead(200, { 'content-type': 'text/plain' }).end(INVALID_UTF8);
        return;
      case 'unavailable':
        res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '120' }).end('down for maintenance');
        return;
      case 'unavailable-no-hint':
        res.writeHead(503, { 'content-type': 'text/plain' }).end('down');
        return;
      case 'failed':
        res.writeHead(500, { 'content-type': 'text/plain', 'retry-after': '5' }).end('broken');
        return;
      default:
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    }
  });
  // The 503 with Retry-After of one test must not pause the origin for the others.
  catalog = await load({ upstreamLimits: { maxPauseSeconds: 0 } });
});

afterAll(async () => {
  await catalog.close();
  await upstream.close();
  for (const project of projects) project.remove();
});

function load(config?: unknown, upstreams: Record<string, string> = { '*': upstream.origin }): Promise<Catalog> {
  const project = makeProject(SCHEMA, config);
  projects.push(project);
  return project.load({ upstreams });
}

const ask = (kind: string, from = catalog): Promise<CallResult> => from.call('answers_getAnswer', { kind });

function failure(result: CallResult) {
  expect(result.ok).toBe(false);
  return result.ok ? null : result.error;
}

describe('answers a tool reads', () => {
  it('a gzip answer is decoded', async () => {
    expect(await ask('gzip')).toEqual({
      ok: true,
      status: 200,
      content: { kind: 'json', value: { price: 3120.5 } },
      requests: [expect.objectContaining({ status: 200 })],
    });
  });

  it('a gzip bomb fails the call cleanly at the size cap', async () => {
    expect(failure(await ask('bomb'))).toEqual({
      kind: 'upstream-failure',
      message:
        'upstream request failed: response body larger than 1048576 bytes once decoded from gzip (maxResponseBytes)',
    });
  });

  it('JSON nested 100,000 deep, on a route without handlers, is a tool error naming the bound', async () => {
    expect(failure(await ask('deep'))).toEqual({
      kind: 'decode',
      message: 'the answer could not be read: JSON answer nested more than 256 levels deep (maxJsonDepth)',
    });
  });

  it('http.maxJsonDepth in the config sets the bound', async () => {
    const strict = await load({ http: { maxJsonDepth: 2 } });
    try {
      expect(failure(await ask('three-deep', strict))?.message).toBe(
        'the answer could not be read: JSON answer nested more than 2 levels deep (maxJsonDepth)',
      );
      expect((await ask('three-deep')).ok).toBe(true);
    } finally {
      await strict.close();
    }
  });

  it.each([
    ['latin1-as-json', 'application/json'],
    ['latin1-as-text', 'text/plain'],
  ])('invalid UTF-8 (%s) is a decode error, not text with U+FFFD', async (kind, type) => {
    expect(failure(await ask(kind))).toEqual({
      kind: 'decode',
      message: `response is not valid UTF-8 (${type}): byte 12 of 15 starts no UTF-8 character, after: {"name":"caf`,
    });
  });
});

describe('what a failure says', () => {
  it('names the schema origin, not the upstream override the request went to', async () => {
    const port = await freePort();
    const overridden = await load(undefined, { 'https://api.example.test': `http://127.0.0.1:${port}` });
    try {
      const error = failure(await ask('json', overridden));
      expect(error).toEqual({
        kind: 'upstream-failure',
        message: 'upstream request failed: cannot connect to https://api.example.test (ECONNREFUSED)',
      });
      expect(JSON.stringify(error)).not.toContain(String(port));
      expect(JSON.stringify(error)).not.toContain(KEY);
    } finally {
      await overridden.close();
    }
  });

  it('tells the pause a 503 with Retry-After put in force, where the guard pauses', async () => {
    const pausing = await load({ upstreamLimits: { maxPauseSeconds: 300 } });
    try {
      expect(failure(await ask('unavailable', pausing))).toEqual({
        kind: 'upstream-status',
        status: 503,
        retryAfter: '120',
        message: 'upstream answered 503: down for maintenance (retry after 120 s)',
      });
    } finally {
      await pausing.close();
    }
    // maxPauseSeconds 0 pauses nothing: no wait is told.
    expect(failure(await ask('unavailable'))).toEqual({
      kind: 'upstream-status',
      status: 503,
      message: 'upstream answered 503: down for maintenance',
    });
  });

  it('gives no retry hint for a 503 without Retry-After, nor for a 500', async () => {
    expect(failure(await ask('unavailable-no-hint'))).toEqual({
      kind: 'upstream-status',
      status: 503,
      message: 'upstream answered 503: down',
    });
    expect(failure(await ask('failed'))).toEqual({
      kind: 'upstream-status',
      status: 500,
      message: 'upstream answered 500: broken',
    });
  });
});
