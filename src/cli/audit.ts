// `flowguard audit`: the audit log `serve` writes (config `audit.dir`, by default
// <project>/.flowmcp/audit/), read back oldest first, filtered by tool and start time. A table
// for people, or with `--json` the records themselves, one JSON object a line, as they are stored.
// Either way nothing a handler or client wrote into a record acts on the terminal (promise 8).

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { loadProjectConfig } from '../config/project.js';
import type { AuditLine } from '../observe/audit-read.js';
import { terminalJson, terminalText } from '../report/format.js';
import { plural } from '../shared/plural.js';
import { table } from './shared.js';
import { UsageError } from '../errors/flowguard-error.js';
import { cli } from './io.js';

interface AuditFlags {
  project: string;
  tool?: string;
  since?: string;
  json?: boolean;
}

export function registerAudit(program: Command): void {
  program
    .command('audit')
    .description('show the calls serve recorded in the audit log (<project>/.flowmcp/audit/ or audit.dir)')
    .option('--project <dir>', 'project folder holding .flowmcp/', '.')
    .option('--tool <name>', 'only calls of this tool (MCP name or namespace/file.mjs::route)')
    .option(
      '--since <time>',
      'only calls since this time: ISO (2026-05-01T12:00:00Z) or back from now (30s, 10m, 2h, 1d)',
    )
    .option('--json', 'print the records as stored, one JSON object a line')
    .action((flags: AuditFlags) => runAudit(flags));
}

async function runAudit(flags: AuditFlags): Promise<void> {
  // Loaded when the command runs (program.ts).
  const { parseSince, readAudit } = await import('../observe/audit-read.js');
  let sinceMs: number | undefined;
  if (flags.since !== undefined) {
    const parsed = parseSince(flags.since);
    if (parsed === null)
      throw new UsageError(
        `--since must be an ISO time (2026-05-01T12:00:00Z) or a span back from now (30s, 10m, 2h, 1d), not '${flags.since}'`,
      );
    sinceMs = parsed;
  }
  const dir = resolve(flags.project, loadProjectConfig(flags.project).audit.dir);
  const reading = await readAudit(dir, { tool: flags.tool, sinceMs });
  if (reading.unreadable > 0)
    cli().stderr.write(
      `flowguard: skipped ${plural(reading.unreadable, 'line')} of ${dir} that could not be read as an audit record (a process stopped while writing?)\n`,
    );
  if (flags.json) {
    for (const record of reading.records) cli().stdout.write(`${terminalJson(JSON.stringify(record))}\n`);
    return;
  }
  if (reading.files === 0) {
    cli().stdout.write(`no audit log in ${dir} (serve writes one unless audit.enabled is false)\n`);
    return;
  }
  const rows = reading.records.map((record) =>
    [record.time, record.tool, String(record.outcome), `${record.durationMs} ms`, requestsCell(record)].map(cellText),
  );
  if (rows.length > 0)
    cli().stdout.write(`${table([['time', 'tool', 'outcome', 'duration', 'requests'], ...rows]).join('\n')}\n`);
  cli().stdout.write(
    `${plural(reading.records.length, 'call')}${flags.tool !== undefined || sinceMs !== undefined ? ' matched' : ''}\n`,
  );
}

/**
 * A record's text as one table cell: a handler writes the methods and URLs of its requests, so
 * nothing in it may act on the terminal (terminalText) or break the line into a forged row.
 */
function cellText(text: string): string {
  return terminalText(text.replace(/[\n\t]/g, (char) => (char === '\n' ? '\\n' : '\\t')));
}

/** `GET https://api.example.com 200` for each request, `cache hit` for an answer from the cache. */
function requestsCell(record: AuditLine): string {
  const requests = Array.isArray(record.requests) ? (record.requests as Array<Record<string, unknown>>) : [];
  const cells = requests.map(
    (request) =>
      `${String(request.method)} ${String(request.origin)} ${request.status === 0 ? 'failed' : String(request.status)}`,
  );
  if (record.cache === 'hit') cells.push('cache hit');
  return cells.join(', ') || '-';
}
