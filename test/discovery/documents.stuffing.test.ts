// Attacks the search index's documents (src/discovery/documents.ts) with keyword stuffing: a
// hostile schema writes thousands of request words into its description, searchHint, aliases,
// parameters and tags so that search_tools ranks it first for everything and answers it where
// no tool fits. Its influence must be bounded: text past a field's bound adds no word to the
// index, so a tool can claim only as many words as an honest one writes (the 3.0.0 catalog's
// longest description is 665 characters). On that catalog with the query set, 400 aliases of
// the set's most common words put a stuffer first for 21 of 218 requests before the bound.

import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { toolDocument } from '../../src/discovery/documents.js';
import { ToolIndex } from '../../src/discovery/tool-index.js';
import { tempProject } from '../kit/project.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'discovery', 'schemas');
const WORDS = 5000;

/**
 * Word `index` of a field's stuffing: the field's letter and three more (`daaa`, `daab`...), four
 * letters in all, so that no request word matches another by prefix or typo (words.ts: from five).
 */
const word = (prefix: string, index: number): string =>
  prefix + [676, 26, 1].map((unit) => String.fromCharCode(97 + (Math.floor(index / unit) % 26))).join('');
const words = (prefix: string, count = WORDS) => Array.from({ length: count }, (_, i) => word(prefix, i));

/** A 4.x schema whose one tool stuffs `field` with words starting with `prefix`. */
function stuffer(namespace: string, prefix: string, field: (typeof STUFFERS)[number][2]) {
  const description = field === 'description' ? words(prefix).join(' ') : 'Anything.';
  const parameters =
    field === 'param'
      ? [{ key: 'q', description: words(prefix).join(' ') }]
      : field === 'params'
        ? words(prefix, 500).map((key) => ({ key, description: 'x' }))
        : [];
  return `export const main = {
    namespace: '${namespace}', name: 'Stuffer', description: 'Useful.', version: '4.0.0',
    root: 'https://api.${namespace}.example', tags: ${JSON.stringify(field === 'tags' ? words(prefix, 500) : ['misc'])},
    tools: {
        getAnything: {
            method: 'GET', path: '/x', description: ${JSON.stringify(description)},
            parameters: [${parameters
              .map(
                ({ key, description: text }) =>
                  `{ position: { key: '${key}', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: [] }, description: ${JSON.stringify(text)} }`,
              )
              .join(', ')}],
            tests: [ { _description: 'one'${parameters.map(({ key }) => `, ${key}: 'x'`).join('')} } ],
            meta: { isReadOnly: true, isConcurrencySafe: true, isDestructive: false,
                searchHint: ${JSON.stringify(field === 'searchHint' ? words(prefix).join(' ') : 'anything')},
                aliases: ${JSON.stringify(field === 'aliases' ? words(prefix, 1000) : [])}, alwaysLoad: false },
        },
    },
};
`;
}

/** Each stuffer's namespace, the letter of its words, and the field it stuffs. */
const STUFFERS = [
  ['stuffdesc', 'd', 'description'],
  ['stuffhint', 'h', 'searchHint'],
  ['stuffalias', 'a', 'aliases'],
  ['stuffparam', 'p', 'param'],
  ['stuffparams', 'k', 'params'],
  ['stufftags', 't', 'tags'],
] as const;

describe('a schema stuffed with request words', () => {
  const project = tempProject();
  let catalog: Catalog;
  let index: ToolIndex;
  // The same tools ranked with no "none" answer: a word only in a parameter is a weak match, which `index` answers with none.
  let ranking: ToolIndex;
  const top = (query: string) => index.find(query, { limit: 5 }).map((hit) => hit.name);
  const ranked = (query: string) => ranking.find(query, { limit: 5 }).map((hit) => hit.name);
  beforeAll(async () => {
    const schemas = join(project.dir, 'schemas');
    cpSync(SCHEMAS, schemas, { recursive: true });
    for (const [namespace, prefix, field] of STUFFERS)
      writeFileSync(join(schemas, `${namespace}.mjs`), stuffer(namespace, prefix, field));
    catalog = await Catalog.load({ schemas, project: project.dir, env: {} });
    index = new ToolIndex(catalog.visibleTools());
    ranking = new ToolIndex(catalog.visibleTools(), { minCoverage: 0 });
  }, 60_000);
  afterAll(async () => {
    await catalog?.close();
    project.remove();
  });

  it('is served and found by the first words of each field it stuffed', () => {
    for (const [namespace, prefix] of STUFFERS) {
      expect(
        catalog.visibleTools().map((tool) => tool.name),
        namespace,
      ).toContain(`${namespace}_getAnything`);
      expect(ranked(word(prefix, 0)), namespace).toContain(`${namespace}_getAnything`);
    }
  });

  it.each(STUFFERS)(
    '%s claims no word past its bound (its words start with %s; it stuffs %s)',
    (namespace, prefix, field) => {
      const stuffed = field === 'params' || field === 'tags' ? 500 : field === 'aliases' ? 1000 : WORDS;
      for (const at of [stuffed - 1, Math.floor(stuffed / 2), 400])
        expect(top(word(prefix, at)), `${field}, word ${at}: ${word(prefix, at)}`).not.toContain(
          `${namespace}_getAnything`,
        );
    },
  );

  it('makes each stuffer a document no larger than an honest one can be', () => {
    for (const [namespace] of STUFFERS) {
      const tool = catalog.visibleTools().find((candidate) => candidate.namespace === namespace);
      const characters = (tool ? toolDocument(tool) : []).flat().join(' ').length;
      // 5,000 words of five letters stuffed: about 30,000 characters; the bounds keep a few thousand.
      expect(characters, namespace).toBeLessThan(6000);
    }
  });

  it('leaves the honest tools their requests', () => {
    expect(top('what temperature will Berlin have tomorrow')[0]).toBe('skyline_getForecast');
    expect(top('order a pizza to my flat')).toEqual([]);
  });
});
