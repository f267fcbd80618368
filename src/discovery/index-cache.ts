// A cache of built search indexes in the project's `.flowmcp/cache/search/` (beside the check
// cache, as trusted as the config): a server that starts on the same tools again reads the index
// (about 1 ms) instead of building it (the words of 2,000 tools split, folded and counted). The
// key is a SHA-256 over everything the index is made of: flowguard's version, the format below,
// the word tables, and every document's text in order, so a changed tool, a tool granted or
// withdrawn, or another group misses it. A few indexes are kept (the whole catalog and its
// groups' endpoints); the oldest beyond that are removed. When it misses, term-cache.ts still has
// the unchanged schema files' terms.

import { createHash, type Hash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { flowguardVersion } from '../shared/version.js';
import { decodePostings, encodePostings } from './postings-file.js';
import type { Postings } from './postings.js';
import { WORD_TABLES } from './words.js';

// Bumped whenever what is stored for the same text changes: the words' rules (stemming, splitting), the fields, the layout.
const FORMAT = 1;
/** Indexes kept: the catalog's, and a few groups' endpoints. */
const KEEP = 8;
const SUFFIX = '.index';

export function searchCacheDir(project: string): string {
  return join(project, '.flowmcp', 'cache', 'search');
}

/** The postings of `documents` from the cache in `dir` (`cached`), or built by `build` and stored there. */
export function cachedPostings(dir: string, documents: readonly (readonly (readonly string[])[])[], build: () => Postings): { postings: Postings; cached: boolean } {
  const key = cacheKey('index').update(JSON.stringify(documents)).digest('hex');
  const file = join(dir, `${key}${SUFFIX}`);
  const found = readPostings(file);
  if (found && found.documentCount === documents.length) return { postings: found, cached: true };
  const built = build();
  store(dir, file, built);
  return { postings: built, cached: false };
}

/** A SHA-256 begun with what every cached form depends on besides its text (`kind` tells the forms apart); the caller adds the text. */
export function cacheKey(kind: string): Hash {
  return createHash('sha256').update(JSON.stringify([FORMAT, flowguardVersion(), WORD_TABLES, kind])).update('\0');
}

function readPostings(file: string): Postings | null {
  try {
    return decodePostings(readFileSync(file));
  } catch {
    // Not cached yet (or unreadable): built afresh.
    return null;
  }
}

/** Write and rename, so a reader never sees half a file; a read-only project only costs the next start its speed. */
function store(dir: string, file: string, postings: Postings): void {
  try {
    mkdirSync(dir, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, encodePostings(postings));
    renameSync(temporary, file);
    prune(dir);
  } catch {
    // As above: the cache is an optimisation.
  }
}

function prune(dir: string): void {
  const entries = readdirSync(dir)
    .filter((name) => name.endsWith(SUFFIX))
    .map((name) => ({ path: join(dir, name), time: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.time - a.time);
  for (const { path } of entries.slice(KEEP)) rmSync(path, { force: true });
}
