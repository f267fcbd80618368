// The start-up summary of `serve` (src/cli/serve-summary.ts) counts what the catalog reports: schema
// files and list files apart, as the catalog read them, without walking the folders again.

import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { connectHelp, loadSummary, oauthConnectHelp } from '../../src/cli/serve-summary.js';

const ROOT = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'flowguard-summary-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('loadSummary', () => {
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
