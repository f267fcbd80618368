// `flowguard import openapi <spec> --out DIR`: FlowMCP schema files from an OpenAPI 3.0/3.1 or
// Swagger 2.0 document. Every operation becomes a route of a file that validates, or a finding
// in the report; nothing is written over an existing file without --force, and nothing at all
// unless every file could be written.

import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { ImportReport } from '../openapi/types.js';
import { terminalJson, terminalText } from '../report/format.js';
import { plural } from '../shared/plural.js';
import { UsageError } from '../errors/flowguard-error.js';
import { cli } from './io.js';

interface ImportFlags {
  out: string;
  namespace?: string;
  include?: string;
  force?: boolean;
  json?: boolean;
}

export function registerImport(program: Command): void {
  const command = program.command('import').description('write FlowMCP schema files from another API description');
  command
    .command('openapi')
    .description(
      'write schema files from an OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML); exit 1 if an operation could not become a route',
    )
    .argument('<spec>', 'the OpenAPI or Swagger document')
    .requiredOption('--out <dir>', 'folder to write the schema files into (required)')
    .option('--namespace <ns>', 'the namespace of the routes (lowercase letters); default from the document title')
    .option(
      '--include <pattern>',
      'only operations whose operationId, path, "METHOD path" or a tag matches: a glob (* and ?) or /regex/',
    )
    .option('--force', 'overwrite schema files that already exist')
    .option('--json', 'print the report as JSON')
    .action((spec: string, flags: ImportFlags) => runImport(spec, flags));
}

async function runImport(spec: string, flags: ImportFlags): Promise<void> {
  if (existsSync(flags.out) && !statSync(flags.out).isDirectory())
    throw new UsageError(`--out ${flags.out} is not a folder`);
  // Loaded when the command runs (program.ts).
  const { importOpenApi } = await import('../openapi/import.js');
  // A document that cannot be read (ERR006) or a bad --namespace (ERR001) stops here with its own code.
  const result = await importOpenApi(spec, { namespace: flags.namespace, include: flags.include });
  const targets = result.files.map((file) => ({ ...file, path: join(flags.out, file.name) }));
  const notFiles = targets.filter((file) => existsSync(file.path) && !statSync(file.path).isFile());
  if (notFiles.length > 0)
    throw new UsageError(
      `${notFiles.map((file) => file.path).join(', ')} ${notFiles.length === 1 ? 'is' : 'are'} not a file; nothing was written`,
    );
  const occupied = targets.filter((file) => existsSync(file.path) && readFileSync(file.path, 'utf8') !== file.text);
  if (occupied.length > 0 && !flags.force) {
    throw new UsageError(
      `${plural(occupied.length, 'file')} already exist with other content (${occupied.map((file) => file.path).join(', ')}); pass --force to overwrite them`,
    );
  }
  writeAll(flags.out, targets);
  const report: ImportReport = {
    ...result.report,
    files: targets.map(({ path, routes, check }) => ({ file: path, routes, check })),
  };
  // The report quotes the document (its title, paths, tags), which is untrusted text.
  cli().stdout.write(
    `${flags.json ? terminalJson(JSON.stringify(report, null, 2)) : terminalText(humanReport(report))}\n`,
  );
  cli().exitCode = report.summary.skipped > 0 || report.summary.routes === 0 ? 1 : 0;
}

/**
 * Every file written beside its place first, then renamed into it: a write that fails (a full
 * disk, a folder that may not be written) leaves nothing behind, not some of the files.
 */
function writeAll(out: string, files: ReadonlyArray<{ path: string; text: string }>): void {
  if (files.length === 0) return;
  let created: string | undefined;
  const staged: Array<{ temp: string; path: string }> = [];
  try {
    created = mkdirSync(out, { recursive: true });
    for (const file of files) {
      const temp = join(out, `.flowguard-import.${randomBytes(6).toString('hex')}.tmp`);
      staged.push({ temp, path: file.path });
      writeFileSync(temp, file.text, { flag: 'wx' });
    }
  } catch (error) {
    for (const { temp } of staged) rmSync(temp, { force: true });
    // The folders this run made hold nothing now.
    if (created !== undefined) rmSync(created, { recursive: true, force: true });
    throw new UsageError(`--out ${out}: ${(error as Error).message}; nothing was written`);
  }
  for (const { temp, path } of staged) renameSync(temp, path);
}

function humanReport(report: ImportReport): string {
  const lines = [
    `${report.document.file} (${report.document.format}): "${report.document.title}", namespace ${report.namespace}`,
  ];
  for (const file of report.files)
    lines.push(`wrote ${file.file}: ${file.routes.map((route) => `${route.name} (${route.operation})`).join(', ')}`);
  const order = { error: 0, warning: 1, info: 2 };
  for (const finding of [...report.findings].sort((a, b) => order[a.severity] - order[b.severity])) {
    lines.push(
      `${finding.severity} ${finding.kind}${finding.operation ? ` ${finding.operation}` : ''}: ${finding.message}`,
    );
  }
  const s = report.summary;
  lines.push(
    `${plural(s.operations, 'operation')}: ${plural(s.routes, 'route')} in ${plural(s.files, 'file')}, ${s.skipped} not expressible (errors above), ` +
      `${s.excluded} excluded by --include; ${plural(s.warnings, 'warning')}`,
  );
  return lines.join('\n');
}
