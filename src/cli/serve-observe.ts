// What `serve` tells its operator while it runs: structured logs on stderr (`--log-level`, config
// `log.level`; one line per call at info, sandbox worker deaths at warn) and the audit log (config
// `audit.*`, on by default). Every catalog the server serves is attached, the first and each one
// a reload brings, so that no call goes unrecorded. Text from a catalog is redacted by it first.

import { resolve } from 'node:path';
import type { CallListener } from '../catalog/call-record.js';
import type { CatalogOptions, Catalog } from '../catalog/load.js';
import { loadProjectConfig } from '../config/project.js';
import { AuditLog } from '../observe/audit-log.js';
import { createLogger, flushLogger, isLogLevel, LOG_LEVELS, type Logger } from '../observe/logger.js';
import { describeSandboxEvent } from '../sandbox/events.js';
import { UsageError } from './usage.js';

export interface ServeObserver {
  logger: Logger;
  /** The audit log being written; null when `audit.enabled` is false. */
  audit: AuditLog | null;
  /** What every catalog the server loads is opened with (the sandbox's events go to the logger). */
  catalogOptions: Partial<CatalogOptions>;
  /** Records and logs every call of `catalog` from now on. */
  attach(catalog: Catalog): void;
  /** Writes what is queued and stops. */
  close(): Promise<void>;
}

export function observeServe(flags: { project: string; logLevel?: string }): ServeObserver {
  const config = loadProjectConfig(flags.project);
  const level = flags.logLevel ?? config.log.level ?? 'info';
  if (!isLogLevel(level)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, not '${level}'`);
  const logger = createLogger({ level });
  let audit: AuditLog | null = null;
  if (config.audit.enabled) {
    const dir = resolve(flags.project, config.audit.dir);
    try {
      audit = AuditLog.open({ dir, maxBytes: config.audit.maxBytes, files: config.audit.files, logger });
    } catch (error) {
      throw new UsageError(`the audit log folder ${dir} cannot be made (${(error as Error).message}); set audit.dir in .flowmcp/config.json, or audit.enabled to false`);
    }
  }
  let latest: Catalog | undefined;
  return {
    logger,
    audit,
    catalogOptions: {
      // Told before the catalog exists (a factory run at load); redacted by the latest catalog once there is one.
      sandbox: { onEvent: (event) => logger.warn({ sandbox: event.kind, pid: event.pid }, latest?.redact(describeSandboxEvent(event)) ?? describeSandboxEvent(event)) },
    },
    attach(catalog) {
      latest = catalog;
      catalog.onCall(recordCall(logger, audit));
    },
    async close() {
      await audit?.close();
      await flushLogger(logger);
    },
  };
}

/** What serve does with each finished call (handed over after its caller has the answer): its audit line, and its log line at info. */
export function recordCall(logger: Logger, audit: AuditLog | null): CallListener {
  return (record) => {
    audit?.write(record);
    logger.info({ tool: record.tool, outcome: record.outcome, ms: record.durationMs }, 'call');
  };
}
