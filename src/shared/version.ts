// flowguard's own version, from its package.json: the CLI prints it, the MCP server announces
// it, and the check cache keys on it. Found upward from this file, which runs from src/ or dist/src/.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from './deps.js';

export const flowguardVersion = once((): string => {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dirname(dir) !== dir; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'flowguard' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // not here; one folder up
    }
  }
  return '0.0.0';
});
