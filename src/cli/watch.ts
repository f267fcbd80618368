// `serve --watch`: the schema and list folders are watched; a change loads the catalog again
// (files whose text did not change come from the check cache) and swaps it into the live holder,
// which tells every connected client (`notifications/tools/list_changed`). A file whose new text
// has errors keeps the version served before (Catalog.load's `previous`), and its findings are
// logged at warn; a load that fails as a whole (a broken config) keeps the whole catalog. Reloads
// go to serve's structured log (pino), one entry each, like every other event of a running server.
// The watching itself is chokidar's: Node 20's recursive `fs.watch` loses a file once an editor's
// atomic save has renamed another over it, and later in-place writes went unnoticed.

import { realpathSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import type { LiveCatalog } from '../mcp/live-catalog.js';
import type { Catalog } from '../runtime/catalog.js';
import type { Logger } from '../observe/logger.js';
import { isError } from '../report/findings.js';
import { formatFinding } from '../report/format.js';
import { logFirstSeenKeys } from './serve-observe.js';

export interface CatalogWatch {
  close(): Promise<void>;
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
/**
 * Longest a reload waits after the first change of a stream that never pauses (a file written
 * every few milliseconds, by a tool or an attacker): waiting for quiet alone, a deleted file's
 * tools stayed served for as long as the writes went on.
 */
const MAX_WAIT_MS = 2000;

/** Starts watching; resolves once the watcher has read the folders, so a change after it is seen. */
export async function watchCatalog(live: LiveCatalog<Catalog>, options: WatchOptions): Promise<CatalogWatch> {
  const debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  let timer: NodeJS.Timeout | undefined;
  /** When the first change not yet reloaded came (performance.now()); undefined when none waits. */
  let firstChange: number | undefined;
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
      void live
        .swap(next)
        .catch((error: unknown) =>
          options.logger.warn({ error: String(error) }, 'closing the replaced catalog failed'),
        );
      swapped = true;
    } catch (error) {
      options.logger.warn(
        { error: (error as Error)?.message ?? String(error) },
        'reload failed; the catalog served before stays',
      );
    } finally {
      reloading = false;
      options.onReload?.(swapped);
    }
    if (again && !closed) {
      again = false;
      await reload();
    }
  };

  const changed = () => {
    if (closed) return;
    const now = performance.now();
    firstChange ??= now;
    clearTimeout(timer);
    const wait = Math.max(0, Math.min(debounceMs, firstChange + Math.max(debounceMs, MAX_WAIT_MS) - now));
    timer = setTimeout(() => {
      firstChange = undefined;
      void reload();
    }, wait);
  };

  // Loaded only by `serve --watch`: a server that does not watch never pays for it.
  const { watch } = await import('chokidar');
  // A link is no schema file (nothing is read through one, src/scan/source-file.ts): the watcher
  // follows none either, or a link to `/` would have it crawl and watch the whole tree. The roots
  // the operator named are watched where they point.
  const roots = options.paths.map(whereItPoints);
  const outside = (path: string) => roots.every((root) => ignored(relative(root, path)));
  const watcher = watch(roots, { ignoreInitial: true, ignored: outside, followSymlinks: false });
  // Changes come from the raw events below, at once. chokidar's own `change` comes later (after a
  // stat), which made a second reload for one save, and it drops a change that comes right after
  // it re-attached to a file replaced by a rename; the folders' own events see both. Files and
  // folders that appear or go are chokidar's to report (it reads a new folder as it attaches).
  watcher.on('all', (event) => {
    if (event !== 'change') changed();
  });
  watcher.on('raw', (_event, name, details) => {
    const watchedPath = String((details as { watchedPath?: unknown } | undefined)?.watchedPath ?? '');
    const path = name && basename(watchedPath) !== name ? join(watchedPath, name) : watchedPath;
    if (!outside(path)) changed();
  });
  watcher.on('error', (error) =>
    options.logger.warn({ error: error instanceof Error ? error.message : String(error) }, 'watching failed'),
  );
  await new Promise<void>((ready) => watcher.once('ready', () => ready()));
  return {
    close: async () => {
      closed = true;
      clearTimeout(timer);
      await watcher.close();
    },
  };
}

/** The path a root names, its links resolved; itself when it does not exist (yet). */
function whereItPoints(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Hidden folders (.flowmcp's cache, .git) and dependencies hold no schema or list; a path outside the root is not its. */
function ignored(relativePath: string): boolean {
  return (
    relativePath
      .split(sep)
      .some((part) => (part.startsWith('.') && part !== '..' && part !== '.') || part === 'node_modules') ||
    relativePath.startsWith('..')
  );
}

/** Errors new since the catalog replaced (a file rejected at start is not reported again on every reload). */
function reportReload(previous: Catalog, catalog: Catalog, logger: WatchOptions['logger']): void {
  const reported = new Set(previous.findings().filter(isError).map(formatFinding));
  for (const report of catalog.schemaReports) {
    const errors = report.findings.filter(isError);
    if (errors.every((finding) => reported.has(formatFinding(finding)))) continue;
    const findings = errors.map(formatFinding);
    logger.warn(
      { file: report.file, findings },
      report.lastGood ? 'schema file has errors; the version served before stays served' : 'schema file has errors',
    );
  }
  const listErrors = catalog.listReports.flatMap((report) => report.findings.filter(isError)).map(formatFinding);
  const newListErrors = listErrors.filter((finding) => !reported.has(finding));
  if (newListErrors.length > 0) logger.warn({ findings: newListErrors }, 'shared lists have errors');
  // A key held back shows among the errors above (SEC300, with the command that accepts it).
  logFirstSeenKeys(logger, catalog);
  logger.info({ tools: catalog.visibleTools().length }, 'reloaded');
}
