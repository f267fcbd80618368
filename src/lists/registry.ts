// The list registry: the list files of a folder, checked one by one and then against each
// other (unique names LST002, dependencies LST009–LST011). A list with any error is reported
// and left out; the others still load (decision R1).
//
// `flowguard validate` checks every file of the folder (loadListRegistry). A catalog reads a
// list file only when a schema asks for its list (openListFolder): a folder may hold lists no
// schema uses, and parsing them all would cost every start their time and memory.

import { basename } from 'node:path';
import { childPath, type Finding, type FindingSink } from '../report/findings.js';
import { selectSchemaFiles } from '../scan/files.js';
import { readSourceFile, type SourceText } from '../scan/source-file.js';
import { checkListFile, checkListSource, type ListCheck } from './check.js';
import { kebabCase } from './rules.js';
import type { ListDependency, ListRegistry, SharedList } from './types.js';

/** A root list (no `dependsOn`) is level 1, a list depending on it level 2; deeper than this is LST011. */
export const MAX_DEPTH = 3;

export interface ListReadOptions {
  /** Largest list file read, in bytes (`limits.maxFileBytes`, default 2 MiB); a larger one is SEC207. */
  maxFileBytes?: number;
}

/** A folder's lists, each file read when a schema first asks for its list. */
export interface ListFolder extends ListRegistry {
  /**
   * What every list file holds, without parsing any: its path and the SHA-256 of its bytes (or
   * its size, past the limit), as read once for this folder: a list is checked from those bytes.
   * A cache of schema checks is valid while this is unchanged.
   */
  fingerprint(): string[];
  /** Every list file of the folder, read or not. */
  readonly folderFiles: readonly string[];
  /** Reads and resolves every list file not read yet: from then on this is what loadListRegistry gives. */
  checkEveryFile(): void;
}

type Loadable = ListCheck & { list: SharedList };

/** Every `*.mjs` below `dir`, recursively, all checked; a folder that does not exist is an empty registry. */
export function loadListRegistry(dir: string, options: ListReadOptions = {}): ListRegistry {
  return loadListFiles(selectSchemaFiles([dir]).files, options);
}

/** The registry of these list files, in this order, all checked. */
export function loadListFiles(files: readonly string[], options: ListReadOptions = {}): ListRegistry {
  return buildListRegistry(files.map((file) => checkListFile(file, options.maxFileBytes)));
}

/** The registry of checked list files: every name claimed (see Lists.claim), every list resolved. */
export function buildListRegistry(checks: readonly ListCheck[]): ListRegistry {
  const lists = new Lists(
    checks.map((check) => check.file),
    (index) => checks[index] as ListCheck,
  );
  lists.checkEveryFile();
  return { lists: new Map(lists.loaded()), findings: lists.findings(), files: lists.checkedFiles() };
}

/**
 * The lists of `dir`, read on request: `lists.get(name)` reads the file of that list and of its
 * parents (`dependsOn`), and nothing else. `files` and `findings` cover the files read so far;
 * iterating `lists` gives the lists loaded so far. Once a lookup has had to read every file,
 * all three are what loadListRegistry gives.
 */
export function openListFolder(dir: string, options: ListReadOptions = {}): ListFolder {
  const files = selectSchemaFiles([dir]).files;
  // Each file is read once. What the fingerprint (a check cache's key) read is what its list is
  // checked from, kept until then: read twice, a file changed in between would have the check of
  // one version kept under the key of the other, and be served as the other.
  const unchecked = new Map<string, SourceText>();
  /** Per file read, what the fingerprint says of it: the hash of its bytes, or its findings. */
  const readAs = new Map<string, string>();
  const read = (file: string) => {
    const source = readSourceFile(file, options.maxFileBytes, 'SEC207');
    readAs.set(file, source.sink ? JSON.stringify(source.sink.findings) : source.sha256);
    return source;
  };
  const lists = new Lists(files, (index) => {
    const file = files[index] as string;
    const source = unchecked.get(file) ?? read(file);
    unchecked.delete(file);
    return checkListSource(file, source);
  });
  return {
    lists: new ListsOnRequest(lists),
    get findings() {
      return lists.findings();
    },
    get files() {
      return lists.checkedFiles();
    },
    fingerprint: () =>
      files.map((file) => {
        if (!readAs.has(file)) unchecked.set(file, read(file));
        return `${file}\0${readAs.get(file)}`;
      }),
    folderFiles: files,
    checkEveryFile: () => {
      lists.checkEveryFile();
      // Resolved now, in path order, as buildListRegistry does before anything looks a list up.
      lists.loaded();
    },
  };
}

