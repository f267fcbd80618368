// `flowguard validate [paths...]`: every problem of every schema file, in one pass, without
// running any of the schemas' code.

import { relative } from 'node:path';
import type { Command } from 'commander';
import { selectSchemaFiles } from '../catalog/files.js';
import { checkSchemaFiles } from '../catalog/validate.js';
import { loadProjectConfig } from '../config/project.js';
import { effectiveAllowlist } from '../libraries/allowlist.js';
import { formatHuman, formatJson } from '../report/format.js';
import { UsageError } from './usage.js';

interface ValidateOptions {
  json?: boolean;
  quiet?: boolean;
  project: string;
}

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
    .action((paths: string[], options: ValidateOptions) => runValidate(paths, options));
}

function runValidate(paths: string[], options: ValidateOptions): void {
  const { files, missing } = selectSchemaFiles(paths);
  if (missing.length > 0) throw new UsageError(`no such file or folder: ${missing.join(', ')}`);
  if (files.length === 0) throw new UsageError(`no .mjs schema files under ${paths.join(', ')}`);
  const config = loadProjectConfig(options.project);
  const progress = progressLine(files.length);
  const results = checkSchemaFiles(files.map(displayPath), { allowedLibraries: effectiveAllowlist(config.allowedLibraries) }, progress.update);
  progress.done();
  process.stdout.write(`${options.json ? formatJson(results) : formatHuman(results, options.quiet ? 'error' : 'info')}\n`);
  process.exitCode = results.some((r) => r.schema === null) ? 1 : 0;
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
