// bin/flowguard.js, the launcher: an error that escapes a command after it has started (here a
// timer's, while serve waits for its client) is a bug, printed as one ERR099 line, and the
// process exits 70; Node's own stack trace is never shown unless FLOWGUARD_DEBUG=1. A real process:
// the failing timer is preloaded with --import.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { tempProject } from '../support/project.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'flowguard.js');
/** Throws from a timer once serve is up and waiting on stdin. */
const FAILING_TIMER = 'data:text/javascript,setTimeout(() => { throw new Error("boom from a timer") }, 1500)';

async function serveWithFailingTimer(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const project = tempProject({ audit: { enabled: false } });
  const child = spawn(
    process.execPath,
    ['--import', FAILING_TIMER, BIN, 'serve', '--schemas', join(ROOT, 'schemas', 'wttr'), '--project', project.dir],
    { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', ...env } },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // Bounded: a launcher that does not end the process is killed and shows up as code null.
  const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
  clearTimeout(killer);
  project.remove();
  return { code, stderr };
}

it('prints an error that escapes a running command as one ERR099 line and exits 70', async () => {
  const { code, stderr } = await serveWithFailingTimer({});
  expect(code).toBe(70);
  expect(stderr).toMatch(
    /\nflowguard: ERR099 internal error: Error: boom from a timer \(a bug in flowguard: please report it[^\n]*\)\n$/,
  );
  expect(stderr).not.toMatch(/\n\s+at /);
}, 30_000);

it('adds the stack under FLOWGUARD_DEBUG=1', async () => {
  const { code, stderr } = await serveWithFailingTimer({ FLOWGUARD_DEBUG: '1' });
  expect(code).toBe(70);
  expect(stderr).toContain('flowguard: ERR099 internal error: Error: boom from a timer');
  expect(stderr).toMatch(/\n\s+at /);
}, 30_000);
