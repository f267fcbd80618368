// Finds the schema files a command was pointed at: files as given, folders recursively.

import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';

export interface FileSelection {
  files: string[];
  /** Paths that do not exist: a usage error for the command. */
  missing: string[];
}

const SCHEMA_EXTENSION = '.mjs';
// Dependencies and hidden folders (.git, .flowmcp) never hold the catalog's schemas.
const SKIPPED_DIRS = new Set(['node_modules']);

export function selectSchemaFiles(paths: readonly string[]): FileSelection {
  const files: string[] = [];
  const missing: string[] = [];
  for (const path of paths) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch {
      // Not there (or not readable): reported as missing by the caller.
      missing.push(path);
      continue;
    }
    if (isDirectory) collect(path, files);
    // A file named on the command line is the operator's choice, a link to it included: read where it points.
    else files.push(lstatSync(path).isSymbolicLink() ? realpathSync(path) : path);
  }
  return { files: [...new Set(files)], missing };
}

function collect(dir: string, into: string[]): void {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  for (const entry of entries) {
    if (entry.name.startsWith('.') || SKIPPED_DIRS.has(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) collect(full, into);
    else if (entry.isFile() && entry.name.endsWith(SCHEMA_EXTENSION)) into.push(full);
  }
}

/** Whether `file` lies inside `dir`: a lists folder inside the schema folder holds lists, never schemas. */
export function isWithin(file: string, dir: string): boolean {
  const rest = relative(resolve(dir), resolve(file));
  return rest !== '' && !rest.startsWith('..') && !isAbsolute(rest);
}
