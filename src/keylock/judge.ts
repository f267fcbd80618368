// What the key lock allows: every schema file that would receive a key now is compared
// with what the lock records for that key. A holder recorded as it is now receives the key; any
// other (another file, another namespace, another origin) is held back until the operator
// accepts the change. A key the lock has never seen is recorded as it is first seen, except that
// one namespace goes to one file: of two files claiming a namespace, the one the lock records
// keeps it, and without a record the first in path order does.

import { compareStrings } from '../shared/sorted-json.js';
import { holderProblem, type KeyHolder, type KeyHoldings, type LockRead } from './lock-file.js';

/** A schema file that would receive a key now, with its path as the catalog names it (for findings). */
export interface CurrentHolder extends KeyHolder {
  path: string;
}

/** A key held back from one schema file, and why, in words. */
export interface HeldKey {
  key: string;
  holder: CurrentHolder;
  /** What the lock records for the key (empty when it records nothing usable). */
  recorded: readonly KeyHolder[];
  why: string;
}

export interface Judgement {
  /** Keys the lock has no entry for, with the holders to record for them. */
  firstSeen: Map<string, KeyHolder[]>;
  held: HeldKey[];
}

/** `current`: by key, every schema file that would receive it, in path order. */
export function judgeHoldings(current: ReadonlyMap<string, readonly CurrentHolder[]>, lock: LockRead): Judgement {
  const firstSeen = new Map<string, KeyHolder[]>();
  const held: HeldKey[] = [];
  for (const [key, all] of [...current].sort(([a], [b]) => compareStrings(a, b))) {
    // A holder the lock cannot read back is never written into it: recorded, it would make the
    // lock unusable and hold every key back from every file. It alone is held back.
    for (const holder of all) {
      const problem = holderProblem(strip(holder));
      if (problem !== null)
        held.push({
          key,
          holder,
          recorded: [],
          why: `the key lock cannot record this file (its ${problem}, which a reviewer and a parser would read differently): rename it`,
        });
    }
    const holders = all.filter((holder) => holderProblem(strip(holder)) === null);
    if (lock.state === 'unusable') {
      for (const holder of holders)
        held.push({
          key,
          holder,
          recorded: [],
          why: `the key lock cannot be used (${lock.problem}), so no file receives a key until the operator accepts the current state`,
        });
      continue;
    }
    const recorded = lock.state === 'read' ? lock.keys.get(key) : undefined;
    if (recorded === undefined) {
      const taken: KeyHolder[] = [];
      for (const holder of holders) {
        const claimant = taken.find((other) => other.namespace === holder.namespace);
        if (claimant)
          held.push({
            key,
            holder,
            recorded: [],
            why: `namespace '${holder.namespace}' is also claimed by ${claimant.file}, which comes first in path order and was taken as the key's holder when the key was first seen`,
          });
        else taken.push(strip(holder));
      }
      firstSeen.set(key, taken);
      continue;
    }
    for (const holder of holders) {
      const why = changeFromRecord(holder, recorded);
      if (why !== null) held.push({ key, holder, recorded, why });
    }
  }
  return { firstSeen, held };
}

/** Whether two holders are the same file, namespace and origins. */
export function sameHolder(a: KeyHolder, b: KeyHolder): boolean {
  return a.file === b.file && a.namespace === b.namespace && sameOrigins(a.origins, b.origins);
}

/** `file (namespace ns, https://origin, ...)`: a holder as a person reads it. */
export function describeHolder(holder: KeyHolder): string {
  return `${holder.file} (namespace '${holder.namespace}', ${holder.origins.join(', ')})`;
}

/** Null when the lock records `holder` as it is; otherwise what changed, in words. */
function changeFromRecord(holder: CurrentHolder, recorded: readonly KeyHolder[]): string | null {
  if (recorded.some((entry) => sameHolder(entry, holder))) return null;
  const sameFile = recorded.find((entry) => entry.file === holder.file);
  if (sameFile) {
    const changes: string[] = [];
    if (sameFile.namespace !== holder.namespace)
      changes.push(`it claimed namespace '${sameFile.namespace}' and now claims '${holder.namespace}'`);
    if (!sameOrigins(sameFile.origins, holder.origins)) {
      const added = holder.origins.filter((origin) => !sameFile.origins.includes(origin));
      changes.push(
        `it bound the key to ${sameFile.origins.join(', ')} and now binds it to ${holder.origins.join(', ')}${added.length > 0 ? ` (new: ${added.join(', ')})` : ''}`,
      );
    }
    return `the key lock records this file as ${describeHolder(sameFile)}; ${changes.join(', and ')}`;
  }
  const claimant = recorded.find((entry) => entry.namespace === holder.namespace);
  if (claimant)
    return `namespace '${holder.namespace}' is claimed by ${claimant.file}, which the key lock records as the key's holder there; this file claims it too`;
  return `the key lock records it for ${recorded.map(describeHolder).join('; ')}, and not for this file`;
}

function sameOrigins(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((origin) => b.includes(origin));
}

function strip({ file, namespace, origins }: KeyHolder): KeyHolder {
  return { file, namespace, origins };
}

/** Holdings as a plain map (the current ones the lock can record, without the catalog's paths). */
export function plainHoldings(current: ReadonlyMap<string, readonly CurrentHolder[]>): KeyHoldings {
  return new Map(
    [...current].map(([key, holders]) => [key, holders.map(strip).filter((holder) => holderProblem(holder) === null)]),
  );
}
