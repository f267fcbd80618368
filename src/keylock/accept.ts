// The operator's word (`flowguard keys accept [KEY ...]`): after reviewing what the key lock held
// back, the named keys (or every key) are recorded as they are held now, and what that changes
// in the lock is said holder by holder.

import { compareStrings } from '../shared/sorted-json.js';
import { describeHolder, sameHolder } from './judge.js';
import type { KeyLockReport } from './key-lock.js';
import type { KeyHolder, KeyHoldings } from './lock-file.js';

export interface AcceptedLock {
  /** The lock to write. */
  keys: KeyHoldings;
  /** What changes, one line per holder added (`+`) or removed (`-`), by key. */
  changes: string[];
}

/** The lock with `named` keys (none: every key) recorded as held now; a string says why it cannot be. */
export function acceptedLock(report: KeyLockReport, named: readonly string[]): AcceptedLock | string {
  const { lock, current } = report;
  if (lock.state === 'unusable' && named.length > 0) {
    return `${report.file} cannot be used (${lock.problem}): review it, then run \`${report.acceptCommand()}\` (no key) to record every key anew`;
  }
  const before: KeyHoldings = lock.state === 'read' ? lock.keys : new Map();
  const unknown = named.filter((key) => !current.has(key) && !before.has(key));
  if (unknown.length > 0) {
    return `no loaded schema file receives ${unknown.join(', ')} (none declares it with a value granted to its namespace), and the key lock has no entry for it`;
  }
  const targets = named.length > 0 ? [...new Set(named)] : [...new Set([...current.keys(), ...before.keys()])];
  const keys = new Map(before);
  const changes: string[] = [];
  for (const key of targets.sort(compareStrings)) {
    const now = current.get(key) ?? [];
    const was = before.get(key) ?? [];
    if (now.length > 0) keys.set(key, now);
    else keys.delete(key);
    changes.push(...difference(now, was).map((holder) => `${key}  + ${describeHolder(holder)}`));
    changes.push(...difference(was, now).map((holder) => `${key}  - ${describeHolder(holder)}`));
  }
  return { keys, changes };
}

/** The holders of `a` that `b` does not have. */
function difference(a: readonly KeyHolder[], b: readonly KeyHolder[]): KeyHolder[] {
  return a.filter((holder) => !b.some((other) => sameHolder(holder, other)));
}
