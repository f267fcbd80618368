// JSON data in one canonical order, so that a hash of its text depends on its content only, not
// on the order its object keys were written in (tool hashes, response cache keys).

/** A copy of JSON data with every object's keys inserted in sorted order. */
export function sortedJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedJson);
  if (value !== null && typeof value === 'object') {
    // No prototype, so that a `__proto__` key (JSON.parse makes it an own key) stays a key.
    const copy: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value).sort(compareStrings))
      copy[key] = sortedJson((value as Record<string, unknown>)[key]);
    return copy;
  }
  return value;
}

/** Orders strings by UTF-16 code units, whatever the locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
