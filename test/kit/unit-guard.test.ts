// The unit tier's guard (test/kit/unit-guard.ts, this file's setup) refuses a child process, a
// listening server and the sandbox, as the code under test would start them.

import { execFileSync, fork, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { SandboxHost } from '../../src/sandbox/host.js';
import { takeAttempts } from './unit-guard.js';

// Each test takes what it tried, so that the guard's own check after the file stays quiet.
afterEach(() => void takeAttempts());

it('refuses to start a child process, however it is asked for', () => {
  expect(() => spawn(process.execPath, ['-e', '0'])).toThrow(/unit tier: child_process\.spawn/);
  expect(() => fork('worker.js')).toThrow(/unit tier: child_process\.fork/);
  expect(() => execFileSync('true')).toThrow(/unit tier: child_process\.execFileSync/);
  expect(takeAttempts()).toHaveLength(3);
});

it('refuses to listen, for HTTP and for plain TCP', () => {
  expect(() => createServer().listen(0, '127.0.0.1')).toThrow(/unit tier: listening on 0/);
  expect(() => createTcpServer().listen(0)).toThrow(/unit tier: listening/);
  expect(takeAttempts()).toHaveLength(2);
});

it('refuses the sandbox: its worker process is never started, and the attempt is recorded though the host catches it', async () => {
  const host = new SandboxHost({ size: 1, deadlineMs: 500 });
  // The host retries a process that did not start; the first attempt is what this test checks.
  const loading = host.load({ id: 'unit', source: '() => ({})', routes: [], libraries: [], sharedLists: {} });
  const tried: string[] = [];
  for (let turn = 0; turn < 100 && tried.length === 0; turn++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    tried.push(...takeAttempts());
  }
  await host.close();
  expect((await loading).ok).toBe(false);
  expect(tried.join('\n')).toMatch(/child_process\.fork\(".*sandbox\/worker\.js"\)/);
});
