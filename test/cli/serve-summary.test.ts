// The start-up summary of `serve` (src/cli/serve-summary.ts) counts what the catalog reports: schema
// files and list files apart, as the catalog read them, without walking the folders again.

import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { connectHelp, loadSummary, oauthConnectHelp } from '../../src/cli/serve-summary.js';
import { actsOnTerminal } from '../../src/report/format.js';

const ROOT = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'flowguard-summary-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('loadSummary', () => {
  // An eleventh review (held): a schema file's name is its author's; rejected, or hidden for a
  // key, it is named in the summary, which goes to the terminal serve was started from.
  it('names files whose names hold terminal escapes without anything that acts on the terminal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowguard-summary-hostile-'));
    const schemas = join(dir, 'schemas');
    mkdirSync(join(schemas, 'keyed'), { recursive: true });
    const name = 'e\u001b]0;pwned\u0007\u009b2J\u202evil.mjs';
    writeFileSync(join(schemas, name), 'export const main = { namespace: 1 };\n');
    writeFileSync(
      join(schemas, 'keyed', name),
      `export const main = { namespace: 'keyed', name: 'K', description: 'K.', version: '2.0.0', root: 'https://api.k.test', requiredServerParams: ['K_KEY'],
  routes: { getIt: { method: 'GET', path: '/it', description: 'It.', parameters: [], tests: [{ _description: 'x' }] } } };\n`,
    );
    const catalog = await Catalog.load({ schemas, project: dir, env: {} });
    try {
      const summary = loadSummary(catalog);
      expect(summary).toContain('1 rejected');
      expect(summary).toContain('e\\x1b]0;pwned');
      expect([...summary].filter((char) => actsOnTerminal(char))).toEqual([]);
    } finally {
      await catalog.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // Served with `--schemas .`, the lists folder lies inside the schema folder; its files once
  // counted as schema files.
  it('counts the list files a schema reached as list files when the lists sit below the schemas', async () => {
    for (const folder of ['etherscan', 'wttr'])
      cpSync(join(ROOT, 'schemas', folder), join(work, 'schemas', folder), { recursive: true });
    cpSync(join(ROOT, 'shared-lists'), join(work, 'shared-lists'), { recursive: true });
    const catalog = await Catalog.load({ schemas: work, project: work, env: {} });
    try {
      expect(loadSummary(catalog).split('\n')[0]).toBe(
        'flowguard: 2 schema files: 2 loaded, 0 rejected; 2 tools served, 4 hidden; 1 list file, 0 rejected',
      );
    } finally {
      await catalog.close();
    }
  });
});

describe('the serving line', () => {
  const url = 'http://127.0.0.1:8080/mcp';
  const flags = { schemas: 'schemas', project: '.' };
  const firstLines = (served: number) => [
    connectHelp(url, served, flags, false).split('\n')[0],
    connectHelp(url, served, flags, true).split('\n')[0],
    oauthConnectHelp(url, served, flags, { issuer: 'https://auth.example', resource: url }).split('\n')[0],
  ];

  it('counts one tool in the singular, none and two in the plural, with or without a token', () => {
    for (const [served, counted] of [
      [0, '0 tools'],
      [1, '1 tool'],
      [2, '2 tools'],
    ] as const)
      for (const line of firstLines(served))
        expect(line).toMatch(new RegExp(`^flowguard: serving ${counted} at ${url} \\(`));
  });
});
