// The acceptance table of issue 2: for every code flowguard can emit, a schema, list or groups
// file that triggers it and a close variant that does not. A code added to the table without its
// two fixtures fails here.
//
// A fixture folder `test/fixtures/codes/<CODE>/` holds two cases, `trigger` and `near`, each one
// file: `<case>.mjs` (a schema file, or a list file when it declares `export const list`) or
// `<case>.groups.json` (a `.flowmcp/groups.json`, for GRP codes) or `<case>.keys.lock.json` (a
// `.flowmcp/keys.lock.json` met by the `schemas/` folder beside it, both copied into a temp project, LOCKED_KEY given a value) or
// `<case>.selection.mjs` (a 4.x selection, for SEL codes, against the `schemas/` folder beside it) or
// `<case>.config.json` (a `.flowmcp/config.json`, for CFG codes). Beside them, a
// `.flowmcp/config.json` sets the limits the static cases are checked with. The ERR codes are no
// findings of a file but errors that stop a command: test/errors/cli-errors.test.ts throws each
// through the command line and checks that every one of them has its case there.

import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { selectSchemaFiles } from '../src/scan/files.js';
import { checkGroups, groupsFindings } from '../src/groups/verify.js';
import { readGroupsFile } from '../src/groups/groups-file.js';
import { Catalog, runSchemaHook } from '../src/runtime/catalog.js';
import { checkSchemaFile } from '../src/project/check-file.js';
import { loadProjectConfig } from '../src/config/project.js';
import { readConfigFile } from '../src/config/config-file.js';
import { CODES, type Code } from '../src/report/codes.js';
import { effectiveAllowlist } from '../src/libraries/allowlist.js';
import { loadListFiles, loadListRegistry } from '../src/lists/registry.js';
import { besideLegacy, migrateFile } from '../src/migrate/migrate-file.js';
import { readGroupPrompts } from '../src/prompts/group-prompts.js';
import { verifySelectionFile } from '../src/selections/verify.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'codes');
const options = { allowedLibraries: effectiveAllowlist([]) };
/** Run-time codes (SEC100–SEC199) need the schema loaded in the sandbox and its handlers called. */
const isRuntime = (code: Code) => /^SEC1\d\d$/.test(code);
/** A fixture that declares `export const list` is a list file, not a schema (VAL009's trigger is a folder). */
const isListFile = (file: string) =>
  statSync(file).isFile() && /^export const list\b/m.test(readFileSync(file, 'utf8'));

/**
 * Lists a fixture needs (parents, a name it collides with, lists a schema refers to) sit in a
 * sibling `shared-lists/` folder. A list fixture is checked after them, so that of two lists
 * with one name it is the one that gets LST002; a schema fixture gets them as its registry.
 * A fixture folder is a project folder: a `.flowmcp/config.json` in it sets the limits its
 * cases are read with (a small `limits.maxFileBytes` instead of a multi-megabyte file).
 */
function staticCodes(file: string): Code[] {
  const siblings = join(dirname(file), 'shared-lists');
  const { maxFileBytes } = loadProjectConfig(dirname(file)).limits;
  if (isListFile(file)) {
    const registry = loadListFiles([...selectSchemaFiles([siblings]).files, file], { maxFileBytes });
    return registry.findings.filter((f) => f.file === file).map((f) => f.code);
  }
  const lists = existsSync(siblings) ? loadListRegistry(siblings, { maxFileBytes }) : undefined;
  return checkSchemaFile(file, { ...options, lists, maxFileBytes }).findings.map((f) => f.code);
}

/**
 * A groups case resolves its references against the catalog in the sibling `schemas/` folder
 * (its lists in `shared-lists/`); without that folder only the file's form is checked. The
 * prompt files its groups name are read from the fixture folder, as `serve --group` does.
 */
async function groupCodes(file: string): Promise<Code[]> {
  const dir = dirname(file);
  const groups = readGroupsFile(file);
  const prompts = groups.groups.flatMap(({ name, group }) =>
    group?.prompts ? readGroupPrompts(dir, file, name, group.prompts).findings : [],
  );
  return [...(await groupToolCodes(dir, groups)), ...prompts.map((f) => f.code)];
}

async function groupToolCodes(dir: string, groups: ReturnType<typeof readGroupsFile>): Promise<Code[]> {
  if (!existsSync(join(dir, 'schemas'))) return groupsFindings(checkGroups(groups)).map((f) => f.code);
  const catalog = await Catalog.load({
    schemas: join(dir, 'schemas'),
    lists: join(dir, 'shared-lists'),
    project: dir,
    env: {},
  });
  try {
    expect(catalog.findings().filter((f) => f.severity === 'error')).toEqual([]);
    return groupsFindings(checkGroups(groups, catalog)).map((f) => f.code);
  } finally {
    await catalog.close();
  }
}

