// A JSON-like value with some of its leaves replaced, for redaction (redact.ts): walked without
// recursion, so any nesting is safe, and copied only on the way to a change.

/** The replacement of a string or number, or undefined to leave it. */
export type LeafChange = (leaf: string | number) => string | undefined;

/** An array or object being rewritten, and where it sits in its parent. */
interface Frame {
  source: unknown[] | Record<string, unknown>;
  /** The object's own keys; null for an array. */
  keys: string[] | null;
  next: number;
  /** Values and keys as rewritten so far; null while nothing in this container changed. */
  values: unknown[] | null;
  names: string[] | null;
  parent: Frame | null;
  index: number;
}

/**
 * `root` with each string, number and object key that `change` replaces, walked with an
 * explicit stack. Only the arrays and objects on the way to a change are copied (objects with
 * Object.fromEntries, so a `__proto__` key stays an own property).
 */
export function rewrite(root: unknown, change: LeafChange): unknown {
  if (typeof root !== 'object' || root === null) return changeLeaf(root, change) ?? root;
  let frame: Frame | null = open(root, null, 0);
  let result: unknown = root;
  while (frame) {
    const { source, keys } = frame;
    if (frame.next < (keys ?? (source as unknown[])).length) {
      const index = frame.next++;
      let child: unknown;
      if (keys) {
        const name = keys[index] as string;
        const renamed = change(name);
        if (renamed !== undefined) (edit(frame).names as string[])[index] = renamed;
        child = (source as Record<string, unknown>)[name];
      } else {
        child = (source as unknown[])[index];
      }
      if (typeof child === 'object' && child !== null) {
        frame = open(child, frame, index);
        continue;
      }
      const replaced = changeLeaf(child, change);
      if (replaced !== undefined) (edit(frame).values as unknown[])[index] = replaced;
      continue;
    }
    const done = finished(frame);
    if (frame.parent && done !== source) (edit(frame.parent).values as unknown[])[frame.index] = done;
    if (!frame.parent) result = done;
    frame = frame.parent;
  }
  return result;
}

function open(container: object, parent: Frame | null, index: number): Frame {
  const keys = Array.isArray(container) ? null : Object.keys(container);
  return { source: container as Frame['source'], keys, next: 0, values: null, names: null, parent, index };
}

/** The frame, with its copy started. */
function edit(frame: Frame): Frame {
  if (frame.values === null) {
    const { source, keys } = frame;
    frame.values = keys ? keys.map((key) => (source as Record<string, unknown>)[key]) : (source as unknown[]).slice();
    frame.names = keys ? keys.slice() : null;
  }
  return frame;
}

/** The container a frame stands for once walked: its source, or the copy if anything changed. */
function finished({ source, values, names }: Frame): unknown {
  if (values === null) return source;
  return names === null ? values : Object.fromEntries(names.map((name, at) => [name, values[at]]));
}

function changeLeaf(leaf: unknown, change: LeafChange): string | undefined {
  return typeof leaf === 'string' || typeof leaf === 'number' ? change(leaf) : undefined;
}
