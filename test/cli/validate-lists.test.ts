// `flowguard validate --lists`: list files are checked as lists, never as schemas, and their
// findings are reported with the schemas'.

import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFlowguard } from '../kit/cli.js';
import { listFile } from '../lists/helpers.js';

const ROOT = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'flowguard-lists-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function flowguard(args: string[], cwd: string) {
  return runFlowguard(args, { cwd: cwd });
}

/** A project with the bundled schemas and lists, and one list of its own. */
function project(name: string, extraList?: { file: string; text: string }): string {
  const dir = join(work, name);
  cpSync(join(ROOT, 'schemas'), join(dir, 'schemas'), { recursive: true });
  cpSync(join(ROOT, 'shared-lists'), join(dir, 'shared-lists'), { recursive: true });
  if (extraList) writeFileSync(join(dir, 'shared-lists', extraList.file), extraList.text);
  return dir;
}

describe('flowguard validate with shared lists', () => {
  let clean: string;
  beforeAll(() => {
    clean = project('clean');
  });

  it('checks `.` with the list files read as lists, not as schemas', async () => {
    const { code, stdout } = await flowguard(['validate', '.'], clean);
    expect(stdout).not.toContain('shared-lists/');
    expect(stdout).toMatch(/^11 files checked: 0 errors, 0 warnings, \d+ info \(all files can be loaded\)$/m);
    expect(code).toBe(0);
  });

  it('reports the list files themselves when pointed at them', async () => {
    const { code, stdout } = await flowguard(['validate', 'shared-lists'], clean);
    expect(stdout).toMatch(/^3 files checked: 0 errors, 0 warnings, 0 info \(all files can be loaded\)$/m);
    expect(code).toBe(0);
  });

  it('reports a broken list file and exits 1', async () => {
    const dir = project('broken', {
      file: 'colours.mjs',
      text: "export const list = { meta: { name: 'colours', version: '1.0', description: 'C.', fields: [{ key: 'hex', type: 'string', description: 'H.' }] }, entries: [{ hex: 1 }] };\nconsole.log('ran');\n",
    });
    const { code, stdout } = await flowguard(['validate', '--json', 'schemas'], dir);
    const report = JSON.parse(stdout) as { files: Array<{ file: string; findings: Array<{ code: string }> }> };
    expect(report.files[0]).toMatchObject({ file: 'shared-lists/colours.mjs' });
    expect(report.files[0]?.findings.map((f) => f.code)).toEqual(['SEC205', 'LST003', 'LST008']);
    expect(report.files).toHaveLength(9);
    expect(code).toBe(1);
  });

  it('resolves refs against the folder --lists names', async () => {
    const dir = join(work, 'other-lists');
    mkdirSync(dir);
    const chains = listFile({ name: 'evmChains', version: '3.0.0' });
    writeFileSync(join(dir, chains.file), chains.text);
    const { code, stdout } = await flowguard(['validate', '--lists', dir, 'schemas/etherscan'], clean);
    expect(stdout).toContain('VAL073 error schemas/etherscan/accounts.mjs');
    expect(code).toBe(1);
  });

  it('treats a missing default folder as no lists: refs are unresolved (VAL072)', async () => {
    const dir = join(work, 'no-lists');
    cpSync(join(ROOT, 'schemas'), join(dir, 'schemas'), { recursive: true });
    const { stdout } = await flowguard(['validate', 'schemas/openmeteo', 'schemas/etherscan'], dir);
    expect(stdout).toContain(
      "VAL072 error schemas/etherscan/accounts.mjs:19:16 main.sharedLists[0].ref: no list named 'evmChains' is loaded",
    );
    expect(stdout).not.toContain('schemas/openmeteo');
  });

  it('exits 2 when the --lists folder does not exist', async () => {
    const { code, stderr } = await flowguard(['validate', '--lists', 'no-such-lists', 'schemas'], clean);
    expect(code).toBe(2);
    expect(stderr).toContain('no such lists folder: no-such-lists');
  });
});
