// The Claude Desktop entry that `serve --transport http` prints: run as Claude Desktop runs it
// (its command and arguments, from a folder unrelated to the project, over stdio), it serves the
// same tools. Before, it said `npx flowguard`, a name flowguard does not own on the npm registry.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, makeProject, shopSchema } from './helpers.js';
import { waitFor } from '../support/wait.js';

const project = makeProject({ 'items.mjs': shopSchema([{ name: 'getItem', path: '/items' }]) });
const elsewhere = mkdtempSync(join(tmpdir(), 'flowguard-elsewhere-'));
afterAll(() => {
  project.remove();
  rmSync(elsewhere, { recursive: true, force: true });
});

interface DesktopEntry {
  command: string;
  args: string[];
}

/** Starts `serve --transport http` in the project folder with relative paths; what it printed up to the Desktop entry. */
async function startUpText(extra: string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const args = [BIN, 'serve', '--transport', 'http', '--port', '0', '--schemas', 'schemas', '--project', '.', ...extra];
  const server = spawn(process.execPath, args, { cwd: project.dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  server.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  try {
    expect(await waitFor(() => /"mcpServers".*\n/.test(stderr), 15_000), stderr).toBe(true);
  } finally {
    server.kill('SIGTERM');
  }
  return stderr;
}

async function printedEntry(): Promise<DesktopEntry> {
  const line = (await startUpText()).split('\n').find((text) => text.includes('"mcpServers"')) as string;
  const config = JSON.parse(line.trim()) as { mcpServers: { flowguard: DesktopEntry } };
  return config.mcpServers.flowguard;
}

it('names this Node and the installed bin/flowguard.js by absolute path, and serves the tools when run from another folder', async () => {
  const entry = await printedEntry();
  expect(entry.command).toBe(process.execPath);
  expect(entry.args[0]).toBe(BIN);
  // Given as relative paths, the folders are named absolutely.
  expect(entry.args[entry.args.indexOf('--schemas') + 1]).toBe(project.schemas);
  expect(isAbsolute(entry.args[entry.args.indexOf('--project') + 1] as string)).toBe(true);

  const client = new Client({ name: 'desktop-entry-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: entry.command, args: entry.args, cwd: elsewhere, stderr: 'ignore' }),
  );
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['shop_getItem']);
  } finally {
    await client.close();
  }
}, 40_000);

it('warns of a bind beyond loopback before the connect instructions, where an operator reading from the top meets it', async () => {
  // A token for a server that requires one off loopback; ignored by one that does not.
  const stderr = await startUpText(['--host', '0.0.0.0'], {
    ...process.env,
    FLOWGUARD_AUTH_TOKEN: 'reload-test-token-0123456789abcdef',
  });
  const warning = stderr.indexOf('warning: listening on 0.0.0.0');
  expect(warning, stderr).toBeGreaterThan(-1);
  expect(warning).toBeLessThan(stderr.indexOf('serving 1 tool'));
  expect(warning).toBeLessThan(stderr.indexOf('Claude Desktop'));
}, 40_000);
