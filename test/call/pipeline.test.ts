// The argument bound of a call (src/call/pipeline.ts, promise 8) against a schema whose path uses
// one argument many times: `/r/{{id}}/{{id}}/...` is valid, and each use writes the argument
// again, percent-encoded (a space three characters). Through a whole call to a real loopback
// upstream: 100 uses of a 1 MB argument built a 300 MB URL (1.2 GB resident, 1.9 s of CPU for one
// call, sent whole); what the path's arguments write, each use counted, is held to
// limits.maxArgumentBytes as the arguments are.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/runtime/catalog.js';
import { loadProjectCatalog, type ProjectCatalog } from '../kit/catalog.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const USES = 100;
const insert = (key: string) =>
  `{ position: { key: '${key}', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: [] } }`;
const SCHEMA = `export const main = {
    namespace: 'rep', name: 'Rep', description: 'A path that names its argument many times.', version: '2.0.0',
    docs: [], tags: [], root: 'https://api.rep.test',
    routes: {
        many: { method: 'GET', path: '/r${'/{{id}}'.repeat(USES)}', description: 'x', parameters: [${insert('id')}], tests: [{ _description: 'a', id: 'a' }] },
        once: { method: 'GET', path: '/o/{{id}}', description: 'x', parameters: [${insert('id')}], tests: [{ _description: 'a', id: 'a' }] }
    }
};
`;
/** limits.maxArgumentBytes by default. */
const BOUND = 1_048_576;

let api: Upstream;
let loaded: ProjectCatalog | undefined;
let catalog: Catalog;

beforeAll(async () => {
  api = await startUpstream();
  loaded = await loadProjectCatalog(
    { schemas: { 'rep.mjs': SCHEMA } },
    { upstreams: { 'https://api.rep.test': api.origin } },
  );
  catalog = loaded.catalog;
  expect(catalog.findings().filter((finding) => finding.severity === 'error')).toEqual([]);
});
afterAll(async () => {
  await loaded?.close();
  await api?.close();
});

describe('a path that uses one argument many times', () => {
  it('is refused before anything is sent once its uses write more than limits.maxArgumentBytes', async () => {
    const connections = api.connections();
    const id = ' '.repeat(Math.ceil(BOUND / USES) + 1);
    const result = await catalog.call('rep_many', { id });
    expect(result).toMatchObject({ ok: false, error: { kind: 'arguments' } });
    expect((result as { error: { message: string } }).error.message).toContain('limits.maxArgumentBytes');
    expect(api.connections()).toBe(connections);
  });

  it('within the bound is sent, every use in its place', async () => {
    const mark = api.records.length;
    const id = 'x'.repeat(Math.floor(BOUND / USES / 100));
    expect(await catalog.call('rep_many', { id })).toMatchObject({ ok: true });
    expect(api.since(mark).map((sent) => sent.url)).toEqual([`/r${`/${id}`.repeat(USES)}`]);
  });

  it('an argument the path uses once is held to the bound of the arguments alone, as before', async () => {
    const connections = api.connections();
    // Half the bound in spaces: three times that once encoded, which counts no more than the argument.
    const result = await catalog.call('rep_once', { id: ' '.repeat(BOUND / 2) });
    // The upstream's parser refuses so long a request line (431): what counts is that it was sent.
    expect(result.ok || result.error.kind).not.toBe('arguments');
    expect(api.connections()).toBeGreaterThan(connections);
  });
});
