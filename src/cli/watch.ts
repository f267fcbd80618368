// `serve --watch`: the schema and list folders are watched; a change loads the catalog again
// (files whose text did not change come from the check cache) and swaps it into the live holder,
// which tells every connected client (`notifications/tools/list_changed`). A file whose new text
// has errors keeps the version served before (Catalog.load's `previous`), and its findings are
// logged as warnings; a load that fails as a whole (a broken config) keeps the whole catalog.

import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, sep } from 'node:path';
import type { LiveCatalog } from '../catalog/live-catalog.js';
import type { Catalog } from '../catalog/load.js';
import { isError } from '../report/findings.js';
import { formatFinding, plural } from '../report/format.js';

export interface CatalogWatch {
  close(): void;
}

export interface WatchOptions {
  /** Folders watched recursively, or single files (their folder is watched for them). */
  paths: readonly string[];
  /** The catalog afresh, given the one it replaces. */
  load: (previous: Catalog) => Promise<Catalog>;
  /** Where reloads and their problems are reported (one line each). */
  log: (line: string) => void;
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
      reportReload(previous, next, options.log);
      void live.swap(next).catch((error: unknown) => options.log(`flowguard: warning: closing the replaced catalog failed: ${String(error)}`));
      swapped = true;
    } catch (error) {
      options.log(`flowguard: warning: reload failed, the catalog served before stays: ${(error as Error)?.message ?? String(error)}`);
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

  const watchers: FSWatcher[] = options.paths.map((path) => watchPath(path, changed, options.log));
  return {
    close: () => {
      closed = true;
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}

/** A folder recursively; a file through its folder, reporting only that file's name. */
function watchPath(path: string, changed: (name: string) => void, log: (line: string) => void): FSWatcher {
  const isFile = statSync(path).isFile();
  const watcher = isFile
    ? watch(dirname(path), (_event, name) => {
        if (name === basename(path)) changed(name);
      })
    : watch(path, { recursive: true }, (_event, name) => changed(name ?? ''));
  watcher.on('error', (error) => log(`flowguard: warning: watching ${path} stopped: ${error.message}`));
  return watcher;
}

/** Hidden folders (.flowmcp's cache, .git) and dependencies hold no schema or list. */
function ignored(relativePath: string): boolean {
  return relativePath.split(sep).some((part) => part.startsWith('.') || part === 'node_modules');
}

/** Errors new since the catalog replaced (a file rejected at start is not reported again on every reload). */
function reportReload(previous: Catalog, catalog: Catalog, log: (line: string) => void): void {
  const reported = new Set(previous.findings().filter(isError).map(formatFinding));
  for (const report of catalog.schemaReports) {
    const errors = report.findings.filter(isError);
    if (errors.every((finding) => reported.has(formatFinding(finding)))) continue;
    log(report.lastGood ? `flowguard: warning: ${report.file} has errors; the version served before stays served:` : `flowguard: warning: ${report.file} has errors:`);
    for (const finding of errors) log(`  ${formatFinding(finding)}`);
  }
  for (const finding of catalog.listReports.flatMap((report) => report.findings.filter(isError))) {
    if (!reported.has(formatFinding(finding))) log(`flowguard: warning: ${formatFinding(finding)}`);
  }
  log(`flowguard: reloaded; ${plural(catalog.visibleTools().length, 'tool')} served`);
}
