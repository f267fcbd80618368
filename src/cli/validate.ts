// `flowguard validate [paths...]`: every problem of every schema file, in one pass, without
// running any of the schemas' code.

import { statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { isWithin, selectSchemaFiles } from '../scan/files.js';
import { checkSchemaFiles } from '../catalog/validate.js';
import { loadProjectConfig } from '../config/project.js';
import { effectiveAllowlist } from '../libraries/allowlist.js';
import { loadListRegistry } from '../lists/registry.js';
import type { ListRegistry } from '../lists/types.js';
import { formatHuman, formatJson, type FileReport } from '../report/format.js';
import { UsageError } from './usage.js';

interface ValidateOptions {
  json?: boolean;
  quiet?: boolean;
  project: string;
  /** Only set when given: the default folder may be missing, a given one may not. */
  lists?: string;
}

const DEFAULT_LISTS = 'shared-lists';

// Below this many files a run is over before a progress line would help.
const PROGRESS_THRESHOLD = 50;

export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('scan and validate schema files or folders (recursively); exit 1 if any has an error')
    .argument('[paths...]', 'schema files or folders', ['schemas'])
    .option('--json', 'print machine-readable findings')
    .option('--quiet', 'print errors only')
    .option('--project <dir>', 'project folder holding .flowmcp/config.json', '.')
    .option('--lists <dir>', `folder of shared-list files (default: ${DEFAULT_LISTS}, if it exists)`)
    .action((paths: string[], options: ValidateOptions) => runValidate(paths, options));
}

function runValidate(paths: string[], options: ValidateOptions): void {
  const { files, missing } = selectSchemaFiles(paths);
  if (missing.length > 0) throw new UsageError(`no such file or folder: ${missing.join(', ')}`);
  if (files.length === 0) throw new UsageError(`no .mjs schema files under ${paths.join(', ')}`);
  if (options.lists !== undefined && !isFolder(options.lists)) throw new UsageError(`no such lists folder: ${options.lists}`);
  const listsDir = options.lists ?? DEFAULT_LISTS;
  const config = loadProjectConfig(options.project);
  // Every list file is checked, used or not: validate is the author's gate.
  const { maxFileBytes } = config.limits;
  const registry = loadListRegistry(displayPath(listsDir), { maxFileBytes });
  // List files are checked as lists, never again as schemas.
  const schemaFiles = files.filter((file) => !isWithin(file, listsDir));
  const progress = progressLine(schemaFiles.length);
  const results = checkSchemaFiles(schemaFiles.map(displayPath), { allowedLibraries: effectiveAllowlist(config.allowedLibraries), lists: registry, maxFileBytes }, progress.update);
  progress.done();
  const reports = [...listReports(registry, files), ...results];
  process.stdout.write(`${options.json ? formatJson(reports) : formatHuman(reports, options.quiet ? 'error' : 'info')}\n`);
  process.exitCode = reports.some((report) => report.findings.some((f) => f.severity === 'error')) ? 1 : 0;
}

/** List files with findings, and those the command was pointed at; clean lists behind a schema run stay quiet. */
function listReports(registry: ListRegistry, selected: readonly string[]): FileReport[] {
  const named = new Set(selected.map((file) => resolve(file)));
  return registry.files.flatMap((file) => {
    const findings = registry.findings.filter((finding) => finding.file === file);
    return findings.length > 0 || named.has(resolve(file)) ? [{ file, findings }] : [];
  });
}

function isFolder(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

function displayPath(file: string): string {
  const shown = relative(process.cwd(), file);
  return shown.startsWith('..') ? file : shown;
}

/** A `checked n/total` line on a terminal's stderr for long runs; silent otherwise. */
function progressLine(total: number): { update: (done: number) => void; done: () => void } {
  if (!process.stderr.isTTY || total < PROGRESS_THRESHOLD) return { update: () => {}, done: () => {} };
  return {
    update: (done) => {
      if (done % 10 === 0 || done === total) process.stderr.write(`\rchecked ${done}/${total}`);
    },
    done: () => process.stderr.write('\r\x1b[K'),
  };
}
