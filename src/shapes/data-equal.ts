// Deep equality of data read as literals (JSON-like values): the comparison the generated
// validators make for `uniqueItems`. Ajv's own helper (fast-deep-equal) calls a value's own
// `toString` or `valueOf` when they differ from Object.prototype's, so a document holding a key of
// that name made the check throw; here keys are data and nothing of the value is called.

/** True when `a` and `b` are the same data: equal primitives (NaN equal to NaN), or arrays and objects with equal entries. */
export function dataEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a !== a && b !== b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!dataEqual(a[i], b[i])) return false;
    return true;
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(b, key)) return false;
    if (!dataEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}
