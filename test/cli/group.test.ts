// `flowguard group create|verify|list` as an operator runs them: the command run in-process
// (test/kit/cli.ts), in a temporary project folder holding copies of the fixture schemas.

import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runFlowguard } from '../kit/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'codes', 'GRP006');
const SEARCH = 'example/things.mjs::searchThings';
const GET = 'example/things.mjs::getThing';
const work = mkdtempSync(join(tmpdir(), 'flowguard-group-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function flowguard(args: string[], cwd: string) {
  return runFlowguard(args, { cwd: cwd });
}

function project(name: string): string {
  const dir = join(work, name);
  cpSync(join(FIXTURE, 'schemas'), join(dir, 'schemas'), { recursive: true });
  return dir;
}

const groupsFile = (dir: string) => join(dir, '.flowmcp', 'groups.json');
const schemaFile = (dir: string) => join(dir, 'schemas', 'example', 'things.mjs');

describe('flowguard group create', () => {
  it('records a group with its hashes in .flowmcp/groups.json, as 2-space JSON', async () => {
    const dir = project('create');
    const { code, stdout } = await flowguard(
      [
        'group',
        'create',
        'things',
        '--tools',
        `${SEARCH}, example_getThing`,
        '--description',
        'near GRP006: recorded from the schema as it is now',
      ],
      dir,
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^created group 'things' with 2 tools in \.flowmcp\/groups\.json \(hash sha256:[0-9a-f]{64}\)$/m,
    );
    // Exactly what the GRP006 near case recorded from the same schema.
    expect(readFileSync(groupsFile(dir), 'utf8')).toBe(readFileSync(join(FIXTURE, 'near.groups.json'), 'utf8'));
    expect(readdirSync(join(dir, '.flowmcp'))).toEqual(['groups.json']);
  });

  it('refuses to overwrite a group without --force (exit 2), and replaces it with --force', async () => {
    const dir = project('force');
    expect((await flowguard(['group', 'create', 'things', '--tools', SEARCH], dir)).code).toBe(0);
    const again = await flowguard(['group', 'create', 'things', '--tools', GET], dir);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("a group named 'things' exists");
    const forced = await flowguard(['group', 'create', 'things', '--tools', GET, '--force'], dir);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain("replaced group 'things' with 1 tool");
    expect(
      (JSON.parse(readFileSync(groupsFile(dir), 'utf8')) as { groups: { things: { tools: string[] } } }).groups.things
        .tools,
    ).toEqual([GET]);
  });

  it('writes nothing and exits 1 with findings for bad names and references', async () => {
    const dir = project('bad');
    const { code, stdout } = await flowguard(
      ['group', 'create', 'My_Group', '--tools', `${SEARCH},${SEARCH},example/things.mjs::nothing,things`],
      dir,
    );
    expect(code).toBe(1);
    for (const line of [
      "GRP001 error .flowmcp/groups.json groups.My_Group: group name 'My_Group' does not match ^[a-z][a-z0-9-]*$",
      `GRP005 error .flowmcp/groups.json groups.My_Group.tools[1]: '${SEARCH}' is listed twice (first at index 0)`,
      "GRP003 error .flowmcp/groups.json groups.My_Group.tools[3]: 'things' is not a tool reference 'namespace/file.mjs::route'",
      "GRP004 error .flowmcp/groups.json groups.My_Group.tools[2]: 'example/things.mjs::nothing' resolves to no loaded tool",
    ]) {
      expect(stdout).toContain(line);
    }
    expect(existsSync(groupsFile(dir))).toBe(false);
  });

  it('leaves a groups.json it cannot read untouched (exit 1)', async () => {
    const dir = project('malformed');
    await flowguard(['group', 'create', 'things', '--tools', SEARCH], dir);
    writeFileSync(groupsFile(dir), '{ "specVersion": "2.0.0", "groups": { } ');
    const { code, stdout } = await flowguard(['group', 'create', 'other', '--tools', GET], dir);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^GRP007 error \.flowmcp\/groups\.json:1:\d+: not valid JSON/m);
    expect(readFileSync(groupsFile(dir), 'utf8')).toBe('{ "specVersion": "2.0.0", "groups": { } ');
  });
});

