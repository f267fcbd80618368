// What `serve` tells its operator while it runs: structured logs on stderr (`--log-level`, config
// `log.level`; one line per call at info, sandbox worker deaths at warn) and the audit log (config
// `audit.*`, on by default). Every catalog the server serves is attached, the first and each one
// a reload brings, so that no call goes unrecorded. Text from a catalog is redacted by it first.

import { resolve } from 'node:path';
import type { CallListener } from '../call/record.js';
import type { Catalog } from '../runtime/catalog.js';
import type { CatalogOptions } from '../runtime/catalog-options.js';
import type { ProjectConfig } from '../config/project.js';
import { AuditLog } from '../observe/audit-log.js';
import {
  BatchedLines,
  createLogger,
  DEFAULT_LOG_LEVEL,
  flushLogger,
  isLogLevel,
  LOG_LEVELS,
  type Logger,
} from '../observe/logger.js';
import { refusalText } from '../http/secrets.js';
import { describeHolder } from '../keylock/judge.js';
import type { Finding } from '../report/findings.js';
import { formatFinding } from '../report/format.js';
import { fileVerdict } from '../report/scope.js';
import { describeSandboxEvent } from '../sandbox/events.js';
import { UsageError } from '../errors/flowguard-error.js';
import { cli } from './io.js';
import { LOG_FORMATS, type LogFormat } from './serve-output.js';

export interface ServeObserver {
  logger: Logger;
  /** `--log-format` or `log.format`: how the rest of what serve says is written (serve-output.ts). */
  format: LogFormat;
  /** What every catalog the server loads is opened with (the sandbox's events go to the logger). */
  catalogOptions: Partial<CatalogOptions>;
  /** Records and logs every call of `catalog` from now on. */
  attach(catalog: Catalog): void;
  /** Audit records dropped so far (0 without an audit log), for /metrics. */
  auditDropped(): number;
  /** Writes what is queued and stops. */
  close(): Promise<void>;
}

