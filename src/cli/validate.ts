// `flowguard validate [paths...]`: every problem of every schema file, in one pass, without
// running any of the schemas' code. The files are checked by the project checker a catalog
// loads with (project/checker.ts), against the same config and shared lists.

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { listsFolderOf, ProjectChecker } from '../project/checker.js';
import { hasErrors } from '../report/findings.js';
import { formatHuman, formatJson, type FileReport } from '../report/format.js';
import { selectSchemaFiles } from '../scan/files.js';
import { displayPath, projectOptions, requireListsFolder, type ProjectFlags } from './shared.js';
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
      .argument('[paths...]', 'schema files or folders', ['schemas'])
      .option('--json', 'print machine-readable findings')
      .option('--quiet', 'print errors only'),
  ).action((paths: string[], options: ValidateOptions) => runValidate(paths, options));
}

function runValidate(paths: string[], options: ValidateOptions): void {
  const { files, missing } = selectSchemaFiles(paths);
  if (missing.length > 0) throw new UsageError(`no such file or folder: ${missing.join(', ')}`);
  if (files.length === 0) throw new UsageError(`no .mjs schema files under ${paths.join(', ')}`);
  requireListsFolder(options);
  // Files are named as the user would type them, list files too.
  const checker = ProjectChecker.open({ project: options.project, lists: displayPath(listsFolderOf(options)) });
  // Every list file is checked, used or not: validate is the author's gate.
  checker.checkEveryList();
  const schemaFiles = files.filter((file) => !checker.isListFile(file));
  const progress = progressLine(schemaFiles.length);
  const results = checker.checkFiles(schemaFiles.map(displayPath), progress.update);
  progress.done();
  const reports = [...listReports(checker, files), ...results];
  cli().stdout.write(`${options.json ? formatJson(reports) : formatHuman(reports, options.quiet ? 'error' : 'info')}\n`);
  cli().exitCode = reports.some((report) => hasErrors(report.findings)) ? 1 : 0;
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
