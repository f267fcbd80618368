// A production install: a copy of the repository's files (tracked, and new ones not ignored) in a
// temp folder, `npm ci --omit=dev` there, then the installed server answers an SDK client. The
// install runs `--offline`, from npm's cache only: a test never reaches the network. Where the
// cache lacks a package (no `npm install` ran on this machine) the test is skipped and says so.

import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ROOT } from './helpers.js';

const copy = mkdtempSync(join(tmpdir(), 'flowguard-install-'));
// node_modules of a full install: removing it takes a while on a busy machine.
afterAll(() => rmSync(copy, { recursive: true, force: true }), 120_000);

/** What npm says when a package is not in its cache and `--offline` forbids fetching it. */
const NOT_CACHED = /ENOTCACHED|cache mode is 'only-if-cached'/;

function copyRepository(): void {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  for (const file of listed.split('\0')) {
    // A tracked file deleted in the working tree is not part of it.
    if (file === '' || !statSync(join(ROOT, file), { throwIfNoEntry: false })?.isFile()) continue;
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(copy, file));
  }
}

/** Runs npm in the copy; resolves with its exit code and output (bounded by `ms`). */
function npm(args: string[], ms: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', args, { cwd: copy, env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

it('installs with npm ci --omit=dev (building dist/ without dev dependencies) and serves from the installed copy', async (context) => {
  copyRepository();
  expect(existsSync(join(copy, 'dist'))).toBe(false);

  const install = await npm(['ci', '--omit=dev', '--offline'], 240_000);
  if (install.code !== 0 && NOT_CACHED.test(install.output)) {
    context.skip(`npm ci --omit=dev --offline cannot resolve every package from npm's cache on this machine (run npm install once); skipped rather than reaching the network`);
  }
  expect(install.code, install.output.slice(-3000)).toBe(0);
  // Built by `prepare` from the production dependencies alone; dev dependencies are not there.
  expect(existsSync(join(copy, 'dist', 'src', 'cli', 'main.js'))).toBe(true);
  expect(existsSync(join(copy, 'node_modules', 'vitest'))).toBe(false);

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(copy, 'bin', 'flowguard.js'), 'serve', '--schemas', 'schemas', '--project', '.'],
    cwd: copy,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'install-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
  } finally {
    await client.close();
  }
}, 300_000);
