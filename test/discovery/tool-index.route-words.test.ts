// A tool's route name against the request (src/discovery/route-words.ts): each word of it the
// request does not say narrows the tool to what was not asked, the namespace's words and the
// catalog's verbs apart. On a fixture of the heritage sites in danger, said in more of a request's
// words, beside a search of all sites, and four more providers whose route names begin with
// `search`, so that `search` is one of the catalog's verbs.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogVerbs } from '../../src/discovery/route-words.js';
import { Catalog } from '../../src/runtime/catalog.js';
import { tempProject } from '../kit/project.js';
import { useFixtureIndex } from './fixture-index.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'discovery-route-words', 'schemas');

describe('a route name that says what the request does not', () => {
  const { top } = useFixtureIndex(SCHEMAS);

  it('gives way to one that says no more than the request, its verb apart', () => {
    expect(top('world heritage sites')[0]).toBe('sites_searchSites');
    expect(top('heritage sites in Peru')[0]).toBe('sites_searchSites');
  });

  it('comes first when the request says it', () => {
    expect(top('heritage sites in danger')[0]).toBe('sites_getDangerSites');
  });
});

describe("the catalog's verbs", () => {
  const project = tempProject();
  let catalog: Catalog | undefined;
  beforeAll(async () => {
    catalog = await Catalog.load({ schemas: SCHEMAS, project: project.dir, env: {} });
  });
  afterAll(async () => {
    await catalog?.close();
    project.remove();
  });

  it('are the words that begin route names in five namespaces or more', () => {
    const verbs = catalogVerbs(catalog?.visibleTools() ?? []);
    expect([...verbs]).toEqual(['search']);
  });
});
