import type { AnyNode } from './ast.js';
import { KEYS } from 'eslint-visitor-keys';

/**
 * Calls `visit(child, node, field, a, b)` for every child node of `node`, where `field` is the
 * field of `node` that holds the child. The ESTree visitor keys name the child fields of each
 * node type, so scalar fields are never looked at; a node type they do not know is walked field
 * by field, so nothing is skipped. The walk's state travels in `a` and `b` rather than in a
 * closure, which would be allocated once per node.
 */
export function forEachChild<A, B>(
  node: AnyNode,
  visit: (child: AnyNode, parent: AnyNode, field: string, a: A, b: B) => void,
  a: A,
  b: B,
): void {
  const fields = node as unknown as Record<string, unknown>;
  for (const field of KEYS[node.type] ?? Object.keys(node)) {
    const value = fields[field];
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) visit(item, node, field, a, b);
    } else if (isNode(value)) {
      visit(value, node, field, a, b);
    }
  }
}

/** Objects without a `type` (Literal.regex, TemplateElement.value, RegExp values) are not nodes. */
function isNode(value: unknown): value is AnyNode {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}
