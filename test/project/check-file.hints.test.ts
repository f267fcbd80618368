// Issue 17: every finding an author must act on (an error or a warning) says how, in its hint.
// Walks the code table's fixtures (test/fixtures/codes/<CODE>/, see test/codes.test.ts) and
// checks every error and warning they produce, whatever its code, carries a hint. Information
// findings describe how a corpus idiom was read and need no action.
//
// Covered: the static checks of schema files and shared-list files (src/schema, src/shapes,
// src/scan, src/lists). Not covered here: groups.json (GRP), selections (SEL), `migrate` (MIG), skill and prompt
// files (PRM, SEC022), the sandbox's run-time codes (SEC1xx), the key lock's (SEC3xx, judged
// at load against .flowmcp/keys.lock.json) and the operator's config (CFG), whose messages are
// written by other parts of flowguard and read through other loaders, and the errors that stop a
// command (ERR), which are no findings (test/errors/cli-errors.test.ts).

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProjectConfig } from '../../src/config/project.js';
import { effectiveAllowlist } from '../../src/libraries/allowlist.js';
import { loadListFiles, loadListRegistry } from '../../src/lists/registry.js';
import { checkSchemaFile } from '../../src/project/check-file.js';
import { type Finding } from '../../src/report/findings.js';
import { CODES } from '../../src/report/codes.js';
import { selectSchemaFiles } from '../../src/scan/files.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'codes');
const OTHER_PARTS = /^(?:GRP|MIG|PRM|SEL|SEC1|SEC3|SEC022|CFG|ERR)/;

/** The findings of one fixture case, read as codes.test.ts reads it (lists beside it in shared-lists/). */
function findingsOf(file: string): Finding[] {
  const siblings = join(dirname(file), 'shared-lists');
  const { maxFileBytes } = loadProjectConfig(dirname(file)).limits;
  if (statSync(file).isFile() && /^export const list\b/m.test(readFileSync(file, 'utf8'))) {
    return loadListFiles([...selectSchemaFiles([siblings]).files, file], { maxFileBytes }).findings.filter(
      (f) => f.file === file,
    );
  }
  const lists = existsSync(siblings) ? loadListRegistry(siblings, { maxFileBytes }) : undefined;
  return checkSchemaFile(file, { allowedLibraries: effectiveAllowlist([]), lists, maxFileBytes }).findings;
}

const codes = Object.keys(CODES).filter((code) => !OTHER_PARTS.test(code));

describe.each(codes)('%s fixtures', (code) => {
  it.each(['trigger', 'near'])('every error and warning of the %s case has a hint', (name) => {
    const file = join(FIXTURES, code, `${name}.mjs`);
    const unhinted = findingsOf(file)
      .filter((f) => f.severity !== 'info' && !f.hint?.trim())
      .map((f) => `${f.code} ${f.path ?? ''}: ${f.message}`);
    expect(unhinted).toEqual([]);
  });
});

it('covers every static code that has fixtures', () => {
  expect(codes.filter((code) => !existsSync(join(FIXTURES, code)))).toEqual([]);
  expect(
    readdirSync(FIXTURES)
      .filter((code) => !OTHER_PARTS.test(code))
      .sort(),
  ).toEqual([...codes].sort());
});
