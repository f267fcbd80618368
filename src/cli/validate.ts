// `flowguard validate [paths...]`: every problem of every schema file, in one pass, without
// running any of the schemas' code. The files are checked by the project checker a catalog
// loads with (project/checker.ts), against the same config and shared lists.

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { listsFolderOf, ProjectChecker } from '../project/checker.js';
import { missingLibraries, installCommand } from '../libraries/resolve.js';
import { hasErrors, isError, type Finding } from '../report/findings.js';
import { CODES } from '../report/codes.js';
import { formatHuman, formatJson, type FileReport } from '../report/format.js';
import { selectSchemaFiles } from '../scan/files.js';
import type { SchemaCheck } from '../schema/check.js';
import {
  DEFAULT_SCHEMAS,
  displayPath,
  missingSchemas,
  projectOptions,
  requireListsFolder,
  type ProjectFlags,
} from './shared.js';
import { UsageError } from '../errors/flowguard-error.js';
import { cli } from './io.js';

interface ValidateOptions extends ProjectFlags {
  json?: boolean;
  quiet?: boolean;
}

// Below this many files a run is over before a progress line would help.
const PROGRESS_THRESHOLD = 50;

export function registerValidate(program: Command): void {
  projectOptions(
    program
      .command('validate')
      .description('scan and validate schema files or folders (recursively); exit 1 if any has an error')
      .argument('[paths...]', 'schema files or folders', [DEFAULT_SCHEMAS])
      .option('--json', 'print machine-readable findings')
      .option('--quiet', 'print errors only'),
  ).action((paths: string[], options: ValidateOptions) => runValidate(paths, options));
}

function runValidate(paths: string[], options: ValidateOptions): void {
  const { files, missing } = selectSchemaFiles(paths);
  if (missing.length > 0)
    throw missingSchemas(`no such file or folder: ${missing.join(', ')}`, missing.join(), '`flowguard validate <dir>`');
  if (files.length === 0) throw new UsageError(`no .mjs schema files under ${paths.join(', ')}`);
  requireListsFolder(options);
  // Files are named as the user would type them, list files too.
  const checker = ProjectChecker.open({ project: options.project, lists: displayPath(listsFolderOf(options)) });
  // Every list file is checked, used or not: validate is the author's gate.
  checker.checkEveryList();
  const schemaFiles = files.filter((file) => !checker.isListFile(file));
  const progress = progressLine(schemaFiles.length);
  const results = checker
    .checkFiles(schemaFiles.map(displayPath), progress.update)
    .map((result) => withMissingLibraries(result, options.project));
  progress.done();
  const reports = [...listReports(checker, files), ...results];
  const quiet = options.quiet === true;
  cli().stdout.write(
    `${options.json ? formatJson(reports) : `${formatHuman(reports, quiet ? 'error' : 'info')}${explainLine(reports, quiet)}`}\n`,
  );
  cli().exitCode = reports.some((report) => hasErrors(report.findings)) ? 1 : 0;
}

/** Where a printed code is explained, naming the first code printed; nothing when none was. */
function explainLine(reports: readonly FileReport[], quiet: boolean): string {
  const findings = reports.flatMap((report) => report.findings);
  const first = quiet ? findings.find(isError) : findings[0];
  return first
    ? `\n\`flowguard explain ${first.code}\` (or any code above) says why the rule exists and how to fix it`
    : '';
}

/**
 * The check reads a file without loading it, so it cannot see that a library its handlers need
 * is allowlisted but not installed; `serve` would then reject the file (SEC103). Said here, with
 * the command that installs it, so the author learns it before the operator does.
 */
function withMissingLibraries(result: SchemaCheck, project: string): SchemaCheck {
  if (!result.schema?.handlers) return result;
  const missing = missingLibraries(result.schema.requiredLibraries, project);
  if (missing.length === 0) return result;
  const finding: Finding = {
    code: 'SEC103',
    severity: CODES.SEC103.severity,
    file: result.file,
    path: 'main.requiredLibraries',
    message: `required librar${missing.length === 1 ? 'y' : 'ies'} ${missing.join(', ')} allowlisted but not installed: serve rejects this file until ${missing.length === 1 ? 'it is' : 'they are'}`,
    hint: `install ${missing.length === 1 ? 'it' : 'them'} into the project: ${installCommand(missing, project)}`,
  };
  return { ...result, findings: [...result.findings, finding] };
}

/** List files with findings, and those the command was pointed at; clean lists behind a schema run stay quiet. */
function listReports(checker: ProjectChecker, selected: readonly string[]): FileReport[] {
  const named = new Set(selected.map((file) => resolve(file)));
  return checker.listReports().filter((report) => report.findings.length > 0 || named.has(resolve(report.file)));
}

/** A `checked n/total` line on a terminal's stderr for long runs; silent otherwise. */
function progressLine(total: number): { update: (done: number) => void; done: () => void } {
  if (!cli().stderr.isTTY || total < PROGRESS_THRESHOLD) return { update: () => {}, done: () => {} };
  return {
    update: (done) => {
      if (done % 10 === 0 || done === total) cli().stderr.write(`\rchecked ${done}/${total}`);
    },
    done: () => cli().stderr.write('\r\x1b[K'),
  };
}
