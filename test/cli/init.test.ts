// `flowguard init` as an author runs it: the command run in-process (test/kit/cli.ts), real files.
// The scaffold validates with no finding at all, dry-runs to the URL its route describes, and
// an existing file is never overwritten without --force.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runFlowguard } from '../kit/cli.js';

const work = mkdtempSync(join(tmpdir(), 'flowguard-init-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function flowguard(args: string[], cwd = work) {
  return runFlowguard(args, { cwd: cwd });
}

describe('flowguard init', () => {
  it('writes a schema that validates with no finding and dry-runs to the request its route describes', async () => {
    const project = join(work, 'fresh');
    const init = await flowguard(['init', 'fresh', '--namespace', 'acme', '--root', 'https://api.acme.test/v2']);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(`wrote ${join('fresh', 'schemas', 'acme', 'things.mjs')}`);
    expect(init.stdout).toContain('  flowguard call acme_getThing --arg id=1 --dry-run');
    expect(init.stdout).not.toContain('npx');
    // The guide it points to is a file the author can open, not a page of some other checkout.
    const guide = /the authors' guide explains every field: (.+)$/m.exec(init.stdout)?.[1] ?? '';
    expect(existsSync(guide), init.stdout).toBe(true);

    const validate = await flowguard(['validate', '--json'], project);
    expect(validate.code).toBe(0);
    const report = JSON.parse(validate.stdout) as {
      summary: { files: number; error: number; warning: number; info: number };
    };
    expect(report.summary).toMatchObject({ files: 1, error: 0, warning: 0, info: 0 });

    const call = await flowguard(['call', 'acme_getThing', '--arg', 'id=42', '--dry-run', '--json'], project);
    expect(call.code).toBe(0);
    expect(JSON.parse(call.stdout)).toMatchObject({
      ok: true,
      dryRun: { method: 'GET', url: 'https://api.acme.test/v2/things/42?lang=en' },
    });
    // No config is written: a project runs on the defaults, and an existing config is the operator's.
    expect(existsSync(join(project, '.flowmcp'))).toBe(false);
  });

  it('refuses to overwrite an existing schema file, and replaces it with --force', async () => {
    const file = join(work, 'taken', 'schemas', 'example', 'things.mjs');
    mkdirSync(join(work, 'taken', 'schemas', 'example'), { recursive: true });
    writeFileSync(file, '// mine\n');
    const refused = await flowguard(['init', 'taken']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `${join('taken', 'schemas', 'example', 'things.mjs')} already exists; nothing was written (--force replaces it)`,
    );
    expect(readFileSync(file, 'utf8')).toBe('// mine\n');

    const forced = await flowguard(['init', 'taken', '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain("namespace: 'example'");
  });

  it('a folder that cannot be written is a usage error with its code, not an error without one', async () => {
    // A file where the schemas folder would go: no folder can be made through it.
    mkdirSync(join(work, 'blocked'));
    writeFileSync(join(work, 'blocked', 'schemas'), 'not a folder\n');
    const refused = await flowguard(['init', 'blocked']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^flowguard: ERR001 ${join('blocked', 'schemas', 'example', 'things.mjs')} cannot be written: E[A-Z]+`,
      ),
    );
  });

  it('writes into the working directory by default and names no cd step', async () => {
    const here = join(work, 'here');
    mkdirSync(here);
    const init = await flowguard(['init'], here);
    expect(init.code).toBe(0);
    expect(init.stdout).not.toContain('cd ');
    expect(existsSync(join(here, 'schemas', 'example', 'things.mjs'))).toBe(true);
  });

  it.each([
    [['--namespace', 'Acme-1'], '--namespace "Acme-1": use lowercase letters only'],
    [['--root', 'http://api.acme.test'], '--root "http://api.acme.test": use an https URL'],
    [['--root', 'https://api.acme.test/'], 'without query, fragment or trailing slash'],
    // Each would end the string the scaffold writes the root in: a file that does not load.
    [['--root', 'https://api.acme.test/v1\\'], 'without query, fragment or trailing slash'],
    [['--root', 'https://api.acme.test/v1\nx'], 'without query, fragment or trailing slash'],
    [['--root', "https://api.acme.test/v1'"], 'without query, fragment or trailing slash'],
  ])('is a usage error (exit 2) for %j and writes nothing', async (flags, message) => {
    const init = await flowguard(['init', 'bad', ...flags]);
    expect(init.code).toBe(2);
    expect(init.stderr).toContain(message);
    expect(existsSync(join(work, 'bad'))).toBe(false);
  });
});
