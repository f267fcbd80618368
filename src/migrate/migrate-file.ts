// One 1.2.0 file on disk migrated to a new file: read under the size limit (R13), converted,
// and written unless something is already there.

import { lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { FindingSink, hasErrors, type Finding } from '../report/findings.js';
import { readSourceFile } from '../scan/source-file.js';
import { migrateLegacyText } from './migrate.js';

export interface FileMigration {
  file: string;
  output: string;
  /** False for a file that is no 1.2.0 schema: nothing was written and nothing is reported. */
  legacy: boolean;
  written: boolean;
  routes: number;
  routesWithHandlers: number;
  /** About the 1.2.0 file: what needs a person, or why it could not be read or written. */
  findings: Finding[];
}

export interface MigrateFileOptions {
  /** Overwrite `output` when it exists. */
  force?: boolean;
  /** `limits.maxFileBytes`. */
  maxFileBytes?: number;
}

/** The default place of the new file: beside the old one, as `<name>.v2.mjs` (the reference's choice). */
export function besideLegacy(file: string): string {
  return file.replace(/\.mjs$/, '') + '.v2.mjs';
}

export function migrateFile(file: string, output: string, options: MigrateFileOptions = {}): FileMigration {
  const result: FileMigration = {
    file,
    output,
    legacy: true,
    written: false,
    routes: 0,
    routesWithHandlers: 0,
    findings: [],
  };
  const source = readSourceFile(file, options.maxFileBytes, 'SEC020');
  if (source.sink) return { ...result, findings: source.sink.findings };
  const migration = migrateLegacyText(file, source.text);
  const findings = migration.findings;
  // A file that parses and is not 1.2.0 is simply not this command's business.
  if (!migration.legacy && !hasErrors(findings)) return { ...result, legacy: false };
  Object.assign(result, { routes: migration.routes, routesWithHandlers: migration.routesWithHandlers, findings });
  if (migration.text === undefined) return result;
  // A link in the new file's place (a hostile folder can hold one, dangling) would carry the
  // write out of the folder: refused even with --force, and 'wx' refuses one made meanwhile.
  const existing = entryAt(output);
  if (existing === 'link' || (existing === 'file' && !options.force))
    return { ...result, findings: [...findings, ...refusedOutput(file, output, existing)] };
  mkdirSync(dirname(output), { recursive: true });
  try {
    writeFileSync(output, migration.text, { flag: existing === 'file' ? 'w' : 'wx' });
  } catch (error) {
    // EEXIST: something was made in the new file's place since it was looked at, refused as above.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { ...result, findings: [...findings, ...refusedOutput(file, output, 'link')] };
  }
  return { ...result, written: true };
}

/** What is at `path` without following a link: nothing, a symbolic link, or anything else. */
function entryAt(path: string): 'none' | 'link' | 'file' {
  try {
    return lstatSync(path).isSymbolicLink() ? 'link' : 'file';
  } catch {
    // Nothing there (or an unreadable folder, which the write will report).
    return 'none';
  }
}

function refusedOutput(file: string, output: string, existing: 'link' | 'file'): Finding[] {
  const sink = new FindingSink(file);
  if (existing === 'link')
    sink.addAt(
      'MIG007',
      undefined,
      `${output} is a symbolic link (or appeared while migrating); nothing was written`,
      'remove it, or choose another --out folder',
    );
  else
    sink.addAt(
      'MIG007',
      undefined,
      `${output} already exists; nothing was written`,
      'move it away, choose another --out folder, or pass --force to overwrite it',
    );
  return sink.findings;
}
