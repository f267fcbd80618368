// A throwaway project for catalog tests: one schema file, a `.env` with its key, and optionally
// a `.flowmcp/config.json`.

import { Catalog } from '../../src/runtime/catalog.js';
import { type CatalogOptions } from '../../src/runtime/catalog-options.js';
import { tempProject } from '../kit/project.js';

export const KEY = 'sk-test-Zx81Qv02Lm';

/** A schema with one GET route `getThing` at `/things`, sending KEY in a header. */
export function keyedSchema(root: string, handlers = ''): string {
  return `export const main = {
  namespace: 'internal', name: 'Internal', description: 'A service on a private address.', version: '2.0.0',
  root: ${JSON.stringify(root)},
  requiredServerParams: ['TEST_KEY'],
  headers: { 'x-api-key': '{{TEST_KEY}}' },
  routes: { getThing: { method: 'GET', path: '/things', description: 'All things.', parameters: [], tests: [{ _description: 'all things' }] } }
};
${handlers}`;
}

export interface TestProject {
  load(options?: Partial<CatalogOptions>): Promise<Catalog>;
  remove(): void;
}

export function makeProject(schema: string, config?: unknown): TestProject {
  const project = tempProject({ config, env: { TEST_KEY: KEY }, schemas: { 'internal.mjs': schema } });
  return {
    load: (options = {}) =>
      Catalog.load({ schemas: project.schemas, project: project.dir, env: {}, sandbox: { size: 1 }, ...options }),
    remove: project.remove,
  };
}
