// The document's `$ref`s and YAML aliases resolved into one tree, under a bound on what they
// expand to. Both let a small text stand for an enormous tree: nine aliases of nine aliases
// (436 bytes of YAML) or a chain of definitions each referring to the next twice (4 kB) expand
// to billions of values, and every later step (validation, conversion, the text written) walks
// the expanded tree. So the expansion is counted while it is built, every reuse of a shared value
// counted at its full size, and past MAX_EXPANDED_VALUES (or MAX_EXPANDED_DEPTH) the document is
// refused: time and memory stay bounded however the references fan out.
//
// What resolves, as @readme/openapi-parser's dereference did: a `#/...` pointer into the one
// document. A reference to another file or URL stays as it is, never read. A reference into one
// of its own ancestors (a recursive schema) stays a `$ref` object, which the converters read as
// "any". A `$ref` with siblings is its target with the siblings laid over it. Each value is
// expanded once and shared wherever it is referred to.

import { isRecord } from '../shared/raw.js';
import { FlowguardError } from '../errors/flowguard-error.js';

/** How many values (objects, arrays, scalars) the resolved document may hold, each shared value counted wherever it appears. */
export const MAX_EXPANDED_VALUES = 1_000_000;
/** How deeply the resolved document may nest (the parser's own default bound). */
const MAX_EXPANDED_DEPTH = 500;

/** The document is past a bound of the import, or cannot be a tree (a YAML alias inside itself). */
export class ExpansionError extends FlowguardError {
  constructor(message: string) {
    super('ERR007', message);
  }
}

/** A `#/...` reference names nothing in the document. */
export class MissingReferenceError extends FlowguardError {
  constructor(message: string) {
    super('ERR006', message);
  }
}

interface Expansion {
  value: unknown;
  /** Values in the expanded tree of `value`, itself included. */
  size: number;
}

/** `document` with its internal references resolved; throws ExpansionError past a bound. */
export function resolveReferences(document: unknown): unknown {
  return new Expander(document).expand(document).value;
}

class Expander {
  private spent = 0;
  private readonly done = new Map<object, Expansion>();
  /** Values being expanded: the ancestors of the place reached. */
  private readonly open = new Set<object>();
  /** The place reached in the expanded tree, for messages. */
  private readonly at: string[] = [];

  constructor(private readonly root: unknown) {}

  expand(value: unknown): Expansion {
    if (value === null || typeof value !== 'object') {
      this.spend(1);
      return { value, size: 1 };
    }
    const known = this.done.get(value);
    if (known) {
      this.spend(known.size);
      return known;
    }
    if (this.open.has(value))
      throw new ExpansionError(
        `${pointerOf(this.at)} is a YAML alias inside the value it names; an OpenAPI document is a tree`,
      );
    if (this.at.length > MAX_EXPANDED_DEPTH)
      throw new ExpansionError(
        `the document nests deeper than ${MAX_EXPANDED_DEPTH} levels once its $refs and YAML aliases are resolved (at ${pointerOf(this.at)})`,
      );
    this.open.add(value);
    const expansion = this.expandReference(value) ?? this.expandContainer(value);
    this.open.delete(value);
    this.done.set(value, expansion);
    return expansion;
  }

  /** The target of an internal `$ref`, siblings laid over it; null for anything else, and for a reference into an ancestor. */
  private expandReference(value: object): Expansion | null {
    if (!isRecord(value) || typeof value.$ref !== 'string' || !value.$ref.startsWith('#')) return null;
    const target = this.targetOf(value.$ref);
    if (typeof target === 'object' && target !== null && this.open.has(target)) return null;
    const resolved = this.expand(target);
    const { $ref, ...siblings } = value;
    if (Object.keys(siblings).length === 0 || !isRecord(resolved.value)) return resolved;
    const laid = this.expandContainer(siblings);
    const merged: Record<string, unknown> = { ...resolved.value };
    for (const [key, own] of Object.entries(laid.value as Record<string, unknown>)) {
      const under = merged[key];
      define(merged, key, isRecord(under) && isRecord(own) ? { ...under, ...own } : own);
    }
    return { value: merged, size: resolved.size + laid.size };
  }

  private expandContainer(value: object): Expansion {
    this.spend(1);
    let size = 1;
    if (Array.isArray(value)) {
      const items = value.map((item, index) => {
        const child = this.child(String(index), item);
        size += child.size;
        return child.value;
      });
      return { value: items, size };
    }
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const child = this.child(key, item);
      size += child.size;
      define(copy, key, child.value);
    }
    return { value: copy, size };
  }

  private child(step: string, value: unknown): Expansion {
    this.at.push(step);
    const expansion = this.expand(value);
    this.at.pop();
    return expansion;
  }

  private targetOf(ref: string): unknown {
    let target = this.root;
    for (const step of pointerSteps(ref)) {
      if (typeof target !== 'object' || target === null || !Object.hasOwn(target, step)) {
        throw new MissingReferenceError(`${pointerOf(this.at)}: $ref '${ref}' names nothing in the document`);
      }
      target = (target as Record<string, unknown>)[step];
    }
    return target;
  }

  private spend(count: number): void {
    this.spent += count;
    if (this.spent > MAX_EXPANDED_VALUES) {
      throw new ExpansionError(
        `the document expands to more than ${MAX_EXPANDED_VALUES} values once its $refs and YAML aliases are resolved (the bound of one import; passed at ${pointerOf(this.at)})`,
      );
    }
  }
}

/** An own data property, also for a key named `__proto__`. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `#/paths/~1pets/get` -> ['paths', '/pets', 'get'] (RFC 6901 in a URI fragment). */
function pointerSteps(ref: string): string[] {
  let fragment = ref.slice(1);
  try {
    fragment = decodeURIComponent(fragment);
  } catch {
    // Not percent-encoded after all: read as written.
  }
  if (fragment === '') return [];
  return fragment
    .replace(/^\//, '')
    .split('/')
    .map((step) => step.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** The place as a JSON pointer, its middle cut out when long (a message names it, it need not be whole). */
function pointerOf(at: readonly string[]): string {
  const pointer = `#/${at.map((step) => step.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
  return pointer.length <= 160 ? pointer : `${pointer.slice(0, 80)}…${pointer.slice(-60)}`;
}
