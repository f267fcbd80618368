// Issue 27, point 6: the `cacheTtl*` tags the README recommends (and the catalogs use) are no
// naming-convention warning; other tags keep the lowercase convention.

import { describe, expect, it } from 'vitest';
import { effectiveAllowlist } from '../../src/libraries/allowlist.js';
import { checkSchemaText } from '../../src/schema/check.js';

function tagFindings(tags: string[]): string[] {
  const text = `export const main = {
    namespace: 'example', name: 'Example', description: 'Things.', version: '2.0.0', tags: ${JSON.stringify(tags)},
    root: 'https://api.example.com',
    routes: { getThing: { method: 'GET', path: '/thing', description: 'One thing.', parameters: [], tests: [{ _description: 'a thing' }] } },
  };`;
  return checkSchemaText('example.mjs', text, { allowedLibraries: effectiveAllowlist([]) })
    .findings.filter((finding) => finding.code === 'VAL019')
    .map((finding) => finding.path ?? '');
}

describe('tags', () => {
  it('cacheTtl tags are accepted as written', () => {
    expect(tagFindings(['weather', 'cacheTtlDaily', 'cacheTtlRealtime', 'air-quality'])).toEqual([]);
  });

  it('other tags keep the lowercase convention', () => {
    expect(tagFindings(['Weather', 'cache_ttl', 'cacheTtl'])).toEqual(['main.tags[0]', 'main.tags[1]', 'main.tags[2]']);
  });
});