/** A selection case (`<case>.selection.mjs`) is verified against the catalog in the sibling `schemas/` folder, as serve verifies one. */
async function selectionCodes(file: string): Promise<Code[]> {
  const catalog = await Catalog.load({ schemas: join(dirname(file), 'schemas'), project: dirname(file), env: {} });
  try {
    const verdict = verifySelectionFile(catalog.tools, file, new Map());
    return (verdict.ok ? verdict.findings : verdict.errors).map((f) => f.code);
  } finally {
    await catalog.close();
  }
}

const CASE_EXTENSIONS = ['.mjs', '.groups.json', '.keys.lock.json', '.selection.mjs', '.config.json'];

/** The one file of a case (`trigger` or `near`) in a fixture folder. */
function fixtureCase(dir: string, name: 'trigger' | 'near'): string {
  const found = CASE_EXTENSIONS.map((extension) => join(dir, name + extension)).filter((file) => existsSync(file));
  expect(found, `${dir}: exactly one ${name} case (${CASE_EXTENSIONS.map((e) => name + e).join(' or ')})`).toHaveLength(
    1,
  );
  return found[0] as string;
}

/**
 * A migrate case is a 1.2.0 file, migrated in a temp folder to its default place; a
 * `<case>.v2.mjs` beside it in the fixture folder is copied along, as a file already there.
 */
function migrateCodes(file: string): Code[] {
  const dir = mkdtempSync(join(tmpdir(), 'flowguard-codes-'));
  try {
    const copy = join(dir, basename(file));
    cpSync(file, copy);
    if (existsSync(besideLegacy(file))) cpSync(besideLegacy(file), besideLegacy(copy));
    return migrateFile(copy, besideLegacy(copy)).findings.map((f) => f.code);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A key lock case: the catalog of the sibling `schemas/` folder judged against it, in a temp project (nothing is written). */
async function keyLockCodes(file: string): Promise<Code[]> {
  const project = mkdtempSync(join(tmpdir(), 'flowguard-codes-'));
  try {
    // The lock names schema files relative to the project folder: the schemas are copied into it.
    mkdirSync(join(project, '.flowmcp'));
    cpSync(file, join(project, '.flowmcp', 'keys.lock.json'));
    cpSync(join(dirname(file), 'schemas'), join(project, 'schemas'), { recursive: true });
    const catalog = await Catalog.load({
      schemas: join(project, 'schemas'),
      project,
      env: {},
      keys: { LOCKED_KEY: 'locked-value' },
      keyLock: 'check',
    });
    try {
      const problem = catalog.keyLock?.problem;
      return [...catalog.findings(), ...(problem ? [problem] : [])].map((f) => f.code);
    } finally {
      await catalog.close();
    }
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

async function codesIn(file: string, code: Code): Promise<Code[]> {
  if (file.endsWith('.groups.json')) return groupCodes(file);
  if (file.endsWith('.selection.mjs')) return selectionCodes(file);
  if (file.endsWith('.keys.lock.json')) return keyLockCodes(file);
  if (file.endsWith('.config.json')) return readConfigFile(file).findings.map((f) => f.code);
  if (code.startsWith('MIG')) return migrateCodes(file);
  if (!isRuntime(code)) return staticCodes(file);
  const catalog = await Catalog.load({
    schemas: file,
    handlers: 'at-load',
    sandbox: { size: 1, deadlineMs: 1000, memoryMb: 64 },
  });
  try {
    const codes = catalog.findings().map((f) => f.code);
    for (const { schema } of catalog.schemas) {
      for (const [route, routeHooks] of Object.entries(catalog.hooksOf(schema.file) ?? {})) {
        for (const hook of routeHooks) {
          const input = {
            struct: { url: 'https://api.example.com/things', method: 'GET', headers: {}, body: null },
            payload: {},
            response: { ok: true },
          };
          const outcome = await runSchemaHook(catalog, schema.file, route, hook, input);
          if (!outcome.ok) codes.push(outcome.failure.code);
        }
      }
    }
    return codes;
  } finally {
    await catalog.close();
  }
}

describe.each((Object.keys(CODES) as Code[]).filter((code) => !code.startsWith('ERR')))('%s', (code) => {
  const dir = join(FIXTURES, code);

  it('is triggered by the trigger case', async () => {
    expect(await codesIn(fixtureCase(dir, 'trigger'), code)).toContain(code);
  });

  it('is not reported for the close variant, the near case', async () => {
    expect(await codesIn(fixtureCase(dir, 'near'), code)).not.toContain(code);
  });
});

it('has fixtures only for codes in the table', () => {
  const unknown = readdirSync(FIXTURES).filter((name) => !(name in CODES));
  expect(unknown).toEqual([]);
});
