// The unit tier's setup file: a unit test runs in this process only. Starting a child process
// (the CLI, a sandbox worker, redis-server) or listening on a port (an upstream, an MCP server)
// throws here, and, in case the code under test caught the throw and carried on, the file fails
// afterwards naming what it tried. Such a test belongs to the integration tier (test/tiers.ts).

import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { afterAll } from 'vitest';

/** What a unit test file tried that the unit tier forbids, in the order tried. */
const attempts: string[] = [];

function refuse(what: string): never {
  attempts.push(what);
  throw new Error(
    `unit tier: ${what} is not allowed in a unit test (no child processes, no servers, no sandbox); list the file under integration in test/tiers.ts`,
  );
}

const SPAWNERS = ['spawn', 'spawnSync', 'fork', 'exec', 'execSync', 'execFile', 'execFileSync'] as const;
for (const name of SPAWNERS) {
  Object.defineProperty(childProcess, name, {
    value: (command: unknown) => refuse(`child_process.${name}(${JSON.stringify(String(command))})`),
    writable: true,
    configurable: true,
  });
}
net.Server.prototype.listen = function listen(...args: unknown[]) {
  return refuse(`listening on ${JSON.stringify(args[0] ?? 'a port')}`);
};
// `import { spawn } from 'node:child_process'` binds the ESM export, which follows the patched
// CommonJS object only once synced.
syncBuiltinESMExports();

afterAll(() => {
  if (attempts.length > 0) throw new Error(`unit tier: this file tried ${takeAttempts().join('; ')}`);
});

/** What was refused since the last call, forgotten once taken: for the guard's own test. */
export function takeAttempts(): string[] {
  return attempts.splice(0);
}
