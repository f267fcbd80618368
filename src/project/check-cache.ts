// A cache of schema checks for server start-up (like ESLint's --cache): a file whose text, and
// everything its check depends on, are unchanged since the last start is not parsed and
// validated again. The key is a SHA-256 over flowguard's version, the inputs of the check (the
// effective allowlist, the shared lists) and the file's text, so any change misses the cache.
// The cache lives in the operator's `.flowmcp/cache/` folder, which is as trusted as the config.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import deepFreeze from 'deep-freeze-strict';
import type { SchemaCheck } from '../schema/check.js';
import { flowguardVersion } from '../shared/version.js';
import { writeWhole } from '../shared/write-whole.js';

// 2: a check carries the routes it declares and its findings are scoped (R1); older entries lack both.
// 3: a skill or prompt file's check carries its prompt; an older entry would serve none.
// 4: a schema carries the origins of its reach, read from the text checked.
// 5: a regex() RE2 cannot match in linear time (lookaround) is VAL054; an older entry serves its route.
const FORMAT = 5;

interface CacheFile {
  format: number;
  entries: Record<string, { key: string; check: SchemaCheck }>;
}

export class CheckCache {
  private changed = false;

  private constructor(
    private readonly file: string,
    private readonly salt: string,
    private readonly entries: CacheFile['entries'],
  ) {}

  /** Opens the project's cache; `inputs` is everything besides the file text that a check reads. */
  static open(projectDir: string, inputs: unknown): CheckCache {
    const file = join(projectDir, '.flowmcp', 'cache', 'checks.json');
    const salt = JSON.stringify({ version: flowguardVersion(), inputs });
    let entries: CacheFile['entries'] = {};
    try {
      const data = JSON.parse(readFileSync(file, 'utf8')) as CacheFile;
      if (data.format === FORMAT && typeof data.entries === 'object' && data.entries !== null) entries = data.entries;
    } catch {
      // No cache yet, or an unreadable one: every file is checked afresh.
    }
    return new CheckCache(file, salt, entries);
  }

  private keyOf(text: string): string {
    return createHash('sha256').update(this.salt).update('\0').update(text).digest('hex');
  }

  lookup(path: string, text: string): SchemaCheck | undefined {
    const entry = this.entries[path];
    if (!entry || entry.key !== this.keyOf(text) || !isCheck(entry.check)) return undefined;
    // Handlers get the shared lists frozen, as a fresh check leaves them.
    if (entry.check.schema) deepFreeze(entry.check.schema.resolvedLists);
    return entry.check;
  }

  store(path: string, text: string, check: SchemaCheck): void {
    this.entries[path] = { key: this.keyOf(text), check };
    this.changed = true;
  }

  /** Writes the cache if anything changed, whole (writeWhole): a reader never sees half a file. */
  save(): void {
    if (!this.changed) return;
    try {
      writeWhole(this.file, JSON.stringify({ format: FORMAT, entries: this.entries } satisfies CacheFile));
      this.changed = false;
    } catch {
      // A read-only project folder only costs the next start its speed.
    }
  }
}

/**
 * Whether a stored entry's check has a check's form at the top (findings, a schema or null): one
 * edited by hand or written by a build of the same version whose checks had another shape is a
 * miss, checked afresh, not a TypeError at start. Below that the cache is trusted as the config is.
 */
function isCheck(value: unknown): value is SchemaCheck {
  if (typeof value !== 'object' || value === null) return false;
  const { file, findings, schema } = value as Partial<SchemaCheck>;
  return typeof file === 'string' && Array.isArray(findings) && typeof schema === 'object';
}
