// A throwaway project folder for suites that load a catalog.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A temp folder standing for the project, with no .env. `config` becomes its
 * `.flowmcp/config.json` (none when omitted).
 */
export function tempProject(config?: unknown): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'flowguard-e2e-'));
  if (config !== undefined) {
    mkdirSync(join(dir, '.flowmcp'));
    writeFileSync(join(dir, '.flowmcp', 'config.json'), JSON.stringify(config));
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
