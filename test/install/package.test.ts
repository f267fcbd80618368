// flowguard installed where people work: the project is packed as `npm pack` packs it (built at
// pack time), and the tarball is installed, offline, globally into a fresh prefix and as a dev
// dependency of a fresh folder. The installed `flowguard` command then runs the authors' guide's
// first steps in a folder of its own: init, validate, call --dry-run, and serve answering
// tools/list to the SDK client. Nothing is rebuilt at install time and no build tool is installed.
//
// The pack runs in a copy of the repository's files (tracked, and new ones not ignored) that
// has a copy of this checkout's node_modules, so that packing (which first deletes dist/src) never
// touches the dist/ the other suites run from.

import { execFile, execFileSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const ROOT = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'flowguard-pack-'));
const copy = join(work, 'copy');
const prefix = join(work, 'prefix');
const folder = join(work, 'own-folder');
const project = join(work, 'places');
/** The command a global install gives. */
const FLOWGUARD = join(prefix, 'bin', 'flowguard');
// Installed dependencies: removing them takes a while on a busy machine.
afterAll(() => rmSync(work, { recursive: true, force: true }), 120_000);

const run = promisify(execFile);
const NPM_ENV = {
  ...process.env,
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

/** Runs npm, bounded; its output either way (a failure's output is the assertion message). */
async function npm(args: string[], cwd: string): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout, stderr } = await run('npm', args, { cwd, env: NPM_ENV, timeout: 240_000, maxBuffer: 64 << 20 });
    return { ok: true, output: stdout + stderr };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    return { ok: false, output: `${failed.message}\n${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

/** Runs the installed command in the project folder; exit code and output. */
async function flowguard(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(FLOWGUARD, args, { cwd: project, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

function copyRepository(): void {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  for (const file of listed.split('\0')) {
    // A tracked file deleted in the working tree is not part of it.
    if (file === '' || !statSync(join(ROOT, file), { throwIfNoEntry: false })?.isFile()) continue;
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(copy, file));
  }
  // A copy, not a symlink: npm pack follows a linked node_modules out of the package and bundles
  // paths outside it (seen on a fresh clone: half the bundled files, ajv without its dependencies).
  cpSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), { recursive: true, verbatimSymlinks: true });
}

let tarball = '';
let installs: { global: { ok: boolean; output: string }; local: { ok: boolean; output: string } };

beforeAll(async () => {
  copyRepository();
  const packed = await npm(['pack', '--pack-destination', work], copy);
  expect(packed.ok, packed.output.slice(-3000)).toBe(true);
  tarball = join(work, readdirSync(work).find((name) => name.endsWith('.tgz')) ?? 'missing.tgz');
  mkdirSync(folder);
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'own-folder', version: '1.0.0', private: true }));
  // Both offline: what the tarball needs must be in it or in this machine's npm cache.
  const [global, local] = await Promise.all([
    npm(['install', '--global', '--prefix', prefix, '--offline', tarball], work),
    npm(['install', '--save-dev', '--offline', tarball], folder),
  ]);
  installs = { global, local };
  mkdirSync(project);
}, 600_000);

it('packs dist/ built at pack time, and installs offline without build tools or a rebuild', () => {
  expect(installs.global.ok, installs.global.output.slice(-3000)).toBe(true);
  expect(installs.local.ok, installs.local.output.slice(-3000)).toBe(true);
  for (const installed of [
    join(prefix, 'lib', 'node_modules', 'flowguard'),
    join(folder, 'node_modules', 'flowguard'),
  ]) {
    expect(existsSync(join(installed, 'dist', 'bundle', 'cli.js')), installed).toBe(true);
    // The sandbox worker is found from the installation root.
    expect(existsSync(join(installed, 'dist', 'src', 'sandbox', 'worker.js')), installed).toBe(true);
    // No build tool came with it: TypeScript and esbuild are the checkout's dev dependencies.
    for (const tool of ['typescript', 'esbuild', 'vitest']) {
      expect(existsSync(join(installed, 'node_modules', tool)), `${installed} ${tool}`).toBe(false);
      expect(existsSync(join(dirname(installed), tool)), `${installed} ${tool}`).toBe(false);
    }
  }
});

it("runs the guide's first steps with the installed command in a folder of one's own", async () => {
  const init = await flowguard(['init', '--namespace', 'zippopotam', '--root', 'https://api.zippopotam.us']);
  expect(init.code, init.stderr).toBe(0);
  // The next steps it prints are the command this install gives, not a registry lookup.
  expect(init.stdout).toContain('  flowguard validate');
  expect(init.stdout).not.toContain('npx');
  // The guide it names ships in the package: the path opens in the installed copy.
  const guide = /the authors' guide explains every field: (.+)$/m.exec(init.stdout)?.[1] ?? '';
  expect(guide.startsWith(join(prefix, 'lib', 'node_modules', 'flowguard')), init.stdout).toBe(true);
  expect(existsSync(guide), init.stdout).toBe(true);

  const validate = await flowguard(['validate']);
  expect(validate.code, validate.stdout + validate.stderr).toBe(0);

  // A code is explained where it was printed, and the page named opens in the installed copy.
  const explain = await flowguard(['explain', 'VAL032']);
  expect(explain.code, explain.stderr).toBe(0);
  const page = /^ {2}more: (.+)$/m.exec(explain.stdout)?.[1] ?? '';
  expect(page.startsWith(join(prefix, 'lib', 'node_modules', 'flowguard')), explain.stdout).toBe(true);
  expect(existsSync(page), explain.stdout).toBe(true);

  // A dry run needs no key and reaches no network.
  const dryRun = await flowguard(['call', 'zippopotam_getThing', '--arg', 'id=1', '--dry-run']);
  expect(dryRun.code, dryRun.stderr).toBe(0);
  expect(dryRun.stdout).toContain('https://api.zippopotam.us/things/1');

  const transport = new StdioClientTransport({ command: FLOWGUARD, args: ['serve'], cwd: project, stderr: 'ignore' });
  const client = new Client({ name: 'install-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('zippopotam_getThing');
  } finally {
    await client.close();
  }
}, 120_000);

// The README's way to the catalog `npm start` serves in a checkout, run as written against the
// global install (npm's prefix is the test's), then loaded by the installed command.
it('copies the bundled catalog out of the install as the README says, and every file of it loads', async () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block =
    readme
      .split('\n## Installing flowguard for your own folder\n')[1]
      ?.split('\n## ')[0]
      ?.split('```sh\n')
      .find((part) => part.includes('npm root --global'))
      ?.split('```')[0] ?? '';
  const lines = block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
  expect(lines).toHaveLength(3);
  expect(lines[2]).toMatch(/^flowguard serve /);
  const env = { ...NPM_ENV, npm_config_prefix: prefix, PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}` };
  await run('sh', ['-ec', lines.slice(0, 2).join('\n')], { cwd: work, env, timeout: 60_000 });
  const { stdout } = await run(FLOWGUARD, ['list'], { cwd: join(work, 'catalog'), env, timeout: 60_000 });
  expect(stdout).toMatch(/^\d+ tools: \d+ served, \d+ hidden; 0 files rejected$/m);
  expect(stdout).toMatch(/^wttr_getWeatherLine .* served$/m);
}, 120_000);

it("gives a dev dependency's folder the same command", async () => {
  const { stdout } = await run(
    join(folder, 'node_modules', '.bin', 'flowguard'),
    ['validate', join(project, 'schemas')],
    { cwd: folder, timeout: 60_000 },
  );
  expect(stdout).toMatch(/1 file/);
}, 60_000);
