// Among the tools a request finds, the one that says more of it (src/discovery/said-share.ts): on
// a fixture of public warnings about products, which say "warnings" in their name, description
// and hints, beside flood alerts, which say "flood" and have "warnings" in a parameter.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFixtureIndex } from './fixture-index.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'discovery-said-share', 'schemas');

describe('a tool that says more of the request, or its rarer words', () => {
  const { top } = useFixtureIndex(SCHEMAS);

  it('comes before one that says one of its words more often', () => {
    expect(top('flood warnings')[0]).toBe('rivers_getAlerts');
  });

  it('does not pass one that says as much', () => {
    expect(top('warnings')[0]).toBe('recalls_getWarnings');
    expect(top('product warnings')[0]).toBe('recalls_getWarnings');
  });
});
