// The libraries of the sandbox worker: each imported once per process, the way Node (and the
// reference) loads it, its shared settings locked and the whole frozen with `harden`, so every
// schema in the process shares one read-only copy.

import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { lockLibrary } from './library-locks.js';
import type { LibraryModule } from '../libraries/resolve.js';
import { FROZEN_WRITE, isObject, messageOf } from './worker-errors.js';

/** Each library once per worker: its frozen value, or why it could not be imported. */
const libraries = new Map<string, Promise<{ value: unknown } | { error: string }>>();

export function importLibrary(library: LibraryModule): Promise<{ value: unknown } | { error: string }> {
  let pending = libraries.get(library.name);
  if (!pending) {
    pending = loadLibrary(library).then(
      (value) => ({ value: harden(lockLibrary(library.name, value)) }),
      (error: unknown) => ({ error: importFailure(error) }),
    );
    libraries.set(library.name, pending);
  }
  return pending;
}

/**
 * What handlers get as the library, loaded the way Node (and the reference) loads it: an ES
 * module's default export where it has one (erc725's class, yahoo-finance2's), else a plain copy
 * of its exports; a CommonJS module's `module.exports` by `require`, which also loads native
 * addons (talib) that `import()` refuses, unwrapped when its only export is a compiled
 * `default`; a computing built-in as `require('node:name')` gives it.
 */
async function loadLibrary(library: LibraryModule): Promise<unknown> {
  if (library.format === 'builtin')
    return builtinFacade(createRequire(import.meta.url)(library.url) as Record<string, unknown>);
  if (library.format === 'commonjs') {
    const exports: unknown = createRequire(library.url)(fileURLToPath(library.url));
    // A compiled ES module in CommonJS clothing marks itself `__esModule`.
    const names = isObject(exports) ? Object.keys(exports).filter((name) => name !== '__esModule') : [];
    const value = names.length === 1 && names[0] === 'default' ? (exports as { default: unknown }).default : exports;
    return readsThroughGetters(value) ? plainExports(value as Record<string, unknown>, new Map()) : value;
  }
  const namespace = (await import(library.url)) as Record<string, unknown>;
  return 'default' in namespace ? namespace.default : plainExports(namespace, new Map());
}

/**
 * A built-in as handlers get it: its functions (each calling the real one) and its constants.
 * Freezing the module itself would freeze Node's own classes under it (a zlib call assigns
 * `_events` on a new stream, which a frozen EventEmitter prototype refuses), and handing its
 * classes over unfrozen would let one schema change what another's instances do; so neither
 * the classes nor the module leave, only what computes.
 */
function builtinFacade(module: Record<string, unknown>): Record<string, unknown> {
  const facade: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(module)) {
    // Node names its constructors with a capital; everything else that is a function computes.
    if (typeof value === 'function' && !/^[A-Z]/.test(name))
      facade[name] = (...args: unknown[]) => (value as (...args: unknown[]) => unknown).apply(module, args);
    else if (typeof value !== 'object' && typeof value !== 'function') facade[name] = value;
    else if (
      isObject(value) &&
      Object.values(value).every((entry) => typeof entry !== 'object' && typeof entry !== 'function')
    )
      facade[name] = { ...value };
  }
  return facade;
}

/** Why a library did not import; one that changes a frozen built-in at import time is named as such. */
function importFailure(error: unknown): string {
  const message = messageOf(error);
  if (!(error instanceof TypeError) || !FROZEN_WRITE.test(message)) return message;
  return `${message} (the library changes a shared built-in, such as a prototype, when it is imported; the sandbox freezes them, so it cannot be used in handlers)`;
}

/**
 * A module namespace cannot be frozen; a plain copy of its exports can (nested namespaces too).
 * So with a CommonJS module compiled from ES modules (ethers): it re-exports through getters,
 * which `harden` freezes without calling, so what they give (ethers' classes and prototypes, its
 * wordlists) would stay writable, and one schema could change what another's calls compute.
 */
function plainExports(exports: Record<string, unknown>, seen: Map<object, object>): Record<string, unknown> {
  const known = seen.get(exports);
  if (known) return known as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  seen.set(exports, copy);
  for (const key of Object.keys(exports)) {
    const value = exports[key];
    copy[key] =
      Object.prototype.toString.call(value) === '[object Module]' || readsThroughGetters(value)
        ? plainExports(value as Record<string, unknown>, seen)
        : value;
  }
  return copy;
}

/** A plain object (an exports object) with a getter among its own properties. */
function readsThroughGetters(value: unknown): boolean {
  if (!isObject(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return false;
  return Object.values(Object.getOwnPropertyDescriptors(value)).some((property) => property.get !== undefined);
}
