// The search index over a fixture folder's served tools, as the ranking tests need one: the
// catalog loaded into an empty project before the describe block's tests, the index built over
// what it serves, and both closed after them. Call it inside a describe block.

import { afterAll, beforeAll } from 'vitest';
import { ToolIndex, type IndexOptions } from '../../src/discovery/tool-index.js';
import { Catalog } from '../../src/runtime/catalog.js';
import { tempProject } from '../kit/project.js';

export interface FixtureIndex {
  /** The index, once the block's beforeAll has built it. */
  readonly index: ToolIndex;
  /** The served names of the best five tools for `query` (of `namespace` only, when given). */
  top(query: string, namespace?: string): string[];
}

/** `options` as the index takes them (`minCoverage: 1`: every counted word of a request must be matched). */
export function useFixtureIndex(schemas: string, options?: IndexOptions): FixtureIndex {
  const project = tempProject();
  let catalog: Catalog | undefined;
  let index: ToolIndex | undefined;
  beforeAll(async () => {
    catalog = await Catalog.load({ schemas, project: project.dir, env: {} });
    index = new ToolIndex(catalog.visibleTools(), options);
  });
  afterAll(async () => {
    await catalog?.close();
    project.remove();
  });
  const built = (): ToolIndex => {
    if (index === undefined) throw new Error('the fixture index is built in beforeAll: use it inside a test');
    return index;
  };
  return {
    get index() {
      return built();
    },
    top: (query, namespace) =>
      built()
        .find(query, { limit: 5, namespace })
        .map((hit) => hit.name),
  };
}
