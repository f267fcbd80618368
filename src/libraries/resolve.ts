// Finds an allowlisted library on disk: first in the project's own node_modules (where a
// maintainer installs what they added to the allowlist), then among flowguard's dependencies.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** An allowlisted library found on disk: a sandbox worker imports it by file URL the first time a unit needs it, then shares frozen. */
export interface LibraryModule {
  name: string;
  url: string;
  /** CommonJS: the module's `module.exports` (its default export) is the library. */
  commonJs: boolean;
}

export function resolveLibrary(name: string, projectDir: string): LibraryModule | null {
  for (const from of [join(resolve(projectDir), 'package.json'), import.meta.url]) {
    try {
      const file = createRequire(from).resolve(name);
      return { name, url: pathToFileURL(file).href, commonJs: isCommonJs(file) };
    } catch {
      // not installed there; try the next place
    }
  }
  return null;
}

/** Node's own rule: .cjs and .mjs say it, a .js file follows the nearest package.json `type`. */
function isCommonJs(file: string): boolean {
  if (file.endsWith('.cjs')) return true;
  if (file.endsWith('.mjs')) return false;
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { type?: string };
      return pkg.type !== 'module';
    } catch {
      if (dirname(dir) === dir) return true;
    }
  }
}
