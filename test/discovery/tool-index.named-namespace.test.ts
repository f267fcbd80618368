// A request that names a provider (src/discovery/named-namespace.ts): on a fixture of a museum's
// collection, said once and by painter, beside another provider's works of a painter, said in its
// name and description, and a provider whose namespace begins with `daily`, a word other
// providers' tools say.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFixtureIndex } from './fixture-index.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'discovery-named-namespace', 'schemas');

describe('a request that names a namespace', () => {
  const { top } = useFixtureIndex(SCHEMAS);

  it("finds that namespace's tool before another's that says its other words more", () => {
    expect(top('works of a painter in the Rijksmuseum')[0]).toBe('rijksmuseum_searchCollection');
  });

  it('ranks as before when it names none', () => {
    expect(top('works of a painter')[0]).toBe('gallery_getPainterWorks');
  });

  it('does not name one by a word that begins it and that other providers say', () => {
    expect(top('daily paintings')[0]).toBe('gallery_getDailyPainting');
  });
});
