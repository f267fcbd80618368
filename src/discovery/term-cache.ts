// The search index's second cache, per schema file: the file's tools as terms (term-documents.ts),
// in `.flowmcp/cache/search/terms/`, keyed by a SHA-256 of what index-cache.ts keys on (flowguard's
// version, the format, the word tables) and the file's indexed text (index-cache.ts `textKey`). When any tool changed the
// whole index misses (index-cache.ts), but only the changed file's terms are made again: the
// others are read, and assembling postings from terms is cheap. An entry that is not whole and
// well-formed is made afresh and written over.

import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isTermDocuments, type TermDocuments } from './term-documents.js';

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

/**
 * One build's use of the per-file cache in `dir`. Entries made are written by `flush`, after the
 * index is built: writing hundreds of small files cost a cold start more than making the terms.
 */
export class TermCache {
  readonly sources: TermSources = { read: 0, made: 0 };
  private readonly pending: { key: () => string; terms: () => TermDocuments }[] = [];
  /** The entries there when the build began: listed once, so that a cold build does not try (and fail) to open hundreds of files. */
  private listed: Set<string> | undefined;

  constructor(private readonly dir: string) {}

  /**
   * The cached terms of one file of `tools` tools whose text is keyed `key()` (index-cache.ts
   * `textKey`), or null when none are (not cached, or a damaged entry): the build makes them and
   * says so with `made`. With nothing cached the key is not made here.
   */
  read(key: () => string, tools: number, fieldCount: number): TermDocuments | null {
    const listed = this.entries();
    if (listed.size === 0) return null;
    const name = `${key()}${SUFFIX}`;
    const found = listed.has(name) ? readEntry(join(this.dir, name), tools, fieldCount) : null;
    if (found !== null) this.sources.read += 1;
    return found;
  }

  /** One file's terms made by the build, keyed `key()`: `terms` is called by `flush`, after the index is built (postings.ts `termDocuments`). */
  made(key: () => string, terms: () => TermDocuments): void {
    this.sources.made += 1;
    this.pending.push({ key, terms });
  }

  private entries(): Set<string> {
    if (this.listed === undefined) {
      try {
        this.listed = new Set(readdirSync(this.dir));
      } catch {
        // No folder yet: nothing cached.
        this.listed = new Set();
      }
    }
    return this.listed;
  }

  /** Writes the entries made (each written then renamed, so a reader never sees half of one), then prunes; never fails: a read-only project only costs the next build its speed. */
  async flush(): Promise<void> {
    const entries = this.pending.splice(0);
    if (entries.length === 0) return;
    try {
      await mkdir(this.dir, { recursive: true });
      for (const { key, terms } of entries) {
        const file = join(this.dir, `${key()}${SUFFIX}`);
        const temporary = `${file}.${process.pid}.tmp`;
        await writeFile(temporary, JSON.stringify(terms()));
        await rename(temporary, file);
      }
      await prune(this.dir);
    } catch {
      // As above: the cache is an optimisation.
    }
  }
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

/** Removes the oldest entries beyond KEEP. */
async function prune(dir: string): Promise<void> {
  const names = (await readdir(dir)).filter((name) => name.endsWith(SUFFIX));
  if (names.length <= KEEP) return;
  const entries = await Promise.all(
    names.map(async (name) => ({ path: join(dir, name), time: (await stat(join(dir, name))).mtimeMs })),
  );
  entries.sort((a, b) => b.time - a.time);
  for (const { path } of entries.slice(KEEP)) await rm(path, { force: true });
}
