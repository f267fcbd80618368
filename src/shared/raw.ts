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

export interface JsonBounds {
  /** Deepest nesting of arrays and objects; a scalar is depth 0. */
  maxDepth: number;
  /** Largest size, counted about as the value's JSON text would be, in bytes. */
  maxBytes?: number;
}

/**
 * Which bound a JSON-like value breaks, or null. Walked with an explicit stack, never by
 * recursion, and stopped at the first bound passed: a value nested 100,000 deep costs as much
 * as one nested `maxDepth` deep (decision R13).
 */
export function brokenBound(value: unknown, { maxDepth, maxBytes = Infinity }: JsonBounds): 'depth' | 'size' | null {
  const flat = flatBytes(value);
  // The same sums as the walk below makes, whose only depth an object of scalars reaches is 1.
  if (flat !== null) return maxDepth < 1 ? 'depth' : flat > maxBytes ? 'size' : null;
  // Two parallel stacks rather than an object per value: arguments are walked on every call.
  const values: unknown[] = [value];
  const depths: number[] = [0];
  let bytes = 0;
  while (values.length > 0) {
    const current = values.pop();
    const depth = (depths.pop() as number) + 1;
    if (typeof current === 'string') bytes += current.length + 2;
    else if (typeof current !== 'object' || current === null) bytes += 8;
    else {
      if (depth > maxDepth) return 'depth';
      if (Array.isArray(current)) {
        bytes += 2 + current.length;
        for (const item of current) {
          values.push(item);
          depths.push(depth);
        }
      } else {
        // An object's keys count as strings, its values one level down like an array's items.
        for (const key of Object.keys(current)) {
          bytes += 4 + key.length;
          values.push((current as Record<string, unknown>)[key]);
          depths.push(depth);
        }
        bytes += 2;
      }
    }
    if (bytes > maxBytes) return 'size';
  }
  return null;
}

/**
 * The size the walk counts for a plain object whose values are all scalars (most calls'
 * arguments), made without its stacks; null for anything else.
 */
function flatBytes(value: unknown): number | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  let bytes = 2;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === 'string') bytes += 4 + key.length + item.length + 2;
    else if (typeof item === 'object' && item !== null) return null;
    else bytes += 4 + key.length + 8;
  }
  return bytes;
}
