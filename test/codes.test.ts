// The acceptance table of issue 2: for every code flowguard can emit, a schema file that
// triggers it and a close variant that does not. A code added to the table without its two
// fixtures fails here.

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSchemaFile } from '../src/catalog/validate.js';
import { CODES, type Code } from '../src/findings.js';
import { effectiveAllowlist } from '../src/libraries/allowlist.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'codes');
const options = { allowedLibraries: effectiveAllowlist([]) };
const codesIn = (file: string) => checkSchemaFile(file, options).findings.map((f) => f.code);

describe.each(Object.keys(CODES) as Code[])('%s', (code) => {
  const dir = join(FIXTURES, code);

  it('is triggered by trigger.mjs', () => {
    expect(codesIn(join(dir, 'trigger.mjs'))).toContain(code);
  });

  it('is not reported for the close variant near.mjs', () => {
    expect(existsSync(join(dir, 'near.mjs'))).toBe(true);
    expect(codesIn(join(dir, 'near.mjs'))).not.toContain(code);
  });
});

it('has fixtures only for codes in the table', () => {
  const unknown = readdirSync(FIXTURES).filter((name) => !(name in CODES));
  expect(unknown).toEqual([]);
});
