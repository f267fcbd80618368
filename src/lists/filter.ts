// A schema's view of a list (SPEC-NOTES §7.3): its declared filter applied, the result
// deep-frozen so that handlers can read it but never change it.

import deepFreeze from 'deep-freeze-strict';
import type { ListEntry, ListFilter } from './types.js';

/** The entries `filter` keeps, in list order: `exists` present and not null, `value` strict equality, `in` membership. */
export function applyFilter(entries: readonly ListEntry[], filter: ListFilter | undefined): readonly ListEntry[] {
  if (!filter) return deepFreeze([...entries]);
  return deepFreeze(
    entries.filter((entry) => keeps(filter, Object.hasOwn(entry, filter.key) ? entry[filter.key] : undefined)),
  );
}

function keeps(filter: ListFilter, value: unknown): boolean {
  if ('exists' in filter) return value !== undefined && value !== null;
  if ('value' in filter) return value === filter.value;
  return filter.in.some((item) => item === value);
}
