// `flowguard migrate <paths...>`: writes a FlowMCP 2.0.0 file for every 1.2.0 schema file among
// the paths (folders recursively), then checks each new file exactly as `validate` would. Files
// that are not 1.2.0 are skipped; an existing file is never overwritten without --force.

import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { Command } from 'commander';
import { selectSchemaFiles } from '../scan/files.js';
import { ProjectChecker } from '../project/checker.js';
import { countBySeverity, hasErrors, type Finding } from '../report/findings.js';
import type { FileMigration } from '../migrate/migrate-file.js';
import { formatFinding } from '../report/format.js';
import { plural } from '../shared/plural.js';
import { projectOptions, requireListsFolder, type ProjectFlags } from './shared.js';
import { UsageError } from '../errors/flowguard-error.js';
import { cli } from './io.js';

interface MigrateFlags extends ProjectFlags {
  out?: string;
  force?: boolean;
  json?: boolean;
}

interface MigratedFile extends FileMigration {
  /** The check of the new file, as `validate` reports it. */
  check: Finding[];
}

export function registerMigrate(program: Command): void {
  projectOptions(
    program
      .command('migrate')
      .description(
        'write a FlowMCP 2.0.0 file for each 1.2.0 schema file, then check it; exit 1 if anything needs a person',
      )
      .argument('<paths...>', '1.2.0 schema files or folders')
      .option(
        '--out <dir>',
        `write the new files under this folder, mirroring the paths (default: next to each file, as <name>.v2.mjs)`,
      )
      .option('--force', 'overwrite files that already exist')
      .option('--json', 'print machine-readable results'),
  ).action((paths: string[], flags: MigrateFlags) => runMigrate(paths, flags));
}

async function runMigrate(paths: string[], flags: MigrateFlags): Promise<void> {
  // Loaded when the command runs (program.ts).
  const { besideLegacy, migrateFile } = await import('../migrate/migrate-file.js');
  const inputs = selectInputs(paths);
  if (flags.out !== undefined && existsSync(flags.out) && !statSync(flags.out).isDirectory())
    throw new UsageError(`--out ${flags.out} is not a folder`);
  requireListsFolder(flags);
  // Each new file is checked as `validate` checks it: the same project checker.
  const checker = ProjectChecker.open(flags);
  const { maxFileBytes } = checker.config.limits;

  const migrated: MigratedFile[] = [];
  const skipped: string[] = [];
  for (const { file, base } of inputs) {
    const output = flags.out === undefined ? besideLegacy(file) : join(flags.out, relative(base, file));
    const migration = migrateFile(file, output, { force: flags.force, maxFileBytes });
    if (!migration.legacy) skipped.push(file);
    else migrated.push({ ...migration, check: migration.written ? checker.checkFile(output).findings : [] });
  }
  cli().stdout.write(
    `${flags.json ? JSON.stringify({ summary: summarize(migrated, skipped), files: migrated, skipped }, null, 2) : humanReport(migrated, skipped)}\n`,
  );
  cli().exitCode = migrated.some((entry) => hasErrors(entry.findings) || hasErrors(entry.check)) ? 1 : 0;
}

/** Every `.mjs` file of the paths, with the folder its place under --out is taken from. */
function selectInputs(paths: readonly string[]): Array<{ file: string; base: string }> {
  const inputs: Array<{ file: string; base: string }> = [];
  for (const path of paths) {
    const { files, missing } = selectSchemaFiles([path]);
    if (missing.length > 0) throw new UsageError(`no such file or folder: ${path}`);
    const base = statSync(path).isDirectory() ? path : dirname(path);
    for (const file of files) if (!inputs.some((input) => input.file === file)) inputs.push({ file, base });
  }
  if (inputs.length === 0) throw new UsageError(`no .mjs files under ${paths.join(', ')}`);
  return inputs;
}

function summarize(migrated: readonly MigratedFile[], skipped: readonly string[]) {
  const written = migrated.filter((entry) => entry.written);
  return {
    legacyFiles: migrated.length,
    written: written.length,
    validWithoutErrors: written.filter((entry) => !hasErrors(entry.check)).length,
    skipped: skipped.length,
    ...countBySeverity(migrated.flatMap((entry) => [...entry.findings, ...entry.check])),
  };
}

function humanReport(migrated: readonly MigratedFile[], skipped: readonly string[]): string {
  const lines: string[] = [];
  for (const entry of migrated) {
    const routes = `${plural(entry.routes, 'route')}, ${entry.routesWithHandlers} with handlers`;
    lines.push(entry.written ? `migrated ${entry.file} -> ${entry.output} (${routes})` : `not migrated ${entry.file}`);
    for (const finding of [...entry.findings, ...entry.check]) {
      lines.push(`  ${formatFinding(finding)}`);
      if (finding.hint) lines.push(`      hint: ${finding.hint}`);
    }
  }
  const s = summarize(migrated, skipped);
  lines.push(
    `${plural(s.legacyFiles, 'legacy file')}: ${s.written} written, ${s.validWithoutErrors} of them valid without errors; ` +
      `${plural(s.error, 'error')}, ${plural(s.warning, 'warning')}, ${s.info} info; ${plural(s.skipped, 'other file')} skipped (not FlowMCP 1.2.0)`,
  );
  return lines.join('\n');
}
