// A Content-Length once a key is filled in (security promises 3 and 4, src/http/egress.ts). HTTP
// libraries write a Content-Length for the body they send (ethers does), and the egress check
// lets one through where it states the body's real length. Handlers hold a key's token, not its
// value: the length an executeRequest handler's fetch or a preRequest states is of the body with
// the token, and the core fills the value in after the check. What goes out must state the
// length of what is sent, whatever length the key's value has; a length stated otherwise is
// still refused.
//
// Real parts: the real sandbox, a loopback upstream behind the schema's origin (an `upstreams`
// override) that records the request as it arrived.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { tempProject } from '../support/project.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

/** Shorter than its token, and longer: the filled body is shorter or longer than the one the handler measured. */
const SHORT_KEY = 'k-1';
const LONG_KEY = `long-key-${'x'.repeat(200)}`;

const SCHEMA = `export const main = {
    namespace: 'poster', name: 'Poster', description: 'Posts a body holding its key.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.poster.test',
    requiredServerParams: ['POST_KEY'],
    routes: {
        post: { method: 'POST', path: '/p', description: 'Posts its key in a JSON body.',
            parameters: [{ position: { key: 'length', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: [] } }],
            tests: [{ _description: 'a', length: 'real' }] },
        pre: { method: 'POST', path: '/pre', description: 'The core posts its key, a preRequest states the length.',
            parameters: [
                { position: { key: 'length', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: [] } },
                { position: { key: 'apiKey', value: '{{POST_KEY}}', location: 'body' }, z: { primitive: 'string()', options: [] } }
            ],
            tests: [{ _description: 'a', length: 'real' }] }
    }
};
export const handlers = () => ({
    pre: { preRequest: async ({ struct, payload }) => {
        const body = typeof struct.body === 'string' ? struct.body : JSON.stringify(struct.body);
        const real = new TextEncoder().encode(body).length;
        struct.body = body;
        struct.headers['Content-Length'] = String(payload.length === 'real' ? real : real + 1);
        return { struct };
    } },
    post: { executeRequest: async ({ payload }) => {
        const body = JSON.stringify({ apiKey: payload.serverParams.POST_KEY, q: 'ü' });
        const real = String(new TextEncoder().encode(body).length);
        const length = payload.userParams.length === 'real' ? real : String(Number(real) + 1);
        try {
            const answer = await fetch('https://api.poster.test/p', {
                method: 'POST',
                headers: { 'content-type': 'application/json', 'Content-Length': length },
                body,
            });
            return { response: { status: answer.status } };
        } catch (error) {
            return { response: { error: String(error.message) } };
        }
    } }
});
`;

let api: Upstream;
const open: Array<{ catalog: Catalog; remove: () => void }> = [];

beforeAll(async () => {
  api = await startUpstream();
});
afterAll(async () => {
  for (const { catalog, remove } of open) {
    await catalog.close();
    remove();
  }
  await api?.close();
});

async function load(key: string): Promise<Catalog> {
  const project = tempProject();
  mkdirSync(join(project.dir, 'schemas'));
  writeFileSync(join(project.dir, 'schemas', 'poster.mjs'), SCHEMA);
  const catalog = await Catalog.load({
    schemas: join(project.dir, 'schemas'),
    project: project.dir,
    env: {},
    keys: { POST_KEY: key },
    upstreams: { 'https://api.poster.test': api.origin },
    sandbox: { size: 1 },
  });
  open.push({ catalog, remove: project.remove });
  expect(catalog.findings().filter((finding) => finding.severity === 'error')).toEqual([]);
  return catalog;
}

async function post(catalog: Catalog, length: 'real' | 'other'): Promise<{ status?: number; error?: string }> {
  const result = await catalog.call('poster_post', { length });
  if (!result.ok) throw new Error(JSON.stringify(result).slice(0, 800));
  return (result as { content: { value: { status?: number; error?: string } } }).content.value;
}

const keys = [
  ['shorter than its token', SHORT_KEY],
  ['longer than its token', LONG_KEY],
] as const;

describe("a Content-Length an executeRequest handler's fetch measured on the body with its key token", () => {
  it.each(keys)(
    'a key %s: the body goes out with the key, under its real length',
    async (_name, key) => {
      const catalog = await load(key);
      const mark = api.records.length;
      expect(await post(catalog, 'real')).toEqual({ status: 200 });
      const [sent] = api.records.slice(mark);
      const expected = JSON.stringify({ apiKey: key, q: 'ü' });
      expect(sent?.body).toBe(expected);
      expect(sent?.headers['content-length']).toBe(String(Buffer.byteLength(expected)));
    },
    30_000,
  );

  it('a length that is not the body’s is still refused, nothing sent', async () => {
    const catalog = await load(SHORT_KEY);
    const hits = api.hits();
    expect((await post(catalog, 'other')).error).toMatch(/^HEADER_NOT_ALLOWED: /);
    expect(api.hits()).toBe(hits);
  }, 30_000);
});

describe('a Content-Length a preRequest measured on the body the core fills a key into', () => {
  it.each(keys)(
    'a key %s: the body goes out with the key, under its real length',
    async (_name, key) => {
      const catalog = await load(key);
      const mark = api.records.length;
      const result = await catalog.call('poster_pre', { length: 'real' });
      expect(result, JSON.stringify(result).slice(0, 400)).toMatchObject({ ok: true });
      const [sent] = api.records.slice(mark);
      expect(sent?.body).toBe(JSON.stringify({ apiKey: key }));
      expect(sent?.headers['content-length']).toBe(String(Buffer.byteLength(sent?.body ?? '')));
    },
    30_000,
  );

  it('a length that is not the body’s is still refused, nothing sent', async () => {
    const catalog = await load(SHORT_KEY);
    const hits = api.hits();
    const result = await catalog.call('poster_pre', { length: 'other' });
    expect(result).toMatchObject({ ok: false, error: { message: expect.stringMatching(/^HEADER_NOT_ALLOWED: /) } });
    expect(api.hits()).toBe(hits);
  }, 30_000);
});
