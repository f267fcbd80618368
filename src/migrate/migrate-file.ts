// One 1.2.0 file on disk migrated to a new file: read under the size limit (R13), converted,
// and written unless something is already there.

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
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
  if (existsSync(output) && !options.force) {
    const sink = new FindingSink(file);
    sink.addAt(
      'MIG007',
      undefined,
      `${output} already exists; nothing was written`,
      'move it away, choose another --out folder, or pass --force to overwrite it',
    );
    return { ...result, findings: [...findings, ...sink.findings] };
  }
  mkdirSync(dirname(output), { recursive: true });
  writeFileSync(output, migration.text);
  return { ...result, written: true };
}
