// The library allowlist (spec chapter 05): the defaults below, extended (never replaced) by
// `security.allowedLibraries` in `.flowmcp/config.json`. Names are exact package names.

import { childPath, type FindingSink } from '../report/findings.js';

export const DEFAULT_ALLOWED_LIBRARIES: readonly string[] = [
  'ethers',
  'moment',
  'indicatorts',
  '@erc725/erc725.js',
  'ccxt',
  'axios',
];

/** An npm package name, optionally scoped; no subpath, no version, no `..`. */
export const PACKAGE_NAME_PATTERN = '^(?!.*\\.\\.)(?:@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$';
const PACKAGE_NAME = new RegExp(PACKAGE_NAME_PATTERN);

function isExactPackageName(name: string): boolean {
  return PACKAGE_NAME.test(name);
}

export function effectiveAllowlist(extra: readonly string[]): ReadonlySet<string> {
  return new Set([...DEFAULT_ALLOWED_LIBRARIES, ...extra]);
}

/** Checks `main.requiredLibraries` (already known to be an array of strings) against the allowlist. */
export function checkRequiredLibraries(
  names: readonly string[],
  allowed: ReadonlySet<string>,
  sink: FindingSink,
): void {
  names.forEach((name, index) => {
    const path = childPath('main.requiredLibraries', index);
    if (!isExactPackageName(name)) {
      sink.add(
        'VAL026',
        path,
        `'${name}' is not an exact package name`,
        'name the package only: no subpath, version or relative path',
      );
    } else if (!allowed.has(name)) {
      sink.add(
        'SEC013',
        path,
        `library '${name}' is not on the allowlist`,
        `a maintainer can add it to security.allowedLibraries in .flowmcp/config.json`,
      );
    }
  });
}
