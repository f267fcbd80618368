// runCli (src/cli/run.ts), the command line as a function: what a command prints goes to the
// streams it is given and nowhere else, its exit code is returned (process.exitCode is left
// alone), relative paths are taken from the folder it is given, the environment is the one it
// is given, and two runs at once keep their output apart.

import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { CapturedOutput, runFlowguard } from '../kit/cli.js';
import { runCli } from '../../src/cli/run.js';

const ROOT = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'flowguard-run-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** A project folder holding one bundled schema folder under `schemas/`. */
function projectWith(namespace: string): string {
  const dir = join(work, namespace);
  cpSync(join(ROOT, 'schemas', namespace), join(dir, 'schemas', namespace), { recursive: true });
  cpSync(join(ROOT, 'shared-lists'), join(dir, 'shared-lists'), { recursive: true });
  return dir;
}

describe('runCli', () => {
  it("writes only to the streams it is given and returns the exit code, leaving the process's alone", async () => {
    const processOut = vi.spyOn(process.stdout, 'write');
    const processErr = vi.spyOn(process.stderr, 'write');
    const exitCodeBefore = process.exitCode;
    const help = await runFlowguard(['--help']);
    const failed = await runFlowguard(['validate', join(ROOT, 'test', 'fixtures', 'codes', 'VAL032', 'trigger.mjs')]);
    const unknown = await runFlowguard(['frobnicate']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: flowguard /);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('VAL032 error');
    expect(unknown).toEqual({ code: 2, stdout: '', stderr: "error: unknown command 'frobnicate'\n" });
    expect(processOut).not.toHaveBeenCalled();
    expect(processErr).not.toHaveBeenCalled();
    expect(process.exitCode).toBe(exitCodeBefore);
  });

  it('takes relative paths from the folder it is given, and prints them as typed', async () => {
    const project = projectWith('etherscan');
    const { code, stdout } = await runFlowguard(['validate', 'schemas'], { cwd: project });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^1 file checked: 0 errors, /m);
    const elsewhere = await runFlowguard(['validate', 'schemas'], { cwd: work });
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toMatch(/^flowguard: ERR001 no such file or folder: schemas \(in /);
    expect(elsewhere.stderr).toContain(`(in ${work});`);
  });

  it('gives the command the environment it is given, not the process’s', async () => {
    // The token of serve --transport http is read from the environment: one too short stops the start.
    const args = ['serve', '--transport', 'http', '--port', '0', '--schemas', join(ROOT, 'schemas'), '--project', work];
    const refused = await runFlowguard(args, { env: { FLOWGUARD_AUTH_TOKEN: 'short' } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^flowguard: ERR004 an auth token must be at least \d+ characters long \(one is 5\)/,
    );
  });

  it('keeps the output of two runs at once apart', async () => {
    const [etherscan, blockscout] = [projectWith('etherscan'), projectWith('blockscout')];
    const outputs = [new CapturedOutput(), new CapturedOutput()];
    const codes = await Promise.all([
      runCli(['list', '--json', '--schemas', join(etherscan, 'schemas'), '--project', etherscan], {
        stdout: outputs[0],
        stderr: new CapturedOutput(),
        env: {},
      }),
      runCli(['list', '--json', '--schemas', join(blockscout, 'schemas'), '--project', blockscout], {
        stdout: outputs[1],
        stderr: new CapturedOutput(),
        env: {},
      }),
    ]);
    expect(codes).toEqual([0, 0]);
    const namespaces = outputs.map((output) => [
      ...new Set(
        (JSON.parse(output.text) as { tools: Array<{ reference: string }> }).tools.map(
          (tool) => tool.reference.split('/')[0],
        ),
      ),
    ]);
    expect(namespaces).toEqual([['etherscan'], ['blockscout']]);
  });
});
