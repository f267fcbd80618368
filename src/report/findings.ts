// The one finding model (decision R1): every check, static or at run time, reports through this type with a code of
// the one table (codes.ts); nothing wrong with a schema is ever thrown out of the loader.

import { CODES, type Code } from './codes.js';
import { LineIndex } from './line-index.js';

export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
  code: Code;
  severity: Severity;
  /** The file as the user named it (relative to the working directory where possible). */
  file: string;
  line?: number;
  column?: number;
  /** Where inside `main` (or the file) the problem sits, e.g. `main.routes.getPrice.parameters[0].z`. */
  path?: string;
  message: string;
  hint?: string;
}

/** Whether a finding is an error: it fails `validate`, and (by its scope) takes a route or a file out of service. */
export function isError(finding: Finding): boolean {
  return finding.severity === 'error';
}

/** Whether any of the findings is an error. */
export function hasErrors(findings: readonly Finding[]): boolean {
  return findings.some(isError);
}

export interface SourceLocation {
  line: number;
  column: number;
}

/** Resolves a `main` path to the source offset where it was written; the nearest written ancestor wins. */
export type Locator = (path: string) => number | undefined;

/**
 * Collects the findings of one file. Rules name a path; the sink attaches severity and the
 * source location so no rule repeats that work.
 */
export class FindingSink {
  readonly findings: Finding[] = [];
  private locate: Locator = () => undefined;
  private readonly ignored: string[] = [];
  private lines: LineIndex | null = null;
  private toFileOffset: ((offset: number) => number) | null = null;

  /** `text` is the file's source, for turning offsets into lines and columns. */
  constructor(
    readonly file: string,
    private readonly text = '',
  ) {}

  /** Once `main` has been read, paths can be turned into source positions. */
  useLocator(locate: Locator): void {
    this.locate = locate;
  }

  /**
   * Values that were not literal data were read as null; whatever a later check says about
   * them (or below them) would only repeat the first finding.
   */
  ignoreBelow(paths: readonly string[]): void {
    this.ignored.push(...paths);
  }

  add(code: Code, path: string | undefined, message: string, hint?: string): void {
    if (path !== undefined && this.ignored.some((p) => isAtOrBelow(path, p))) return;
    this.push(code, path === undefined ? undefined : this.locate(path), path, message, hint);
  }

  /**
   * Offsets given to addAt are in the text that was parsed. Where that is the file with `main`
   * cut out (scan/leading-data.ts), this maps them back into the file; null: they are the file's.
   */
  useParsedOffsets(toFileOffset: ((offset: number) => number) | null): void {
    this.toFileOffset = toFileOffset;
  }

  /** For findings that have a source offset but no `main` path (scan, syntax errors, handlers). */
  addAt(code: Code, offset: number | undefined, message: string, hint?: string, path?: string): void {
    this.push(
      code,
      offset === undefined || this.toFileOffset === null ? offset : this.toFileOffset(offset),
      path,
      message,
      hint,
    );
  }

  /** For findings at an offset in the whole file's text (the constructor's), whatever text was parsed. */
  addAtFileOffset(code: Code, offset: number, message: string, hint?: string): void {
    this.push(code, offset, undefined, message, hint);
  }

  hasErrors(): boolean {
    return hasErrors(this.findings);
  }

  private push(
    code: Code,
    offset: number | undefined,
    path: string | undefined,
    message: string,
    hint: string | undefined,
  ): void {
    const finding: Finding = { code, severity: CODES[code].severity, file: this.file, message };
    if (offset !== undefined) {
      this.lines ??= new LineIndex(this.text);
      Object.assign(finding, this.lines.locate(offset));
    }
    if (path !== undefined) finding.path = path;
    if (hint !== undefined) finding.hint = hint;
    this.findings.push(finding);
  }
}

/** The one finding of a file that cannot be read (VAL009), e.g. a folder named like a schema. */
export function unreadableFile(file: string, error: unknown): FindingSink {
  const sink = new FindingSink(file);
  sink.addAt(
    'VAL009',
    undefined,
    `cannot read the file: ${(error as Error).message}`,
    'name a readable .mjs file; folders are read file by file',
  );
  return sink;
}

/**
 * A path as a chain of steps from a written root, turned into text only when a finding needs
 * it: checks walk every node of large data and report on few.
 */
export interface PathLink {
  readonly parent: PathRef;
  readonly key: string | number;
}
export type PathRef = PathLink | string;

export function pathText(path: PathRef): string {
  return typeof path === 'string' ? path : childPath(pathText(path.parent), path.key);
}

/** Extends a finding path by one step: `a.b`, `a[3]`, or `a["odd key"]`. */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return isIdentifier(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

// A plain loop: this runs for every node of every `main`, where a regex test shows in profiles.
function isIdentifier(key: string): boolean {
  if (key.length === 0) return false;
  for (let i = 0; i < key.length; i += 1) {
    const c = key.charCodeAt(i);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36;
    if (!letter && !(i > 0 && c >= 48 && c <= 57)) return false;
  }
  return true;
}

/** `path` minus a trailing `.key` as `childPath` wrote it, e.g. the route of `<route>.output`. */
export function parentPath(path: string, key: string): string {
  const step = `.${key}`;
  return path.endsWith(step) ? path.slice(0, -step.length) : path;
}

function isAtOrBelow(path: string, ancestor: string): boolean {
  if (!path.startsWith(ancestor)) return false;
  const next = path.charAt(ancestor.length);
  return next === '' || next === '.' || next === '[';
}

export function countBySeverity(findings: readonly Finding[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity] += 1;
  return counts;
}
