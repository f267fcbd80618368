// flowguard's own version and installation folder, from its package.json: the CLI prints the
// version, the MCP server announces it, and the check cache keys on it; `serve` names the
// installed launcher by path, the sandbox its worker's script. Found upward from this file,
// which runs from src/ (tests), dist/src/ or one of the bundles in dist/bundle/.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from './deps.js';

const installation = once((): { root: string; version: string } | null => {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dirname(dir) !== dir; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'flowguard' && typeof pkg.version === 'string') return { root: dir, version: pkg.version };
    } catch {
      // not here; one folder up
    }
  }
  return null;
});

export const flowguardVersion = (): string => installation()?.version ?? '0.0.0';

/** The absolute path of the installed `bin/flowguard.js` (beside package.json). */
export function flowguardBin(): string {
  return installedFile('bin', 'flowguard.js');
}

/** A file of the installation by its path below the folder of package.json. */
export function installedFile(...steps: string[]): string {
  return join(installation()?.root ?? process.cwd(), ...steps);
}
