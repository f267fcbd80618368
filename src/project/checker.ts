// A project as every command sees it, the way ESLint's eslint.js sits on linter.js: the
// operator's configuration, the effective library allowlist, the shared lists, the check cache,
// and checking schema files against all of them. `Catalog.load` and `flowguard validate` both
// build on it, so a file validates exactly as a catalog loads it.

import { join } from 'node:path';
import { loadProjectConfig, type ProjectConfig } from '../config/project.js';
import { effectiveAllowlist } from '../libraries/allowlist.js';
import { openListFolder, type ListFolder } from '../lists/registry.js';
import type { FileReport } from '../report/format.js';
import { isWithin } from '../scan/files.js';
import type { SchemaCheck } from '../schema/check.js';
import { CheckCache } from './check-cache.js';
import { checkSchemaFile, type FileCheck, type FileCheckOptions } from './check-file.js';

export interface ProjectOptions {
  /** Folder holding `.flowmcp/config.json`, `.env` and `.flowmcp/cache/`; default the working directory. */
  project?: string;
  /** Folder of shared-list files; default `shared-lists` in the project folder. */
  lists?: string;
}

/** The shared-list folder of a project: the one given, else `shared-lists` in the project folder. */
export function listsFolderOf({ project = '.', lists }: ProjectOptions): string {
  return lists ?? join(project, 'shared-lists');
}

export class ProjectChecker {
  private readonly checkOptions: FileCheckOptions;

  private constructor(
    /** The project folder. */
    readonly dir: string,
    readonly config: ProjectConfig,
    /** The shared-list folder (it may not exist: then there are no lists). */
    readonly listsFolder: string,
    /** The shared lists: a list file is read only when a schema first reaches its list. */
    readonly lists: ListFolder,
  ) {
    const { maxFileBytes } = config.limits;
    this.checkOptions = { allowedLibraries: effectiveAllowlist(config.allowedLibraries), lists, maxFileBytes };
  }

  /** Reads the project's config (a ConfigError names what is wrong with it) and opens its lists folder. */
  static open(options: ProjectOptions = {}): ProjectChecker {
    const dir = options.project ?? '.';
    const config = loadProjectConfig(dir);
    const listsFolder = listsFolderOf(options);
    // Every list file read is size-checked first, as schema files are.
    return new ProjectChecker(
      dir,
      config,
      listsFolder,
      openListFolder(listsFolder, { maxFileBytes: config.limits.maxFileBytes }),
    );
  }

  /** The library allowlist in effect: the defaults and the config's `security.allowedLibraries`. */
  get allowedLibraries(): ReadonlySet<string> {
    return this.checkOptions.allowedLibraries;
  }

  /** Whether a file lies below the lists folder: such a file is a list, never a schema (also where the folder sits among the schemas). */
  isListFile(file: string): boolean {
    return isWithin(file, this.listsFolder);
  }

  /** One schema file checked against the project: its size, scan, shape, rules and lists. */
  checkFile(file: string, cache?: CheckCache): FileCheck {
    return checkSchemaFile(file, this.checkOptions, cache);
  }

  /** Schema files checked one after the other; `onProgress` hears how many are done. */
  checkFiles(files: readonly string[], onProgress?: (done: number) => void): SchemaCheck[] {
    return files.map((file, index) => {
      const check = this.checkFile(file);
      onProgress?.(index + 1);
      return check;
    });
  }

  /**
   * A cache of checks in `.flowmcp/cache/` for the next start, keyed on everything a check reads
   * besides the file itself (the allowlist, and every list file's text).
   */
  openCache(): CheckCache {
    return CheckCache.open(this.dir, { allowlist: [...this.allowedLibraries].sort(), lists: this.lists.fingerprint() });
  }

  /** Reads every list file of the folder, used or not: `validate` is the author's gate. */
  checkEveryList(): void {
    this.lists.checkEveryFile();
  }

  /** One report per list file read so far, in path order, with that file's findings. */
  listReports(): FileReport[] {
    const { findings } = this.lists;
    return this.lists.files.map((file) => ({ file, findings: findings.filter((finding) => finding.file === file) }));
  }
}