/**
 * The lists of a folder, each file checked at most once and only when needed. Of several files
 * that declare one name, the first named after it (kebab-case, LST013's convention) keeps it,
 * else the first in path order; the others get LST002. The rule lets a lookup read the files
 * named after a list and stop there when one of them declares it, and it gives the same owner
 * whether the other files were read or not. A name that no such file declares makes it check
 * every file, once.
 */
class Lists {
  /** Each file's check once it has been read, by position in `files`. */
  private readonly checks: Array<ListCheck | undefined>;
  /** Positions of the files by file name, for the files named after a list. */
  private readonly byFileName = new Map<string, number[]>();
  /** The position of the file that keeps each claimed name; null when no file declares it. */
  private readonly owners = new Map<string, number | null>();
  private everyFileChecked = false;
  /** Names whose cycle check ran (LST010). */
  private readonly cycleChecked = new Set<string>();
  /** The dependency level of each resolved list, or null when it cannot load. */
  private readonly levels = new Map<string, number | null>();

  constructor(
    private readonly files: readonly string[],
    private readonly read: (index: number) => ListCheck,
  ) {
    this.checks = files.map(() => undefined);
    for (const [index, file] of files.entries()) {
      const name = basename(file);
      this.byFileName.set(name, [...(this.byFileName.get(name) ?? []), index]);
    }
  }

  /** The list called `name` when it and every list it depends on load. */
  get(name: string): SharedList | undefined {
    const candidate = this.candidate(name);
    return candidate && this.levelOf(candidate) !== null ? candidate.list : undefined;
  }

  /** Every list loaded so far by name, in path order. */
  loaded(): Array<[string, SharedList]> {
    this.settle();
    return this.checks.flatMap((check, index): Array<[string, SharedList]> => {
      const list = check?.list;
      return list && this.owners.get(list.name) === index && this.levels.get(list.name) != null
        ? [[list.name, list]]
        : [];
    });
  }

  checkedFiles(): string[] {
    return this.checks.flatMap((check) => (check ? [check.file] : []));
  }

  /** The findings of the files read so far, in path order. */
  findings(): Finding[] {
    this.settle();
    return this.checks.flatMap((check) => check?.sink.findings ?? []);
  }

  /**
   * Once every file has been read, resolves every name (each only once), so that the lists and
   * findings are those of the whole folder. Never called from inside a lookup.
   */
  private settle(): void {
    if (!this.everyFileChecked) return;
    for (const check of this.checks) if (check?.name != null) this.get(check.name);
  }

  /** Reads every file not read yet, and claims every name (so every duplicate gets LST002). */
  checkEveryFile(): void {
    if (this.everyFileChecked) return;
    this.everyFileChecked = true;
    const checks = this.files.map((_, index) => this.checkAt(index));
    for (const { name } of checks) if (name !== null) this.claim(name);
  }

  private checkAt(index: number): ListCheck {
    const known = this.checks[index];
    if (known) return known;
    const check = this.read(index);
    this.checks[index] = check;
    const owner = check.name === null ? undefined : this.owners.get(check.name);
    if (owner != null) this.reportDuplicate(check, owner);
    return check;
  }

  /** The position of the file that keeps `name`, reading only as many files as needed to know it. */
  private claim(name: string): number | null {
    const known = this.owners.get(name);
    if (known !== undefined) return known;
    // Every file named after the list is read, so that two of them in different folders get LST002.
    const named = this.byFileName.get(`${kebabCase(name)}.mjs`) ?? [];
    const conventional = named.filter((index) => this.checkAt(index).name === name)[0];
    if (conventional === undefined && !this.everyFileChecked) {
      this.checkEveryFile();
      return this.claim(name);
    }
    const declaring = this.checks.flatMap((check, index) => (check?.name === name ? [index] : []));
    const owner = conventional ?? declaring[0] ?? null;
    this.owners.set(name, owner);
    for (const index of declaring)
      if (index !== owner && owner !== null) this.reportDuplicate(this.checks[index] as ListCheck, owner);
    return owner;
  }

