// `serve --watch`: the schema and list folders are watched; a change loads the catalog again
// (files whose text did not change come from the check cache) and swaps it into the live holder,
// which tells every connected client (`notifications/tools/list_changed`). A file whose new text
// has errors keeps the version served before (Catalog.load's `previous`), and its findings are
// logged at warn; a load that fails as a whole (a broken config) keeps the whole catalog. Reloads
// go to serve's structured log (pino), one entry each, like every other event of a running server.

import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, sep } from 'node:path';
import type { LiveCatalog } from '../catalog/live-catalog.js';
import type { Catalog } from '../catalog/load.js';
import type { Logger } from '../observe/logger.js';
import { isError } from '../report/findings.js';
import { formatFinding } from '../report/format.js';
import { logFirstSeenKeys } from './serve-observe.js';

export interface CatalogWatch {
  close(): void;
}

export interface WatchOptions {
  /** Folders watched recursively, or single files (their folder is watched for them). */
  paths: readonly string[];
  /** The catalog afresh, given the one it replaces. */
  load: (previous: Catalog) => Promise<Catalog>;
  /** Where reloads (info) and their problems (warn) are reported. */
  logger: Pick<Logger, 'info' | 'warn'>;
  /** Quiet time after the last change before reloading: an editor's save is several events. */
  debounceMs?: number;
  /** Told after each reload attempt, swapped or not (tests wait on it). */
  onReload?: (swapped: boolean) => void;
}

const DEFAULT_DEBOUNCE_MS = 150;

export function watchCatalog(live: LiveCatalog, options: WatchOptions): CatalogWatch {
  const debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  let timer: NodeJS.Timeout | undefined;
  let reloading = false;
  let again = false;
  let closed = false;

  const reload = async (): Promise<void> => {
    // One reload at a time; changes during one lead to one more after it.
    if (reloading) {
      again = true;
      return;
    }
    reloading = true;
    let swapped = false;
    try {
      const previous = live.current;
      const next = await options.load(previous);
      if (closed) {
        await next.close();
        return;
      }
      reportReload(previous, next, options.logger);
      void live.swap(next).catch((error: unknown) => options.logger.warn({ error: String(error) }, 'closing the replaced catalog failed'));
      swapped = true;
    } catch (error) {
      options.logger.warn({ error: (error as Error)?.message ?? String(error) }, 'reload failed; the catalog served before stays');
    } finally {
      reloading = false;
      options.onReload?.(swapped);
    }
    if (again && !closed) {
      again = false;
      await reload();
    }
  };

  const changed = (path: string) => {
    if (closed || ignored(path)) return;
    clearTimeout(timer);
    timer = setTimeout(() => void reload(), debounceMs);
  };

  const watchers: FSWatcher[] = options.paths.map((path) => watchPath(path, changed, options.logger));
  return {
    close: () => {
      closed = true;
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}

/** A folder recursively; a file through its folder, reporting only that file's name. */
function watchPath(path: string, changed: (name: string) => void, logger: WatchOptions['logger']): FSWatcher {
  const isFile = statSync(path).isFile();
  const watcher = isFile
    ? watch(dirname(path), (_event, name) => {
        if (name === basename(path)) changed(name);
      })
    : watch(path, { recursive: true }, (_event, name) => changed(name ?? ''));
  watcher.on('error', (error) => logger.warn({ path, error: error.message }, 'watching stopped'));
  return watcher;
}

/** Hidden folders (.flowmcp's cache, .git) and dependencies hold no schema or list. */
function ignored(relativePath: string): boolean {
  return relativePath.split(sep).some((part) => part.startsWith('.') || part === 'node_modules');
}

/** Errors new since the catalog replaced (a file rejected at start is not reported again on every reload). */
function reportReload(previous: Catalog, catalog: Catalog, logger: WatchOptions['logger']): void {
  const reported = new Set(previous.findings().filter(isError).map(formatFinding));
  for (const report of catalog.schemaReports) {
    const errors = report.findings.filter(isError);
    if (errors.every((finding) => reported.has(formatFinding(finding)))) continue;
    const findings = errors.map(formatFinding);
    logger.warn({ file: report.file, findings }, report.lastGood ? 'schema file has errors; the version served before stays served' : 'schema file has errors');
  }
  const listErrors = catalog.listReports.flatMap((report) => report.findings.filter(isError)).map(formatFinding);
  const newListErrors = listErrors.filter((finding) => !reported.has(finding));
  if (newListErrors.length > 0) logger.warn({ findings: newListErrors }, 'shared lists have errors');
  // A key held back shows among the errors above (SEC300, with the command that accepts it).
  logFirstSeenKeys(logger, catalog);
  logger.info({ tools: catalog.visibleTools().length }, 'reloaded');
}