describe('flowguard group verify', () => {
  it('exits 0 while the tools are as recorded, and 1 naming the tool once one changes', async () => {
    const dir = project('verify');
    await flowguard(['group', 'create', 'things', '--tools', `${SEARCH},${GET}`], dir);
    await flowguard(['group', 'create', 'lookup', '--tools', GET], dir);
    const ok = await flowguard(['group', 'verify'], dir);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe('things: ok (2 tools)\nlookup: ok (1 tool)\n2 groups verified\n');

    writeFileSync(
      schemaFile(dir),
      readFileSync(schemaFile(dir), 'utf8').replace("options: ['min(2)']", "options: ['min(3)']"),
    );
    const changed = await flowguard(['group', 'verify'], dir);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(
      new RegExp(
        `^GRP006 error \\.flowmcp/groups\\.json:\\d+:\\d+ groups\\.things\\.tools\\[0\\]: tool ${SEARCH.replace(/[.*]/g, '\\$&')} changed since the group was recorded`,
        'm',
      ),
    );
    // lookup's tool is in the same file: its content record notices what its tool hash does not.
    expect(changed.stdout).toContain(
      'things: FAILED (GRP006, GRP008)\nlookup: FAILED (GRP008)\n2 of 2 groups failed\n',
    );

    // One group only: the one recorded again passes, the other still fails.
    // Recording it again is the way to approve the change.
    expect((await flowguard(['group', 'create', 'lookup', '--force'], dir)).code).toBe(0);
    expect(await flowguard(['group', 'verify', 'lookup'], dir)).toMatchObject({
      code: 0,
      stdout: 'lookup: ok (1 tool)\n',
    });
    expect((await flowguard(['group', 'verify', 'things'], dir)).code).toBe(1);
    expect((await flowguard(['group', 'create', 'things', '--force'], dir)).code).toBe(0);
    expect((await flowguard(['group', 'verify'], dir)).code).toBe(0);
  });

  it('exits 1 when a tool is gone or the group is unknown', async () => {
    const dir = project('gone');
    await flowguard(['group', 'create', 'things', '--tools', `${SEARCH},${GET}`], dir);
    writeFileSync(schemaFile(dir), readFileSync(schemaFile(dir), 'utf8').replace('getThing: {', 'fetchThing: {'));
    const gone = await flowguard(['group', 'verify', 'things'], dir);
    expect(gone.code).toBe(1);
    expect(gone.stdout).toContain(
      `GRP004 error .flowmcp/groups.json:8:9 groups.things.tools[1]: '${GET}' resolves to no loaded tool`,
    );
    expect(gone.stdout).toContain('hint: did you mean example/things.mjs::fetchThing');
    const unknown = await flowguard(['group', 'verify', 'nothing'], dir);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toContain("GRP004 error .flowmcp/groups.json:3:3 groups: no group named 'nothing'");
  });

  it('exits 0 with a note when the project has no groups', async () => {
    expect(await flowguard(['group', 'verify'], project('none'))).toMatchObject({
      code: 0,
      stdout: 'no groups: .flowmcp/groups.json does not exist\n',
    });
  });

  it('verifies the bundled example group in the repository', async () => {
    const { code, stdout } = await flowguard(['group', 'verify'], ROOT);
    expect(code).toBe(0);
    expect(stdout).toMatch(/groups? verified\n$/);
  });
});

describe('flowguard group list', () => {
  it('lists the groups with their tools and status, as text and as JSON', async () => {
    const dir = project('list');
    await flowguard(['group', 'create', 'things', '--tools', `${SEARCH},${GET}`, '--description', 'Every thing'], dir);
    const text = await flowguard(['group', 'list'], dir);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^GROUP\s+TOOLS\s+STATUS\s+DESCRIPTION\nthings\s+2\s+ok\s+Every thing\n/);
    expect(text.stdout).toContain(`things:\n  ${SEARCH}\n  ${GET}\n`);

    const json = await flowguard(['group', 'list', '--json'], dir);
    const parsed = JSON.parse(json.stdout) as { file: string; exists: boolean; groups: Array<Record<string, unknown>> };
    expect(parsed).toMatchObject({ file: '.flowmcp/groups.json', exists: true });
    expect(parsed.groups).toEqual([
      {
        name: 'things',
        description: 'Every thing',
        tools: [SEARCH, GET],
        hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        contentHash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        status: 'ok',
        findings: [],
      },
    ]);
  });

  it('says when there are none', async () => {
    const { code, stdout } = await flowguard(['group', 'list'], project('empty'));
    expect(code).toBe(0);
    expect(stdout).toContain('no groups: .flowmcp/groups.json does not exist');
  });

  it('takes --project, --schemas and --lists like the other commands', async () => {
    const dir = project('flags');
    const elsewhere = join(work, 'elsewhere');
    cpSync(join(dir, 'schemas'), join(elsewhere, 'api'), { recursive: true });
    mkdirSync(join(elsewhere, 'lists'));
    const create = await flowguard(
      [
        'group',
        'create',
        'things',
        '--tools',
        GET,
        '--project',
        dir,
        '--schemas',
        join(elsewhere, 'api'),
        '--lists',
        join(elsewhere, 'lists'),
      ],
      work,
    );
    expect(create.code).toBe(0);
    expect(existsSync(groupsFile(dir))).toBe(true);
    expect(await flowguard(['group', 'list', '--schemas', 'nowhere'], dir)).toMatchObject({
      code: 2,
      stderr: 'flowguard: ERR001 no such schema file or folder: nowhere\n',
    });
  });
});
