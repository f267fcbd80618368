// flowguard's own version, installation folder and oldest Node.js, from its package.json: the CLI prints the
// version (and doctor judges Node.js by the engines field npm judges it by), the MCP server announces it, and the check cache keys on it; `serve` names the
// installed launcher by path, the sandbox its worker's script. Found upward from this file,
// which runs from src/ (tests), dist/src/ or one of the bundles in dist/bundle/.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from './deps.js';

const installation = once((): { root: string; version: string; node?: string } | null => {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dirname(dir) !== dir; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
        engines?: { node?: string };
      };
      if (pkg.name === 'flowguard' && typeof pkg.version === 'string')
        return { root: dir, version: pkg.version, node: pkg.engines?.node };
    } catch {
      // not here; one folder up
    }
  }
  return null;
});

export const flowguardVersion = (): string => installation()?.version ?? '0.0.0';

/** The oldest Node.js flowguard runs on, as package.json's `engines` says (`>=20.18.1`: `20.18.1`). */
export const minimumNode = (): string => /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(installation()?.node ?? '')?.[1] ?? '0';

/** The absolute path of the installed `bin/flowguard.js` (beside package.json). */
export function flowguardBin(): string {
  return installedFile('bin', 'flowguard.js');
}

/** A file of the installation by its path below the folder of package.json. */
export function installedFile(...steps: string[]): string {
  return join(installation()?.root ?? process.cwd(), ...steps);
}
