// The key lock file, `.flowmcp/keys.lock.json`: for each key, the schema files that
// receive it, with the namespace each claims and the origins each binds the key to. It is the
// operator's word on where a key may go, reviewed and committed like a lockfile, so it holds
// names only, never a key's value. It sits in the operator's folder, but a checkout can bring
// any text: it is read bounded and checked field by field, and a file that is not a lock is
// reported (SEC301), never half-used.

import { openSync, closeSync, readSync, fstatSync } from 'node:fs';
import { join } from 'node:path';
import { UnwritableFileError } from '../errors/flowguard-error.js';
import { isRecord } from '../shared/raw.js';
import { compareStrings } from '../shared/sorted-json.js';
import { writeWhole } from '../shared/write-whole.js';

/** Version of the file's shape: a lock of another version is not read as this one. */
const LOCK_FORMAT = 1;
/** Largest lock read or written: far above a catalog of thousands of keyed schema files. */
const MAX_LOCK_BYTES = 1_048_576;
/** Longest key name, file, namespace or origin in the lock. */
const MAX_TEXT = 1024;
/** Most holders of one key, and most origins of one holder. */
const MAX_ENTRIES = 10_000;
const ABOUT =
  'Where each key may go: the schema files (relative to the project folder) that receive it, their namespaces and the origins they bind it to. No values. Change it with `flowguard keys accept` after reviewing.';

/** One schema file that receives a key: where it is, what it claims, where the key may go from it. */
export interface KeyHolder {
  /** The schema file, relative to the project folder (where the lock is), with `/` separators. */
  file: string;
  namespace: string;
  /** The origins the key is bound to from this file (its root's first), sorted. */
  origins: readonly string[];
}

/** Holders by key name. */
export type KeyHoldings = ReadonlyMap<string, readonly KeyHolder[]>;

export type LockRead =
  | { state: 'absent' }
  | { state: 'read'; keys: KeyHoldings }
  /** The file is there but is no lock this flowguard can use: `problem` says why. */
  | { state: 'unusable'; problem: string };

export function keyLockPath(projectDir: string): string {
  return join(projectDir, '.flowmcp', 'keys.lock.json');
}

