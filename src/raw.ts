// Guards for JSON-like data that has not been checked yet (a `main` read from a file, a
// config file). Every reader of such data uses these, so "an object" means one thing.

export type RawObject = Record<string, unknown>;

/** A plain object: not null, not an array, not an instance of some class. */
export function isRecord(value: unknown): value is RawObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function stringOr(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback;
}

/** The strings of an array, or none when it is not one. */
export function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
