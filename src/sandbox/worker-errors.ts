// How the sandbox worker describes what went wrong in schema code: a handler's wrong result
// (ShapeError, reported as SEC101), a write to frozen data (SEC102), anything else thrown, and a
// hostile value described without trusting it. Inside the worker's process: nothing of the host's tables.

import type { Failure } from './protocol.js';

/** A handler's wrong result, inside the sandbox's process: failureOf reports it as SEC101 (no FlowguardError: the worker loads nothing of the host's tables). */
class ShapeError extends Error {}

export function shapeError(message: string): ShapeError {
  return new ShapeError(message);
}

export const FROZEN_WRITE =
  /read[- ]only|not extensible|Cannot (add|assign|delete|redefine) property|object is frozen/i;

export function failureOf(error: unknown, thrown: 'SEC104' | 'SEC107'): Failure {
  if (isA(error, ShapeError)) return { code: 'SEC101', message: (error as ShapeError).message };
  const message = messageOf(error);
  if (isA(error, TypeError) && FROZEN_WRITE.test(message)) {
    return { code: 'SEC102', message: `handler code tried to change frozen data: ${message}` };
  }
  return {
    code: thrown,
    message: `${thrown === 'SEC104' ? 'the handlers factory threw' : 'the handler threw'}: ${message}`,
  };
}

/**
 * `value instanceof type`, false where asking throws: a thrown Proxy whose getPrototypeOf trap
 * throws would otherwise throw out of the report of its call, which then went unanswered.
 */
function isA(value: unknown, type: new (...args: never[]) => unknown): boolean {
  try {
    return value instanceof type;
  } catch {
    // The value's own trap threw: it is no value of ours.
    return false;
  }
}

export function messageOf(error: unknown): string {
  try {
    if (error instanceof Error) return `${error.name}: ${error.message}`;
    return `${describe(error)} ${String(error)}`.slice(0, 200);
  } catch {
    // Describing a hostile value may throw again (a getter, a Proxy): it is said to be unprintable instead.
    return 'an unprintable value';
  }
}

export function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