/** `config`: the project's, as serve read it from `flags.project`. */
export function observeServe(
  config: ProjectConfig,
  flags: { project: string; logLevel?: string; logFormat?: string },
): ServeObserver {
  const level = flags.logLevel ?? config.log.level ?? DEFAULT_LOG_LEVEL;
  if (!isLogLevel(level)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, not '${level}'`);
  const format = flags.logFormat ?? config.log.format ?? 'text';
  if (!(LOG_FORMATS as readonly string[]).includes(format))
    throw new UsageError(`--log-format must be one of ${LOG_FORMATS.join(', ')}, not '${format}'`);
  // Structured logs go to the run's stderr, as the summary does (cli/io.ts).
  const logger = createLogger({ level, destination: new BatchedLines(cli().stderr) });
  let audit: AuditLog | null = null;
  if (config.audit.enabled) {
    const dir = resolve(flags.project, config.audit.dir);
    try {
      audit = AuditLog.open({ dir, maxBytes: config.audit.maxBytes, files: config.audit.files, logger });
    } catch (error) {
      throw new UsageError(
        `the audit log folder ${dir} cannot be made (${(error as Error).message}); set audit.dir in .flowmcp/config.json, or audit.enabled to false`,
      );
    }
  }
  let latest: Catalog | undefined;
  return {
    logger,
    format: format as LogFormat,
    catalogOptions: {
      // Told before the catalog exists (a factory run at load); redacted by the latest catalog once there is one.
      sandbox: {
        onEvent: (event) =>
          logger.warn(
            { sandbox: event.kind, pid: event.pid },
            latest?.redact(describeSandboxEvent(event)) ?? describeSandboxEvent(event),
          ),
      },
    },
    attach(catalog) {
      // Problems of the first catalog; a reload reports what it changed itself (cli/watch.ts).
      if (!latest) logLoadProblems(logger, catalog);
      latest = catalog;
      catalog.onCall(recordCall(logger, audit));
    },
    auditDropped: () => audit?.dropped ?? 0,
    async close() {
      await audit?.close();
      await flushLogger(logger);
    },
  };
}

/** The keys a load saw for the first time, and whether the key lock recorded them (a reload's too). */
export function logFirstSeenKeys(logger: Pick<Logger, 'info' | 'warn'>, catalog: Catalog): void {
  const report = catalog.keyLock;
  for (const [key, holders] of report?.firstSeen ?? []) {
    if (!report || holders.length === 0) continue;
    const entry = { key, lock: report.file, holders: holders.map(describeHolder) };
    if (report.recorded) logger.info(entry, 'key seen for the first time; recorded in the key lock');
    else
      logger.warn(
        { ...entry, error: report.writeError },
        'key seen for the first time; the key lock could not record it',
      );
  }
}

/** What serve does with each finished call (handed over after its caller has the answer): its audit line, and its log line at info. */
export function recordCall(logger: Logger, audit: AuditLog | null): CallListener {
  return (record) => {
    audit?.write(record);
    // The caller by its names only (call/record.ts): a token is never in a record.
    logger.info(
      {
        tool: record.tool,
        outcome: record.outcome,
        ms: record.durationMs,
        ...(record.caller ? { caller: record.caller } : {}),
      },
      'call',
    );
  };
}

/**
 * What an operator must act on in a catalog just loaded, at warn, one entry each: a file that is
 * not served (with its first error), a route dropped from a file served, and a key that is not granted (with the tools it hides and
 * the line that grants it). The start-up summary says the same for a person; these are for the
 * log pipeline.
 */
function logLoadProblems(logger: Logger, catalog: Catalog): void {
  for (const report of [...catalog.schemaReports, ...catalog.listReports]) {
    const verdict = fileVerdict(report);
    if (verdict.status === 'rejected')
      logger.warn({ file: report.file, finding: formatFinding(verdict.error) }, 'file not served');
    if (verdict.status === 'loads')
      for (const { route, error } of verdict.dropped)
        logger.warn({ file: report.file, route, finding: formatFinding(error) }, 'route not served');
  }
  const hiddenByKey = new Map<string, { key: string; namespace: string; tools: string[] }>();
  for (const tool of catalog.tools) {
    const held = catalog.keyLock?.heldKeys(tool.schema.file) ?? [];
    for (const key of tool.missingKeys.filter((missing) => !held.includes(missing))) {
      const entry = hiddenByKey.get(`${key}\n${tool.namespace}`) ?? { key, namespace: tool.namespace, tools: [] };
      entry.tools.push(tool.name);
      hiddenByKey.set(`${key}\n${tool.namespace}`, entry);
    }
  }
  for (const { key, namespace, tools } of hiddenByKey.values()) {
    const access = catalog.keyAccess(key, namespace);
    logger.warn(
      { key, namespace, tools, reason: refusalText(access), ...(access.granted ? {} : { grant: access.fix }) },
      'key not granted; its tools are hidden',
    );
  }
  logKeyLock(logger, catalog);
}

/** What the key lock recorded and holds back at the load, one entry each, with the command that accepts a change. */
function logKeyLock(logger: Logger, catalog: Catalog): void {
  const report = catalog.keyLock;
  if (!report) return;
  logFirstSeenKeys(logger, catalog);
  const problem = report.problem;
  if (problem)
    logger.warn(
      { lock: report.file, finding: formatFinding(problem), accept: report.acceptCommand() },
      'the key lock cannot be used; every key is held back',
    );
  const findings = report.findings();
  report.held.forEach(({ key, holder, recorded }, index) => {
    const tools = catalog.tools.filter((tool) => tool.schema.file === holder.path).map((tool) => tool.name);
    logger.warn(
      {
        key,
        file: holder.path,
        namespace: holder.namespace,
        origins: holder.origins,
        recorded: recorded.map(describeHolder),
        tools,
        finding: formatFinding(findings[index] as Finding),
        accept: report.acceptCommand([key]),
      },
      'key held back by the key lock; its tools are hidden',
    );
  });
}
