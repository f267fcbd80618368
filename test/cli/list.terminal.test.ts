// `flowguard list`, `flowguard doctor` and `flowguard group list` print what hostile schema files
// hold (promise 8: text a command prints cannot act on a terminal). A schema file's name is the
// author's, as is its text, which a finding quotes: here a file named with a colour change, a
// window-title sequence (OSC, ended by BEL) and a right-to-left override, and a file whose
// namespace holds a screen clear and an 8-bit CSI, both rejected; and a sound schema in a file so
// named, whose tool's reference (`namespace/file::route`) carries the name into a recorded group.
// Real parts: the files in a real folder, the commands run in-process on that project, as text
// and with --json.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectedRows } from '../../src/cli/list.js';
import { actsOnTerminal } from '../../src/report/format.js';
import { Catalog } from '../../src/runtime/catalog.js';
import { runFlowguard } from '../kit/cli.js';
import { tempProject, type TempProject } from '../kit/project.js';

const NAME = 'evil\u001b[31mred\u001b]0;pwned\u0007\u202egnp.mjs';
const NAMESPACE = 'ns\\u001b[2J\\u009b31m';

let project: TempProject;
let schemas: string;

beforeAll(() => {
  project = tempProject();
  schemas = join(project.dir, 'schemas');
  mkdirSync(schemas);
  writeFileSync(join(schemas, NAME), 'export const main = { namespace: 1 };\n');
  mkdirSync(join(schemas, 'sound'));
  writeFileSync(
    join(schemas, 'sound', NAME),
    `export const main = { namespace: 'sound', name: 'S', description: 'S.', version: '2.0.0', root: 'https://api.s.test',
  routes: { getIt: { method: 'GET', path: '/it', description: 'It.', parameters: [], tests: [{ _description: 'x' }] } } };\n`,
  );
  writeFileSync(
    join(schemas, 'quoted.mjs'),
    `export const main = { namespace: '${NAMESPACE}', name: 'Q', description: 'Q.', version: '2.0.0', root: 'https://api.q.test', routes: {} };\n`,
  );
});
beforeAll(async () => {
  const created = await runFlowguard([
    'group',
    'create',
    'g',
    '--tools',
    'sound_getIt',
    '--schemas',
    schemas,
    '--project',
    project.dir,
  ]);
  expect(created.code, created.stdout + created.stderr).toBe(0);
});
afterAll(() => project?.remove());

/** The characters of `text` that act on a terminal. */
const acting = (text: string) => [...text].filter((char) => actsOnTerminal(char));

describe('the rejected files as the catalog reports them', () => {
  it('keep the file name as it is: only what a command prints is escaped', async () => {
    const catalog = await Catalog.load({ schemas, project: project.dir, env: {} });
    try {
      const rows = rejectedRows(catalog.reports);
      expect(rows.map((row) => row.file)).toContain(join(schemas, NAME));
      expect(rows).toHaveLength(2);
    } finally {
      await catalog.close();
    }
  });
});

describe.each([
  ['list', []],
  ['list', ['--json']],
  ['doctor', []],
  ['group', ['list']],
  ['group', ['list', '--json']],
])('flowguard %s %j over hostile file names and text', (command, extra) => {
  it('names the hostile file, and nothing in the output acts on the terminal', async () => {
    const { stdout, stderr } = await runFlowguard([command, ...extra, '--schemas', schemas, '--project', project.dir]);
    expect(stdout).toContain(command === 'group' ? 'sound/evil' : 'evil');
    expect(acting(stdout + stderr)).toEqual([]);
    if (extra.includes('--json')) {
      // Still JSON of the same data: the name escaped as JSON's \u, read back as it is.
      const data = JSON.parse(stdout) as { rejected?: Array<{ file: string }>; groups?: Array<{ tools: string[] }> };
      if (command === 'list') expect(data.rejected?.map((row) => row.file)).toContain(join(schemas, NAME));
      else expect(data.groups?.[0]?.tools).toEqual([`sound/${NAME}::getIt`]);
    }
  });
});