  private reportDuplicate(check: ListCheck, owner: number): void {
    check.sink.add(
      'LST002',
      'list.meta.name',
      `the list name '${check.name}' is already taken by ${this.files[owner]}`,
      'list names are unique across the lists folder; rename one of them',
    );
  }

  /** The file that keeps `name`, when it has no error of its own. */
  private candidate(name: string): Loadable | undefined {
    const owner = this.claim(name);
    const check = owner === null ? undefined : this.checks[owner];
    return check?.list ? (check as Loadable) : undefined;
  }

  /** 1 for a root list, else one more than its deepest parent; null when a dependency fails. */
  private levelOf(candidate: Loadable): number | null {
    const { list, sink } = candidate;
    this.reportCycle(candidate);
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
      sink.add(
        'LST011',
        'list.meta.dependsOn',
        `'${list.name}' would sit at dependency level ${level}; at most ${MAX_DEPTH} are allowed (a list without parents is level 1)`,
        'depend on a list nearer the root, or flatten the chain',
      );
      loadable = false;
    }
    const result = loadable ? level : null;
    this.levels.set(list.name, result);
    return result;
  }

  /** LST010 on a list that reaches itself, at its first step into the cycle; checked once per list. */
  private reportCycle({ list, sink }: Loadable): void {
    if (this.cycleChecked.has(list.name)) return;
    this.cycleChecked.add(list.name);
    const cycle = this.cycleFrom(list.name);
    if (!cycle) return;
    const index = list.dependsOn.findIndex((dependency) => dependency.ref === cycle[1]);
    sink.add(
      'LST010',
      childPath('list.meta.dependsOn', index),
      `dependency cycle: ${cycle.join(' → ')}`,
      'a list may depend only on lists that do not depend on it',
    );
    this.levels.set(list.name, null);
  }

  private cycleFrom(start: string): string[] | null {
    const seen = new Set<string>();
    const walk = (name: string, trail: string[]): string[] | null => {
      for (const { ref } of this.candidate(name)?.list.dependsOn ?? []) {
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

  /** The parent's level when the dependency holds: the parent loads, the pin matches, the condition finds an entry. */
  private parentLevel({ ref, version, condition }: ListDependency, path: string, sink: FindingSink): number | null {
    const parent = this.candidate(ref);
    const level = parent ? this.levelOf(parent) : null;
    if (!parent || level === null) {
      const why =
        this.claim(ref) !== null ? `the list '${ref}' has errors and is not loaded` : `no list is named '${ref}'`;
      sink.add('LST009', childPath(path, 'ref'), why, 'depend only on lists of this folder that load');
      return null;
    }
    if (parent.list.version !== version) {
      sink.add(
        'LST009',
        childPath(path, 'version'),
        `pins ${ref}@${version}, but the loaded ${ref} is ${parent.list.version}`,
        `pin '${parent.list.version}', or update this list to it`,
      );
      return null;
    }
    if (
      condition &&
      !parent.list.entries.some(
        (entry) => Object.hasOwn(entry, condition.field) && entry[condition.field] === condition.value,
      )
    ) {
      sink.add(
        'LST009',
        childPath(path, 'condition'),
        `no entry of ${ref} has ${condition.field} === ${JSON.stringify(condition.value)}`,
        'the condition must match at least one entry of the parent list',
      );
      return null;
    }
    return level;
  }
}

/** The lists of a folder by name: looking a name up reads its file; iterating sees the lists loaded so far. */
class ListsOnRequest implements ReadonlyMap<string, SharedList> {
  constructor(private readonly lists: Lists) {}

  get(name: string): SharedList | undefined {
    return this.lists.get(name);
  }

  has(name: string): boolean {
    return this.lists.get(name) !== undefined;
  }

  get size(): number {
    return this.lists.loaded().length;
  }

  entries(): MapIterator<[string, SharedList]> {
    return new Map(this.lists.loaded()).entries();
  }

  keys(): MapIterator<string> {
    return new Map(this.lists.loaded()).keys();
  }

  values(): MapIterator<SharedList> {
    return new Map(this.lists.loaded()).values();
  }

  forEach(callback: (value: SharedList, key: string, map: ReadonlyMap<string, SharedList>) => void): void {
    for (const [name, list] of this.lists.loaded()) callback(list, name, this);
  }

  [Symbol.iterator](): MapIterator<[string, SharedList]> {
    return this.entries();
  }
}
