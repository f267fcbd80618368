// The list registry: every list file of a folder, checked one by one and then against each
// other (unique names LST002, dependencies LST009–LST011). A list with any error is reported
// and left out; the others still load (RULINGS R1).

import { childPath, type FindingSink } from '../findings.js';
import { selectSchemaFiles } from '../catalog/files.js';
import { checkListFile, type ListCheck } from './check.js';
import type { ListDependency, ListRegistry, SharedList } from './types.js';

/** A root list (no `dependsOn`) is level 1, a list depending on it level 2; deeper than this is LST011. */
export const MAX_DEPTH = 3;

type Loadable = ListCheck & { list: SharedList };

/** Every `*.mjs` below `dir`, recursively; a folder that does not exist is an empty registry. */
export function loadListRegistry(dir: string): ListRegistry {
  return loadListFiles(selectSchemaFiles([dir]).files);
}

/** The registry of these list files, in this order. */
export function loadListFiles(files: readonly string[]): ListRegistry {
  return buildListRegistry(files.map(checkListFile));
}

/** The registry of checked list files; of two files with one name, the earlier one keeps it. */
export function buildListRegistry(checks: readonly ListCheck[]): ListRegistry {
  const owners = claimNames(checks);
  const lists = new Dependencies(owners).resolve();
  return { lists, findings: checks.flatMap((check) => check.sink.findings), files: checks.map((check) => check.file) };
}

/** The first file of each readable `meta.name` owns it; later files of that name get LST002. */
function claimNames(checks: readonly ListCheck[]): Map<string, ListCheck> {
  const owners = new Map<string, ListCheck>();
  for (const check of checks) {
    if (check.name === null) continue;
    const owner = owners.get(check.name);
    if (owner) {
      check.sink.add('LST002', 'list.meta.name', `the list name '${check.name}' is already taken by ${owner.file}`, 'list names are unique across the lists folder; rename one of them');
    } else {
      owners.set(check.name, check);
    }
  }
  return owners;
}

class Dependencies {
  /** Lists without errors of their own, by name. */
  private readonly candidates = new Map<string, Loadable>();
  /** The dependency level of each candidate, or null when it cannot load. */
  private readonly levels = new Map<string, number | null>();

  constructor(private readonly owners: ReadonlyMap<string, ListCheck>) {
    for (const [name, check] of owners) if (check.list) this.candidates.set(name, check as Loadable);
  }

  resolve(): Map<string, SharedList> {
    for (const candidate of this.candidates.values()) this.reportCycle(candidate);
    const lists = new Map<string, SharedList>();
    for (const [name, candidate] of this.candidates) if (this.levelOf(candidate) !== null) lists.set(name, candidate.list);
    return lists;
  }

  /** LST010 on every list that reaches itself, at its first step into the cycle. */
  private reportCycle({ list, sink }: Loadable): void {
    const cycle = this.cycleFrom(list.name);
    if (!cycle) return;
    const index = list.dependsOn.findIndex((dependency) => dependency.ref === cycle[1]);
    sink.add('LST010', childPath('list.meta.dependsOn', index), `dependency cycle: ${cycle.join(' → ')}`, 'a list may depend only on lists that do not depend on it');
    this.levels.set(list.name, null);
  }

  private cycleFrom(start: string): string[] | null {
    const seen = new Set<string>();
    const walk = (name: string, trail: string[]): string[] | null => {
      for (const { ref } of this.candidates.get(name)?.list.dependsOn ?? []) {
        if (ref === start) return [...trail, ref];
        if (seen.has(ref)) continue;
        seen.add(ref);
        const found = walk(ref, [...trail, ref]);
        if (found) return found;
      }
      return null;
    };
    return walk(start, [start]);
  }

  /** 1 for a root list, else one more than its deepest parent; null when a dependency fails. */
  private levelOf({ list, sink }: Loadable): number | null {
    const known = this.levels.get(list.name);
    if (known !== undefined) return known;
    let level = 1;
    let loadable = true;
    list.dependsOn.forEach((dependency, index) => {
      const parentLevel = this.parentLevel(dependency, childPath('list.meta.dependsOn', index), sink);
      if (parentLevel === null) loadable = false;
      else level = Math.max(level, parentLevel + 1);
    });
    if (loadable && level > MAX_DEPTH) {
      sink.add('LST011', 'list.meta.dependsOn', `'${list.name}' would sit at dependency level ${level}; at most ${MAX_DEPTH} are allowed (a list without parents is level 1)`, 'depend on a list nearer the root, or flatten the chain');
      loadable = false;
    }
    const result = loadable ? level : null;
    this.levels.set(list.name, result);
    return result;
  }

  /** The parent's level when the dependency holds: the parent loads, the pin matches, the condition finds an entry. */
  private parentLevel({ ref, version, condition }: ListDependency, path: string, sink: FindingSink): number | null {
    const parent = this.candidates.get(ref);
    const level = parent ? this.levelOf(parent) : null;
    if (!parent || level === null) {
      const why = this.owners.has(ref) ? `the list '${ref}' has errors and is not loaded` : `no list is named '${ref}'`;
      sink.add('LST009', childPath(path, 'ref'), why, 'depend only on lists of this folder that load');
      return null;
    }
    if (parent.list.version !== version) {
      sink.add('LST009', childPath(path, 'version'), `pins ${ref}@${version}, but the loaded ${ref} is ${parent.list.version}`, `pin '${parent.list.version}', or update this list to it`);
      return null;
    }
    if (condition && !parent.list.entries.some((entry) => Object.hasOwn(entry, condition.field) && entry[condition.field] === condition.value)) {
      sink.add('LST009', childPath(path, 'condition'), `no entry of ${ref} has ${condition.field} === ${JSON.stringify(condition.value)}`, 'the condition must match at least one entry of the parent list');
      return null;
    }
    return level;
  }
}
