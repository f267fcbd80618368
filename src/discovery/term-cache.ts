// The search index's second cache, per schema file: the file's tools as terms (term-documents.ts),
// in `.flowmcp/cache/search/terms/`, keyed by a SHA-256 of what index-cache.ts keys on (flowguard's
// version, the format, the word tables) and the file's indexed text. When any tool changed the
// whole index misses (index-cache.ts), but only the changed file's terms are made again: the
// others are read, and assembling postings from terms is cheap. An entry that is not whole and
// well-formed is made afresh and written over.

import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheKey } from './index-cache.js';
import { isTermDocuments, type PieceDocument, type TermDocuments } from './term-documents.js';

/** Entries kept: a catalog's files several times over (its groups' endpoints, a few versions of each file). */
const KEEP = 4096;
const SUFFIX = '.terms';

export function termCacheDir(searchDir: string): string {
  return join(searchDir, 'terms');
}

/** How a build found its files' terms. */
export interface TermSources {
  /** Files whose terms were read from the cache. */
  read: number;
  /** Files whose terms were made (not cached, or a damaged entry). */
  made: number;
}

/** One file's terms, read from `dir` or made by `make` and stored there; counts the outcome in `sources`. */
export function cachedTermDocuments(dir: string, documents: readonly PieceDocument[], fieldCount: number, make: () => TermDocuments, sources: TermSources): TermDocuments {
  const file = join(dir, `${cacheKey('terms').update(JSON.stringify(documents)).digest('hex')}${SUFFIX}`);
  const found = readEntry(file, documents.length, fieldCount);
  if (found !== null) {
    sources.read += 1;
    return found;
  }
  const made = make();
  sources.made += 1;
  store(dir, file, made);
  return made;
}

function readEntry(file: string, tools: number, fieldCount: number): TermDocuments | null {
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return isTermDocuments(value, tools, fieldCount) ? value : null;
  } catch {
    // Not cached yet, unreadable or not JSON: made afresh.
    return null;
  }
}

/** Write and rename, so a reader never sees half an entry; a read-only project only costs the next build its speed. */
function store(dir: string, file: string, terms: TermDocuments): void {
  try {
    mkdirSync(dir, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(terms));
    renameSync(temporary, file);
  } catch {
    // As above: the cache is an optimisation.
  }
}

/** Removes the oldest entries beyond KEEP; called once after a build that wrote any. */
export function pruneTermCache(dir: string): void {
  try {
    const names = readdirSync(dir).filter((name) => name.endsWith(SUFFIX));
    if (names.length <= KEEP) return;
    const entries = names.map((name) => ({ path: join(dir, name), time: statSync(join(dir, name)).mtimeMs })).sort((a, b) => b.time - a.time);
    for (const { path } of entries.slice(KEEP)) rmSync(path, { force: true });
  } catch {
    // A folder that cannot be listed holds nothing to prune.
  }
}
