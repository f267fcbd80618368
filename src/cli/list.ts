// `flowguard list`: every tool of the catalog with its name, reference, method, the keys it
// needs and whether it is served, every file that was rejected and every route that was
// dropped (decision R1) with its first error, and with --json each loaded schema's
// informational fields. The same catalog `serve` would load: the same lists, config, `.env` and
// environment.

import type { Command } from 'commander';
import type { Catalog } from '../runtime/catalog.js';
import { toolReference } from '../catalog/names.js';
import type { Tool } from '../catalog/tools.js';
import type { Finding } from '../report/findings.js';
import { refusalText } from '../http/secrets.js';
import { terminalJson, terminalText, type FileReport } from '../report/format.js';
import { plural } from '../shared/plural.js';
import { fileVerdict } from '../report/scope.js';
import type { SchemaInfo } from '../schema/types.js';
import type { KeyHolder } from '../keylock/lock-file.js';
import { keyLockLines } from './serve-summary.js';
import { catalogOptions, displayPath, openCatalog, table, type CatalogFlags } from './shared.js';
import { cli } from './io.js';

interface ListFlags extends CatalogFlags {
  json?: boolean;
}

export interface ToolRow {
  name: string;
  reference: string;
  method: string;
  /** Every key the tool's URL, headers and parameters use. */
  requiredKeys: string[];
  /** Those of them not granted to the tool's namespace. */
  missingKeys: string[];
  /** For each missing key, why, and the line that would grant it. */
  keyProblems: Array<{ key: string; reason: string; fix: string }>;
  status: 'served' | 'hidden';
}

export interface RejectedRow {
  file: string;
  status: 'rejected';
  /** The file's first error. */
  error: Finding;
}

/** A route left out of a file that loads otherwise, for an error of its own. */
export interface DroppedRow {
  file: string;
  route: string;
  /** `namespace/file.mjs::route`, as its tool would have been named. */
  reference: string;
  status: 'dropped';
  /** The route's first error. */
  error: Finding;
}

/** A loaded schema file: its version, how many of its routes load, and its informational fields. */
export interface SchemaRow {
  file: string;
  namespace: string;
  version: string;
  routes: { declared: number; served: number };
  info: SchemaInfo;
  /** Where its executeRequest handlers may send requests: origins (with the keys bound to each) and what the operator denied. */
  reach: ReturnType<Catalog['reach']>;
}

export function registerList(program: Command): void {
  catalogOptions(
    program
      .command('list')
      .description('list every tool (served, or hidden for a missing key) and every rejected file')
      .option('--json', 'print machine-readable rows'),
  ).action((flags: ListFlags) => runList(flags));
}

async function runList(flags: ListFlags): Promise<void> {
  const catalog = await openCatalog(flags);
  try {
    const tools = catalog.tools.map((tool) => toolRow(tool, catalog));
    const rejected = rejectedRows(catalog.reports);
    const dropped = droppedRows(catalog);
    // File names and findings are the schema authors' text: printed, nothing in them acts on the terminal.
    const output = flags.json
      ? terminalJson(
          JSON.stringify(
            {
              tools,
              rejected,
              dropped,
              schemas: schemaRows(catalog),
              keyLock: keyLockRow(catalog),
              summary: summary(tools, rejected, dropped),
            },
            null,
            2,
          ),
        )
      : terminalText(formatList(tools, rejected, dropped, keyLockLines(catalog)));
    cli().stdout.write(`${output}\n`);
    cli().exitCode = 0;
  } finally {
    await catalog.close();
  }
}

function toolRow(tool: Tool, catalog: Catalog): ToolRow {
  return {
    name: tool.name,
    reference: tool.reference,
    method: tool.method,
    requiredKeys: [...tool.requiredKeys],
    missingKeys: [...tool.missingKeys],
    keyProblems: tool.missingKeys.map((key) => keyProblem(catalog, key, tool)),
    status: tool.missingKeys.length === 0 ? 'served' : 'hidden',
  };
}

/** Why a tool may not use a key, in words, and the line that grants it (or the command that accepts what the key lock holds back). */
export function keyProblem(catalog: Catalog, key: string, tool: Tool): { key: string; reason: string; fix: string } {
  const access = catalog.keyAccess(key, tool.namespace, tool.schema.file);
  return { key, reason: refusalText(access), fix: access.granted ? '' : access.fix };
}

/** Files with an error that concerns the whole file: they load no tool. */
export function rejectedRows(reports: readonly FileReport[]): RejectedRow[] {
  return reports.flatMap((report) => {
    const verdict = fileVerdict(report);
    return verdict.status === 'rejected'
      ? [{ file: report.file, status: 'rejected' as const, error: verdict.error }]
      : [];
  });
}

