// The flags every command shares (src/cli/shared.ts), as a user runs the commands: one project
// folder means one config and one shared-list folder, whichever command reads it.

import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runFlowguard } from '../kit/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'flowguard-shared-flags-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function flowguard(args: string[], cwd: string) {
  return runFlowguard(args, { cwd: cwd });
}

/** A project whose etherscan schema needs the evmChains list of its own shared-lists/, and a working folder elsewhere with none. */
function projectElsewhere(): { project: string; cwd: string } {
  const project = join(work, 'project');
  cpSync(join(ROOT, 'schemas', 'etherscan'), join(project, 'schemas', 'etherscan'), { recursive: true });
  cpSync(join(ROOT, 'shared-lists'), join(project, 'shared-lists'), { recursive: true });
  const cwd = join(work, 'elsewhere');
  mkdirSync(cwd, { recursive: true });
  return { project, cwd };
}

describe('the project flags', () => {
  const { project, cwd } = projectElsewhere();
  const schemas = join(project, 'schemas');

  // validate once took `shared-lists` of the working folder, the catalog commands that of the project.
  it('give validate the shared lists of --project, as list loads them', async () => {
    const validated = await flowguard(['validate', '--project', project, schemas], cwd);
    expect(validated.stdout).not.toContain('VAL072');
    expect(validated.stdout).toMatch(/^1 file checked: 0 errors, /m);
    expect(validated.code).toBe(0);
    const listed = await flowguard(['list', '--json', '--project', project, '--schemas', schemas], cwd);
    expect(JSON.parse(listed.stdout).summary).toMatchObject({ tools: 4, rejected: 0, dropped: 0 });
  });

  it('check a lists folder that was named the same way in every command', async () => {
    const missing = join(work, 'no-such-lists');
    for (const args of [
      ['validate', schemas],
      ['list', '--schemas', schemas],
      ['call', 'x', '--schemas', schemas],
      ['doctor', '--schemas', schemas],
    ]) {
      const result = await flowguard([...args, '--project', project, '--lists', missing], cwd);
      if (args[0] === 'doctor') expect(result.stdout).toContain(`no lists folder ${missing}`);
      else expect(result).toMatchObject({ code: 2, stderr: `flowguard: ERR001 no such lists folder: ${missing}\n` });
    }
  });

  // A newcomer's first `flowguard serve` (or list, or validate) in a folder that is no project: the
  // default folder is missing, and the error says where it looked and the ways on.
  it('say, when the default schema folder is missing, where they looked and how to go on', async () => {
    const ways = `(in ${cwd}); run flowguard in a project folder (one holding schemas/), name one with`;
    for (const args of [['serve'], ['list'], ['search', 'weather']]) {
      const result = await flowguard(args, cwd);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(`ERR001 no such`);
      expect(result.stderr).toContain(
        `: schemas ${ways} \`--schemas <dir>\`, or write a first schema here with \`flowguard init\`\n`,
      );
    }
    const validate = await flowguard(['validate'], cwd);
    expect(validate).toMatchObject({
      code: 2,
      stderr: `flowguard: ERR001 no such file or folder: schemas ${ways} \`flowguard validate <dir>\`, or write a first schema here with \`flowguard init\`\n`,
    });
  });

  // call once loaded an empty catalog and answered `no tool named`.
  it('make call refuse a schema folder that is not there, as list does', async () => {
    expect(await flowguard(['call', 'etherscan_getBalance', '--schemas', 'nowhere'], cwd)).toMatchObject({
      code: 2,
      stderr: 'flowguard: ERR001 no such schema file or folder: nowhere\n',
    });
    expect(await flowguard(['list', '--schemas', 'nowhere'], cwd)).toMatchObject({
      code: 2,
      stderr: 'flowguard: ERR001 no such schema file or folder: nowhere\n',
    });
  });
});
