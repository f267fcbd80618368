// A seventh reviewer's attack on the grant SecretStore looks up once per key and keeps
// (secrets.ts, promise 1): a catalog that served calls (so each grant was looked up and kept) is
// reloaded with the operator's grant moved to another namespace, or taken away. The reloaded
// catalog's calls must follow the new word: no request of the namespace that lost the grant
// carries the key, while the one that gained it does. Real parts: schema files, the config, a
// key from the environment, the reload a watcher makes (Catalog.load with `previous`), and a
// loopback upstream behind an override.

import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Catalog } from '../../src/runtime/catalog.js';
import { loadProjectCatalog, type ProjectCatalog } from '../kit/catalog.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const KEY = 'reload-grant-canary-6180339887';

const schema = (namespace: string) => `export const main = {
    namespace: '${namespace}', name: 'Ns', description: 'Sends the shared key.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.${namespace}.test', requiredServerParams: ['SHARED_KEY'],
    headers: { 'x-api-key': '{{SHARED_KEY}}' },
    routes: { get: { method: 'GET', path: '/thing', description: 'x', parameters: [], tests: [{ _description: 'a' }] } }
};
`;

let api: Upstream;
let loaded: ProjectCatalog | undefined;
const later: Catalog[] = [];

beforeAll(async () => {
  api = await startUpstream();
  loaded = await loadProjectCatalog(
    {
      schemas: { 'alpha.mjs': schema('alpha'), 'beta.mjs': schema('beta') },
      config: { security: { keys: { SHARED_KEY: ['alpha'] } } },
    },
    { env: { SHARED_KEY: KEY }, upstreams: { '*': api.origin } },
  );
});
afterAll(async () => {
  for (const catalog of later) await catalog.close();
  await loaded?.close();
  await api?.close();
});

/** What each namespace's call sent: the key's header, or that nothing was sent. */
async function sent(catalog: Catalog): Promise<Record<string, string | null>> {
  const result: Record<string, string | null> = {};
  for (const namespace of ['alpha', 'beta']) {
    const mark = api.records.length;
    await catalog.call(`${namespace}_get`, {});
    const [request] = api.records.slice(mark);
    result[namespace] = request === undefined ? null : String(request.headers['x-api-key'] ?? '');
  }
  return result;
}

async function reloadWith(keys: unknown): Promise<Catalog> {
  const { project, catalog: previous } = loaded as ProjectCatalog;
  project.write('.flowmcp/config.json', JSON.stringify({ security: { keys } }));
  const catalog = await (previous.constructor as typeof Catalog).load({
    schemas: project.schemas,
    project: project.dir,
    env: { SHARED_KEY: KEY },
    upstreams: { '*': api.origin },
    previous: later.at(-1) ?? previous,
  });
  later.push(catalog);
  return catalog;
}

it('a grant moved or taken away by a reload is followed by the next call, not the grant kept before', async () => {
  const first = (loaded as ProjectCatalog).catalog;
  // Twice: the second call of each namespace uses the grant kept from the first.
  expect(await sent(first)).toEqual({ alpha: KEY, beta: null });
  expect(await sent(first)).toEqual({ alpha: KEY, beta: null });

  const moved = await reloadWith({ SHARED_KEY: ['beta'] });
  expect(await sent(moved)).toEqual({ alpha: null, beta: KEY });
  expect(await sent(moved)).toEqual({ alpha: null, beta: KEY });

  const taken = await reloadWith({ OTHER_KEY: '*' });
  expect(await sent(taken)).toEqual({ alpha: null, beta: null });
});