/** Routes of loaded files that an error of their own leaves out. */
export function droppedRows(catalog: Catalog): DroppedRow[] {
  const namespaces = new Map(catalog.schemas.map(({ file, schema }) => [file, schema.namespace]));
  return catalog.schemaReports.flatMap((report) => {
    const verdict = fileVerdict(report);
    const namespace = namespaces.get(report.file);
    if (verdict.status !== 'loads' || namespace === undefined) return [];
    return verdict.dropped.map(({ route, error }) => ({
      file: report.file,
      route,
      reference: toolReference({ namespace, file: report.file, route }),
      status: 'dropped' as const,
      error,
    }));
  });
}

/** Every loaded schema file with its informational fields (R11). */
export function schemaRows(catalog: Catalog): SchemaRow[] {
  return catalog.schemas.map(({ file, schema }) => ({
    file,
    namespace: schema.namespace,
    version: schema.version,
    routes: {
      declared: catalog.schemaReports.find((report) => report.file === file)?.routes?.length ?? schema.routes.length,
      served: schema.routes.length,
    },
    info: schema.info,
    reach: catalog.reach(file),
  }));
}

/** What the key lock recorded and holds back at this load (null when it is off), for `--json`. */
export interface KeyLockRow {
  file: string;
  state: 'absent' | 'read' | 'unusable';
  problem: Finding | null;
  /** Keys seen for the first time, with the holders taken; `recorded`: written to the lock. */
  firstSeen: Array<{ key: string; holders: KeyHolder[] }>;
  recorded: boolean;
  held: Array<{
    key: string;
    file: string;
    namespace: string;
    origins: readonly string[];
    recorded: readonly KeyHolder[];
    finding: Finding;
    accept: string;
  }>;
}

function keyLockRow(catalog: Catalog): KeyLockRow | null {
  const report = catalog.keyLock;
  if (!report) return null;
  const findings = report.findings();
  return {
    file: report.file,
    state: report.lock.state,
    problem: report.problem,
    firstSeen: [...report.firstSeen]
      .filter(([, holders]) => holders.length > 0)
      .map(([key, holders]) => ({ key, holders: [...holders] })),
    recorded: report.recorded,
    held: report.held.map(({ key, holder, recorded }, index) => ({
      key,
      file: holder.file,
      namespace: holder.namespace,
      origins: holder.origins,
      recorded,
      finding: findings[index] as Finding,
      accept: report.acceptCommand([key]),
    })),
  };
}

/** The reason of a key the key lock holds back: its fix is the command that accepts it, not a grant. */
const HELD = refusalText({ granted: false, reason: 'held', fix: '' });

function statusText(row: ToolRow): string {
  if (row.status === 'served') return 'served';
  return `hidden: ${row.keyProblems.map(keyProblemText).join('; ')}`;
}

/** `KEY not set (grant: KEY=... in .env)`, or the command that accepts a key the lock holds back. */
export function keyProblemText(problem: { key: string; reason: string; fix: string }): string {
  return `${problem.key} ${problem.reason} (${problem.reason === HELD ? 'accept' : 'grant'}: ${problem.fix})`;
}

function summary(tools: readonly ToolRow[], rejected: readonly RejectedRow[], dropped: readonly DroppedRow[]) {
  const served = tools.filter((row) => row.status === 'served').length;
  return {
    tools: tools.length,
    served,
    hidden: tools.length - served,
    rejected: rejected.length,
    dropped: dropped.length,
  };
}

function formatList(
  tools: readonly ToolRow[],
  rejected: readonly RejectedRow[],
  dropped: readonly DroppedRow[],
  keyLock: readonly string[],
): string {
  const lines = table([
    ['NAME', 'REFERENCE', 'METHOD', 'KEYS', 'STATUS'],
    ...tools.map((row) => [row.name, row.reference, row.method, row.requiredKeys.join(', ') || '-', statusText(row)]),
  ]);
  if (rejected.length > 0) {
    lines.push('', 'rejected files (flowguard validate shows every finding):');
    lines.push(
      ...table(rejected.map((row) => [displayPath(row.file), `rejected: ${row.error.code} ${row.error.message}`])).map(
        (line) => `  ${line}`,
      ),
    );
  }
  if (dropped.length > 0) {
    lines.push('', 'routes not served (their files load; flowguard validate shows every finding):');
    lines.push(
      ...table(dropped.map((row) => [row.reference, `dropped: ${row.error.code} ${row.error.message}`])).map(
        (line) => `  ${line}`,
      ),
    );
  }
  if (keyLock.length > 0) lines.push('', ...keyLock.map((line) => line.slice(2)));
  const s = summary(tools, rejected, dropped);
  const droppedText = s.dropped > 0 ? `; ${plural(s.dropped, 'route')} dropped` : '';
  lines.push(
    '',
    `${plural(s.tools, 'tool')}: ${s.served} served, ${s.hidden} hidden; ${plural(s.rejected, 'file')} rejected${droppedText}`,
  );
  return lines.join('\n');
}
