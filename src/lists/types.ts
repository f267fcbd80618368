// The typed form of a shared list (SPEC-NOTES §7) once its file has been read as data and
// checked, and of the registry that holds every loaded list by name.

import type { Finding } from '../report/findings.js';

export type ListFieldType = 'string' | 'number' | 'boolean';
export type ListScalar = string | number | boolean;

/** A value a list field, or a filter on one, can hold (null aside). */
export function isListScalar(value: unknown): value is ListScalar {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
/** An optional field may be absent or null; a required one always holds a value of its type. */
export type ListEntry = Readonly<Record<string, ListScalar | null>>;

/** A schema's condition on a list's entries (`main.sharedLists[].filter`), in its canonical form. */
export type ListFilter =
  { key: string; exists: true } | { key: string; value: ListScalar } | { key: string; in: ListScalar[] };

export interface ListField {
  key: string;
  type: ListFieldType;
  /** Empty when the file gave none (LST005, a warning). */
  description: string;
  optional: boolean;
}

export interface ListDependency {
  ref: string;
  /** The exact version of the parent list this list was written against. */
  version: string;
  /** The parent must hold at least one entry whose `field` is `value`. */
  condition?: { field: string; value: ListScalar };
}

export interface SharedList {
  name: string;
  version: string;
  description: string;
  fields: readonly ListField[];
  /** Deep-frozen: every reader shares these objects. */
  entries: readonly ListEntry[];
  dependsOn: readonly ListDependency[];
  /** The file the list was read from, as the loader was given it. */
  file: string;
  /** SHA-256 (hex) of the bytes read from `file` (source-file.ts); absent for a list checked from text. */
  sha256?: string;
}

export interface ListRegistry {
  /** Lists without errors, by `meta.name`. */
  lists: ReadonlyMap<string, SharedList>;
  /** Every finding of every list file read, in file order. */
  findings: Finding[];
  /** Every list file read, with or without findings. */
  files: readonly string[];
}

/** A list as one schema sees it: its declared filter applied, the entries deep-frozen. */
export interface ResolvedList {
  list: SharedList;
  entries: readonly ListEntry[];
}
