// The key lock at a catalog's load: reads `.flowmcp/keys.lock.json`, judges every
// schema file that would receive a key against it (judge.ts), records the keys seen for the
// first time, and says what it holds back: a SEC300 finding on each schema file a key is held
// back from, SEC301 on a lock that cannot be used, and the command that accepts the change.

import { existsSync } from 'node:fs';
import { FindingSink, type Finding } from '../report/findings.js';
import { shellWord } from '../shared/shell-word.js';
import { currentHoldings, holdBack, type HoldingTool } from './holders.js';
import { judgeHoldings, plainHoldings, type CurrentHolder, type HeldKey } from './judge.js';
import {
  keyLockPath,
  readKeyLock,
  writeKeyLock,
  type KeyHolder,
  type KeyHoldings,
  type LockRead,
} from './lock-file.js';

/** `record`: keys seen for the first time are written to the lock; `check`: judged only, nothing written. */
export type KeyLockMode = 'record' | 'check';
export type KeyLockSetting = KeyLockMode | 'off';

interface KeyLockOptions {
  project: string;
  /** The schemas and lists folders as the command named them: the command that accepts a change names them again. */
  schemas: string;
  lists?: string;
  mode: KeyLockMode;
}

/**
 * The key lock of a catalog just compiled: judges who would receive each key (`hasValue`: the
 * operator gave the key a value for the namespace), hides the tools of every file a key is held
 * back from, and returns the report; null when the lock is off. Without a `setting`, the lock
 * applies where the project has a lock file (a program embedding flowguard opts in with `record`).
 */
export function openKeyLock(
  {
    setting,
    project,
    schemas,
    lists,
  }: { setting: KeyLockSetting | undefined; project: string; schemas: string; lists?: string },
  tools: readonly HoldingTool[],
  hasValue: (key: string, namespace: string) => boolean,
): KeyLockReport | null {
  const mode = setting ?? (existsSync(keyLockPath(project)) ? 'record' : 'off');
  if (mode === 'off') return null;
  const report = KeyLockReport.apply({ project, schemas, lists, mode }, currentHoldings(tools, project, hasValue));
  holdBack(tools, (path) => report.heldKeys(path));
  return report;
}

/** The folders `flowguard` commands take by default: the accept command leaves them out. */
const DEFAULT_FOLDERS: Record<'schemas' | 'lists' | 'project', string | undefined> = {
  schemas: 'schemas',
  lists: undefined,
  project: '.',
};

export class KeyLockReport {
  /** The keys of each schema file (by its path as the catalog names it) that are held back. */
  private readonly heldByPath = new Map<string, string[]>();

  private constructor(
    private readonly options: KeyLockOptions,
    /** The lock file. */
    readonly file: string,
    readonly lock: LockRead,
    /** Every schema file that would receive each key now (keys without a value, or not granted, are not here). */
    readonly current: KeyHoldings,
    /** Keys the lock had no entry for, and the holders taken for them. */
    readonly firstSeen: ReadonlyMap<string, readonly KeyHolder[]>,
    readonly held: readonly HeldKey[],
    /** Whether the first-seen keys are now in the lock file; false in `check` mode or when writing failed. */
    readonly recorded: boolean,
    /** Why the first-seen keys could not be written. */
    readonly writeError: string | null,
  ) {
    for (const { key, holder } of held)
      this.heldByPath.set(holder.path, [...(this.heldByPath.get(holder.path) ?? []), key]);
  }

  static apply(options: KeyLockOptions, current: ReadonlyMap<string, readonly CurrentHolder[]>): KeyLockReport {
    const file = keyLockPath(options.project);
    const lock = readKeyLock(file);
    const { firstSeen, held } = judgeHoldings(current, lock);
    let recorded = false;
    let writeError: string | null = null;
    const toRecord = [...firstSeen].filter(([, holders]) => holders.length > 0);
    if (options.mode === 'record' && toRecord.length > 0) {
      try {
        recordFirstSeen(file, toRecord);
        recorded = true;
      } catch (error) {
        writeError = (error as Error).message;
      }
    }
    return new KeyLockReport(options, file, lock, plainHoldings(current), firstSeen, held, recorded, writeError);
  }

  /** The keys held back from the schema file at `path` (as the catalog names it). */
  heldKeys(path: string): readonly string[] {
    return this.heldByPath.get(path) ?? [];
  }

  /** `flowguard keys accept [KEY ...]`, with the folders of this catalog where they are not the defaults. */
  acceptCommand(keys: readonly string[] = []): string {
    const folders = (['schemas', 'lists', 'project'] as const).flatMap((name) => {
      const folder = this.options[name];
      return folder === undefined || folder === DEFAULT_FOLDERS[name] ? [] : [`--${name}`, shellWord(folder)];
    });
    return ['flowguard', 'keys', 'accept', ...keys, ...folders].join(' ');
  }

  /** SEC301 for a lock that cannot be used; null otherwise. */
  get problem(): Finding | null {
    if (this.lock.state !== 'unusable') return null;
    const sink = new FindingSink(this.file);
    sink.add(
      'SEC301',
      undefined,
      `${this.lock.problem}: every key is held back until the file is fixed, or replaced after review with \`${this.acceptCommand()}\``,
    );
    return sink.findings[0] ?? null;
  }

  /** One SEC300 finding for each key held back from a schema file, on that file. */
  findings(): Finding[] {
    return this.held.map(({ key, holder, why }) => {
      const sink = new FindingSink(holder.path);
      sink.add(
        'SEC300',
        'main.requiredServerParams',
        `${key} is held back from this file (${holder.file}, namespace '${holder.namespace}', ${holder.origins.join(', ')}): ${why}. Its tools are hidden; once the change is reviewed, accept it: ${this.acceptCommand([key])}`,
      );
      return sink.findings[0] as Finding;
    });
  }
}

/**
 * Adds the first-seen keys to the lock as it is on disk now (another replica may have written
 * it since it was read); a key some writer recorded meanwhile keeps that record.
 */
function recordFirstSeen(file: string, toRecord: ReadonlyArray<readonly [string, readonly KeyHolder[]]>): void {
  const fresh = readKeyLock(file);
  if (fresh.state === 'unusable')
    throw new Error(`the lock changed while loading and cannot be used (${fresh.problem})`);
  const keys = new Map(fresh.state === 'read' ? fresh.keys : []);
  for (const [key, holders] of toRecord) if (!keys.has(key)) keys.set(key, holders);
  writeKeyLock(file, keys);
}
