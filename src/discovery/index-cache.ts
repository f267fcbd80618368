// A cache of built search indexes in the project's `.flowmcp/cache/search/` (beside the check
// cache, as trusted as the config): a server that starts on the same tools again reads the index
// (about 1 ms) instead of building it (the words of 2,000 tools split, folded and counted). The
// key is a SHA-256 over everything the index is made of: flowguard's version, the format below,
// the word tables, and every document's text in order (as the keys of its schema files' texts,
// which term-cache.ts keys on too: the text is serialised and hashed once), so a changed tool, a
// tool granted or withdrawn, or another group misses it. A few indexes are kept (the whole catalog and its
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
const FORMAT = 3;
/** Indexes kept: the catalog's, and a few groups' endpoints. */
const KEEP = 8;
const SUFFIX = '.index';

export function searchCacheDir(project: string): string {
  return join(project, '.flowmcp', 'cache', 'search');
}

/**
 * The postings of `documentCount` documents keyed `key()` (indexKey, textKey) from the cache in
 * `dir` (`cached`), or built by `build` and stored there; `stored` settles when they are. Where no
 * index is cached at all (a first start) none can be found: the key, which serialises and hashes
 * every tool's text, is made only to store the postings, after they are built, off a start's path.
 */
export function cachedPostings(
  dir: string,
  key: () => string,
  documentCount: number,
  build: () => Postings,
): { postings: Postings; cached: boolean; stored: Promise<void> } {
  if (!holdsIndexes(dir)) {
    const built = build();
    const stored = new Promise<void>((resolve) =>
      setImmediate(() => {
        store(dir, join(dir, `${key()}${SUFFIX}`), built);
        resolve();
      }),
    );
    return { postings: built, cached: false, stored };
  }
  const file = join(dir, `${key()}${SUFFIX}`);
  const found = readPostings(file);
  if (found && found.documentCount === documentCount)
    return { postings: found, cached: true, stored: Promise.resolve() };
  const built = build();
  store(dir, file, built);
  return { postings: built, cached: false, stored: Promise.resolve() };
}

function holdsIndexes(dir: string): boolean {
  try {
    return readdirSync(dir).some((name) => name.endsWith(SUFFIX));
  } catch {
    // No folder yet: nothing cached.
    return false;
  }
}

/** The key of a text as the cached form `kind` (`terms` for a schema file's, term-cache.ts): a SHA-256 of what every cached form depends on, then the text. */
export function textKey(kind: string, text: unknown): string {
  return cacheKey(kind).update(JSON.stringify(text)).digest('hex');
}

/** The key of the index whose documents are the schema files' texts keyed `fileKeys` (textKey), `members[f]` the places of file f's tools among them. */
export function indexKey(fileKeys: readonly string[], members: readonly (readonly number[])[]): string {
  return cacheKey('index')
    .update(JSON.stringify([fileKeys, members]))
    .digest('hex');
}

/** Per kind, a SHA-256 begun with what every cached form depends on besides its text: begun once and copied, as hundreds of files are keyed at a start. */
const begun = new Map<string, Hash>();

function cacheKey(kind: string): Hash {
  let hash = begun.get(kind);
  if (hash === undefined) {
    hash = createHash('sha256')
      .update(JSON.stringify([FORMAT, flowguardVersion(), WORD_TABLES, kind]))
      .update('\0');
    begun.set(kind, hash);
  }
  return hash.copy();
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
