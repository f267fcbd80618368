// Finds an allowlisted library: a Node built-in that only computes, or a package on disk, first
// in the project's own node_modules (where a maintainer installs what they added to the
// allowlist), then among flowguard's dependencies.

import { readFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { shellWord } from '../shared/shell-word.js';

/**
 * How a sandbox worker loads a library, as Node itself would: `module` by `import()`;
 * `commonjs` (native `.node` addons among them, which Node's ESM loader refuses) by `require`;
 * `builtin` by `require('node:name')`.
 */
export type LibraryFormat = 'module' | 'commonjs' | 'builtin';

/** An allowlisted library found: a sandbox worker loads it the first time a unit needs it, then shares it frozen. */
export interface LibraryModule {
  name: string;
  /** A file URL; `node:name` for a built-in. */
  url: string;
  format: LibraryFormat;
}

/**
 * The built-ins handlers may be given when a maintainer allowlists them: functions that only
 * compute and return data (the sandbox hands over their functions and constants, never their
 * classes). Every other built-in stays out whatever the allowlist says (builtinRefusal): those
 * with host authority (files, processes, network, workers, the module loader), and those whose
 * results are objects of Node's own mutable classes (crypto's hashes, events' emitters).
 */
const COMPUTING_BUILTINS: ReadonlySet<string> = new Set(['path', 'punycode', 'querystring', 'zlib']);

export function resolveLibrary(name: string, projectDir: string): LibraryModule | null {
  if (isBuiltin(name)) return COMPUTING_BUILTINS.has(name) ? { name, url: `node:${name}`, format: 'builtin' } : null;
  for (const from of [join(resolve(projectDir), 'package.json'), import.meta.url]) {
    try {
      const file = createRequire(from).resolve(name);
      return { name, url: pathToFileURL(file).href, format: isCommonJs(file) ? 'commonjs' : 'module' };
    } catch {
      // not installed there; try the next place
    }
  }
  return null;
}

/**
 * The allowlisted libraries of `names` that handlers would be given but that are not installed
 * (a refused built-in is not missing: builtinRefusal says why it is never given).
 */
export function missingLibraries(names: readonly string[], projectDir: string): string[] {
  return names.filter((name) => builtinRefusal(name) === null && resolveLibrary(name, projectDir) === null);
}

/**
 * The command that installs libraries where resolveLibrary looks first, the project folder's
 * own node_modules: flowguard ships only some of its default allowlist (docs/operators/serving.md
 * says which and why), the rest is the operator's to add.
 */
export function installCommand(names: readonly string[], projectDir: string): string {
  const prefix = resolve(projectDir) === process.cwd() ? '' : `--prefix ${shellWord(projectDir)} `;
  return `npm install ${prefix}${names.map(shellWord).join(' ')}`;
}

/** Why an allowlisted name is never handed to handlers (a built-in with host authority); null when it may be. */
export function builtinRefusal(name: string): string | null {
  if (!isBuiltin(name) || COMPUTING_BUILTINS.has(name)) return null;
  return `'${name}' is a Node built-in that handlers never get, allowlisted or not: it has host authority or hands out Node's own mutable objects (built-ins they may get: ${[...COMPUTING_BUILTINS].join(', ')})`;
}

/** Node's own rule: .cjs, .node and .mjs say it, a .js file follows the nearest package.json `type`. */
function isCommonJs(file: string): boolean {
  if (file.endsWith('.cjs') || file.endsWith('.node')) return true;
  if (file.endsWith('.mjs')) return false;
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { type?: string };
      return pkg.type !== 'module';
    } catch {
      // No package.json here, or not JSON: look one folder up.
      if (dirname(dir) === dir) return true;
    }
  }
}