export function readKeyLock(file: string): LockRead {
  let text: string;
  try {
    const read = readBounded(file);
    if (read === null) return { state: 'unusable', problem: `larger than ${MAX_LOCK_BYTES} bytes` };
    text = read;
  } catch (error) {
    // No file there (ENOTDIR: `.flowmcp` is no folder, so it holds no lock either).
    if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return { state: 'absent' };
    return {
      state: 'unusable',
      problem: `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    // A RangeError of a hostile nesting lands here too.
    return { state: 'unusable', problem: `not valid JSON (${(error as Error).message.slice(0, 200)})` };
  }
  // JSON.parse keeps the last of two equal names; a reviewer reads the first.
  const twice = firstRepeatedName(text);
  if (twice !== null) return { state: 'unusable', problem: `${JSON.stringify(twice.slice(0, 80))} is written twice` };
  const keys = parseLock(data);
  return typeof keys === 'string' ? { state: 'unusable', problem: keys } : { state: 'read', keys };
}

/** The text of a lock: keys and holders sorted, so that a change is a small diff. */
function lockText(keys: KeyHoldings): string {
  const entries = [...keys].filter(([, holders]) => holders.length > 0).sort(([a], [b]) => compareStrings(a, b));
  const data = {
    about: ABOUT,
    format: LOCK_FORMAT,
    keys: Object.fromEntries(
      entries.map(([key, holders]) => [
        key,
        sortHolders(holders).map(({ file, namespace, origins }) => ({
          file,
          namespace,
          origins: [...origins].sort(compareStrings),
        })),
      ]),
    ),
  };
  return `${JSON.stringify(data, null, 2)}\n`;
}

/**
 * Writes the lock whole (writeWhole), so a reader (another replica, a reload) sees the old lock or
 * the new one, never half of one. Throws ERR013 when it cannot (the folder or the disk refused, or
 * the lock is past its bound): not a bug, but what `keys accept` ends with and what a load reports
 * as the lock not recorded.
 */
export function writeKeyLock(file: string, keys: KeyHoldings): void {
  const text = lockText(keys);
  if (Buffer.byteLength(text) > MAX_LOCK_BYTES)
    throw new UnwritableFileError(file, `the lock would be larger than ${MAX_LOCK_BYTES} bytes`);
  try {
    writeWhole(file, text, 0o644);
  } catch (error) {
    throw new UnwritableFileError(file, error);
  }
}

function sortHolders(holders: readonly KeyHolder[]): KeyHolder[] {
  return [...holders].sort((a, b) => compareStrings(a.file, b.file) || compareStrings(a.namespace, b.namespace));
}

/** The file's text, or null when it is larger than the bound (read no further than that). */
function readBounded(file: string): string | null {
  const fd = openSync(file, 'r');
  try {
    if (!fstatSync(fd).isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
    const buffer = Buffer.alloc(MAX_LOCK_BYTES + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read)
      read = readSync(fd, buffer, length, buffer.length - length, null);
    return length > MAX_LOCK_BYTES ? null : buffer.toString('utf8', 0, length);
  } finally {
    closeSync(fd);
  }
}

/**
 * The first name an object of `text` (valid JSON) writes twice, or null. A walk over its tokens:
 * a stack of the names seen in each open object (null for an array).
 */
function firstRepeatedName(text: string): string | null {
  const open: Array<Set<string> | null> = [];
  let atName = false;
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at];
    if (char === '"') {
      let end = at + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const names = open.at(-1);
      if (atName && names) {
        const name = JSON.parse(text.slice(at, end + 1)) as string;
        if (names.has(name)) return name;
        names.add(name);
      }
      atName = false;
      at = end;
    } else if (char === '{' || char === '[') {
      open.push(char === '{' ? new Set() : null);
      atName = char === '{';
    } else if (char === '}' || char === ']') {
      open.pop();
      atName = false;
    } else if (char === ',') atName = open.at(-1) instanceof Set;
  }
  return null;
}

/** The holdings of a parsed lock, or what is wrong with it (the first problem, with where). */
function parseLock(data: unknown): Map<string, KeyHolder[]> | string {
  if (!isRecord(data)) return 'not a JSON object';
  const unknown = Object.keys(data).find((name) => !['about', 'format', 'keys'].includes(name));
  if (unknown !== undefined) return `unknown field ${JSON.stringify(unknown.slice(0, 80))}`;
  if (data.format !== LOCK_FORMAT) return `format must be ${LOCK_FORMAT}`;
  if (!isRecord(data.keys)) return 'keys must be an object of key names';
  const keys = new Map<string, KeyHolder[]>();
  for (const [key, holders] of Object.entries(data.keys)) {
    const at = `keys[${JSON.stringify(key.slice(0, 80))}]`;
    if (!isText(key)) return `${at}: a key name must be 1 to ${MAX_TEXT} printable characters`;
    if (!Array.isArray(holders) || holders.length > MAX_ENTRIES)
      return `${at} must be an array of at most ${MAX_ENTRIES} holders`;
    const parsed: KeyHolder[] = [];
    for (const [index, holder] of holders.entries()) {
      const problem = holderProblem(holder);
      if (problem) return `${at}[${index}]: ${problem}`;
      parsed.push(holder as KeyHolder);
    }
    keys.set(
      key,
      parsed.map(({ file, namespace, origins }) => ({ file, namespace, origins: [...origins] })),
    );
  }
  return keys;
}

/** Why the lock could not read `holder` back (a control character in its file's name, say); null when it can. */
export function holderProblem(holder: unknown): string | null {
  if (!isRecord(holder)) return 'must be { file, namespace, origins }';
  const unknown = Object.keys(holder).find((name) => !['file', 'namespace', 'origins'].includes(name));
  if (unknown !== undefined) return `unknown field ${JSON.stringify(unknown.slice(0, 80))}`;
  if (!isText(holder.file)) return `file must be 1 to ${MAX_TEXT} printable characters`;
  if (!isText(holder.namespace)) return `namespace must be 1 to ${MAX_TEXT} printable characters`;
  if (
    !Array.isArray(holder.origins) ||
    holder.origins.length === 0 ||
    holder.origins.length > MAX_ENTRIES ||
    !holder.origins.every(isText)
  ) {
    return `origins must be an array of 1 to ${MAX_ENTRIES} origins`;
  }
  return null;
}

// No control characters: what the lock says is printed to terminals and logs as it is.
const PRINTABLE = /^[^\p{Cc}\p{Cf}]+$/u;

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_TEXT && PRINTABLE.test(value);
}
