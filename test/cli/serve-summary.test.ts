// The start-up summary of `serve` (src/cli/serve-summary.ts) counts what the catalog reports: schema
// files and list files apart, as the catalog read them, without walking the folders again.

import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { loadSummary } from '../../src/cli/serve-summary.js';

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
