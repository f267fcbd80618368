// `flowguard migrate` as an operator runs it: the command run in-process (test/kit/cli.ts), on copies
// of the 1.2.0 fixtures in a temp folder.

import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { runFlowguard } from '../kit/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'migrate');
const work = mkdtempSync(join(tmpdir(), 'flowguard-migrate-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function flowguard(args: string[]) {
  return runFlowguard(args, { cwd: work });
}

/** A fresh `legacy/` folder: two sound 1.2.0 files (one nested), and a 2.0.0 file. */
beforeEach(() => {
  rmSync(join(work, 'legacy'), { recursive: true, force: true });
  rmSync(join(work, 'out'), { recursive: true, force: true });
  mkdirSync(join(work, 'legacy', 'deep'), { recursive: true });
  cpSync(join(FIXTURES, 'plain.mjs'), join(work, 'legacy', 'plain.mjs'));
  cpSync(join(FIXTURES, 'relay.mjs'), join(work, 'legacy', 'deep', 'relay.mjs'));
  cpSync(join(ROOT, 'test', 'fixtures', 'requests', 'bodies.mjs'), join(work, 'legacy', 'current.mjs'));
});

describe('flowguard migrate', () => {
  it('writes <name>.v2.mjs beside each 1.2.0 file, checks it, skips other files, exit 0', async () => {
    const { code, stdout, stderr } = await flowguard(['migrate', 'legacy']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toContain(
      'migrated legacy/deep/relay.mjs -> legacy/deep/relay.v2.mjs (2 routes, 2 with handlers)\n',
    );
    expect(stdout).toContain('migrated legacy/plain.mjs -> legacy/plain.v2.mjs (1 route, 0 with handlers)\n');
    expect(stdout).toContain(
      '  MIG004 warning legacy/deep/relay.mjs:41:82 schema.routes.getThing.parameters[1].position.location: body parameter',
    );
    // The check of the new file, in the validate format.
    expect(stdout).toContain(
      '  VAL094 info legacy/deep/relay.v2.mjs:31:28 main.routes.getThing.parameters[1].position.key:',
    );
    expect(stdout).toMatch(
      /\n2 legacy files: 2 written, 2 of them valid without errors; 0 errors, \d+ warnings, \d+ info; 1 other file skipped \(not FlowMCP 1\.2\.0\)\n$/,
    );
    expect(readFileSync(join(work, 'legacy', 'plain.v2.mjs'), 'utf8')).toMatch(
      /^\/\/ Migrated from FlowMCP 1\.2\.0 \('plain\.mjs'\)[\s\S]*export const main = \{\n  namespace: 'plain',/,
    );
    expect(existsSync(join(work, 'legacy', 'current.v2.mjs'))).toBe(false);
    expect((await flowguard(['validate', 'legacy/plain.v2.mjs', 'legacy/deep/relay.v2.mjs'])).code).toBe(0);
  });

  it('never overwrites a file without --force (MIG007, exit 1), and does with it', async () => {
    expect((await flowguard(['migrate', 'legacy'])).code).toBe(0);
    writeFileSync(join(work, 'legacy', 'plain.v2.mjs'), '// edited by hand\n');
    const again = await flowguard(['migrate', 'legacy']);
    expect(again.code).toBe(1);
    expect(again.stdout).toContain(
      'not migrated legacy/plain.mjs\n  MIG007 error legacy/plain.mjs: legacy/plain.v2.mjs already exists; nothing was written\n',
    );
    expect(readFileSync(join(work, 'legacy', 'plain.v2.mjs'), 'utf8')).toBe('// edited by hand\n');
    const forced = await flowguard(['migrate', 'legacy', '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(join(work, 'legacy', 'plain.v2.mjs'), 'utf8')).toContain("namespace: 'plain'");
  });

  it('--out mirrors each folder path under the folder, and puts a named file at its top; two files never share one place', async () => {
    const { code, stdout } = await flowguard(['migrate', 'legacy', '--out', 'out']);
    expect(code).toBe(0);
    expect(stdout).toContain('migrated legacy/deep/relay.mjs -> out/deep/relay.mjs');
    expect(stdout).toContain('migrated legacy/plain.mjs -> out/plain.mjs');
    expect(existsSync(join(work, 'legacy', 'deep', 'relay.v2.mjs'))).toBe(false);
    const named = await flowguard(['migrate', join(FIXTURES, 'plain.mjs'), '--out', 'out']);
    expect(named.code).toBe(1);
    expect(named.stdout).toContain(
      `  MIG007 error ${join(FIXTURES, 'plain.mjs')}: out/plain.mjs already exists; nothing was written\n`,
    );
    expect((await flowguard(['validate', 'out'])).code).toBe(0);
  });

  it("exit 1 when something needs a person: the migration's findings and the new file's errors are printed", async () => {
    cpSync(join(FIXTURES, 'person.mjs'), join(work, 'legacy', 'person.mjs'));
    const { code, stdout } = await flowguard(['migrate', 'legacy/person.mjs']);
    expect(code).toBe(1);
    expect(stdout).toContain('  MIG001 error legacy/person.mjs:4:1: an import: a 2.0.0 file imports nothing;');
    expect(stdout).toContain(
      '  SEC017 error legacy/person.v2.mjs:19:108 main.routes.getPerson.parameters[0].z.primitive: a call is not literal data\n',
    );
    expect(stdout).toMatch(/\n1 legacy file: 1 written, 0 of them valid without errors; /);
  });

  it('--json prints every file with its findings and the check of its new file', async () => {
    const { code, stdout } = await flowguard(['migrate', 'legacy', '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      summary: Record<string, number>;
      files: Array<{
        file: string;
        output: string;
        written: boolean;
        findings: Array<{ code: string }>;
        check: Array<{ code: string }>;
      }>;
      skipped: string[];
    };
    expect(report.summary).toMatchObject({ legacyFiles: 2, written: 2, validWithoutErrors: 2, skipped: 1, error: 0 });
    expect(report.files.map((f) => [f.file, f.output, f.written])).toEqual([
      ['legacy/deep/relay.mjs', 'legacy/deep/relay.v2.mjs', true],
      ['legacy/plain.mjs', 'legacy/plain.v2.mjs', true],
    ]);
    expect(report.files[0]?.findings.map((f) => f.code)).toEqual(['MIG008', 'MIG004']);
    expect(report.skipped).toEqual(['legacy/current.mjs']);
  });

  it('exit 2 for a missing path or an --out that is a file', async () => {
    expect(await flowguard(['migrate', 'nowhere'])).toMatchObject({
      code: 2,
      stderr: 'flowguard: ERR001 no such file or folder: nowhere\n',
    });
    writeFileSync(join(work, 'a-file'), '');
    expect(await flowguard(['migrate', 'legacy', '--out', 'a-file'])).toMatchObject({
      code: 2,
      stderr: 'flowguard: ERR001 --out a-file is not a folder\n',
    });
    expect((await flowguard(['migrate'])).code).toBe(2);
  });
});
