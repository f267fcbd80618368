// The one result type of fallible internal operations: a value, or the error that says why there
// is none. An expected failure travels as a value (no exception through the layers); a caller
// that cannot go on throws `result.error` as it is.

import type { FlowguardError } from './flowguard-error.js';

export type Result<T, E = FlowguardError> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

export function failed<E>(error: E): { readonly ok: false; readonly error: E } {
  return { ok: false, error };
}
