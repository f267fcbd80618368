// `npm install && npm start`, the README's first command: `npm start` serves from what
// `npm install` built (the `prepare` script) instead of rebuilding everything on every start.
// Run in the checkout: the build the suite runs from must be left exactly as it was.

import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { waitFor } from '../support/wait.js';

const ROOT = join(import.meta.dirname, '..', '..');

it('npm start serves the bundled catalog without building again', async () => {
  const bundle = join(ROOT, 'dist', 'bundle', 'cli.js');
  const builtAt = statSync(bundle).mtimeMs;
  // Its own process group, so that stopping it stops npm's shell and the server below it.
  const start = spawn('npm', ['start', '--silent', '--', '--port', '0'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  start.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  start.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const ended = new Promise((resolve) => start.on('close', resolve));
  try {
    // The connect instructions come once the catalog is loaded and the port is bound.
    expect(await waitFor(() => /"mcpServers"/.test(output), 60_000, 50), output).toBe(true);
  } finally {
    process.kill(-(start.pid as number), 'SIGTERM');
    await ended;
  }
  expect(statSync(bundle).mtimeMs).toBe(builtAt);
}, 90_000);
