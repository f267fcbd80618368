// The README is the front door: short, with the two commands that set everything up first, and
// nothing in it a user cannot act on. The reference it used to hold lives in docs/ (checked by
// test/docs/); the security model's promises, kept in docs/security.md, are checked here.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

it('starts with the set-up, main-job and test commands', () => {
  const firstBlock = readme.split('```')[1] ?? '';
  expect(firstBlock).toContain('npm install && npm start');
  expect(firstBlock).toContain('npm install && npm test');
  const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
  expect(scripts.start).toMatch(/^node bin\/flowguard\.js serve\b/);
  expect(scripts.test).toBe('vitest run');
});

it('is at most 250 lines', () => {
  expect(readme.split('\n').length).toBeLessThanOrEqual(250);
});

// Source paths and internal names mean nothing to a user; a test folder appears only in a
// command the user runs. Issue numbers and the old rulings document are not the user's either.
it('names no source file, no test file outside a command, no issue and no ruling', () => {
  expect(readme.match(/\bsrc\/[\w/.-]*/g) ?? []).toEqual([]);
  const testPaths = readme
    .split('\n')
    .filter((line) => /\btest\/[\w/.-]*/.test(line) && !/`npx vitest run test\/[\w/.-]*`/.test(line));
  expect(testPaths).toEqual([]);
  expect(readme).not.toMatch(/\bissue \d+|RULINGS|\bR\d{1,2}\b/);
});

it('reaches install, serve, writing a schema, granting a key and deploying from its documentation map', () => {
  const map = readme.split('\n## Documentation\n')[1]?.split('\n## ')[0] ?? '';
  const targets = [...map.matchAll(/\]\(([^)#]+)(#[^)]*)?\)/g)].map((m) => m[1] as string);
  for (const page of [
    'docs/authors/README.md',
    'docs/operators/serving.md',
    'docs/operators/access.md',
    'docs/operators/deploying.md',
    'docs/reference/cli.md',
    'docs/reference/configuration.md',
    'docs/reference/findings.md',
    'docs/security.md',
    'CHANGELOG.md',
  ]) {
    expect(targets, page).toContain(page);
  }
  expect(map).toContain('(#installing-flowguard-for-your-own-folder)');
});

it('names, for every promise of the security model, test files that exist', () => {
  const page = read('docs/security.md');
  const promises = page.split(/\n(?=\d+\. \*\*)/).filter((part) => /^\d+\. \*\*/.test(part));
  expect(promises.length).toBeGreaterThanOrEqual(8);
  for (const promise of promises) {
    const files = [...promise.matchAll(/`(test\/[\w/.-]+\.test\.ts)`/g)].map((m) => m[1] as string);
    expect(files.length, promise.slice(0, 60)).toBeGreaterThan(0);
    for (const file of files) expect(existsSync(join(ROOT, file)), file).toBe(true);
  }
});

it('names every kind of tool error a client can meet, output-mismatch among them', () => {
  const pipeline = read('src/call/outcome.ts');
  const kinds = [...(/type ToolErrorKind =([^;]+);/.exec(pipeline)?.[1] ?? '').matchAll(/'([a-z-]+)'/g)].map(
    (m) => m[1] as string,
  );
  expect(kinds.length).toBeGreaterThan(8);
  const pages = read('docs/reference/commands.md') + read('docs/operators/serving.md');
  for (const kind of [...kinds, 'output-mismatch']) expect(pages, kind).toContain(`\`${kind}\``);
});

// The quick start is run as written, with the checkout's command standing in for the installed
// one: each line must succeed, and the last must serve. No network: the dry run sends nothing,
// and the server is stopped once it says where it serves.
it('runs the quick start as written', async () => {
  const block = readme.split('\n## Quick start\n')[1]?.split('```sh\n')[1]?.split('```')[0] ?? '';
  const lines = block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
  expect(lines).toHaveLength(5);
  expect(lines.every((line) => /(^|&& )flowguard /.test(line))).toBe(true);
  const work = mkdtempSync(join(tmpdir(), 'flowguard-quick-start-'));
  try {
    const bin = join(work, 'bin');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'flowguard'),
      `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'flowguard.js')}" "$@"\n`,
      { mode: 0o755 },
    );
    const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` };
    const steps = spawnSync('sh', ['-ec', lines.slice(0, 4).join('\n')], {
      cwd: work,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(steps.status, steps.stdout + steps.stderr).toBe(0);
    expect(steps.stdout).toContain('GET https://api.zippopotam.us/');
    expect(steps.stdout).toMatch(/1 tool: 1 served/);

    const serve = spawn('sh', ['-c', `exec ${lines[4]} --port 0`], {
      cwd: join(work, 'places'),
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise((resolveExit) => serve.on('exit', resolveExit));
    let stderr = '';
    const serving = await new Promise<boolean>((resolveServing) => {
      serve.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/serving 1 tool at http:\/\/127\.0\.0\.1:\d+\/mcp/.test(stderr)) resolveServing(true);
      });
      serve.on('exit', () => resolveServing(false));
    });
    serve.kill('SIGTERM');
    await exited;
    expect(serving, stderr).toBe(true);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}, 180_000);
