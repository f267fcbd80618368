import { describe, expect, it } from 'vitest';
import { FindingSink } from '../../src/report/findings.js';
import type { AnyNode } from '../../src/scan/ast.js';
import { parseModule } from '../../src/scan/parse.js';
import { forEachChild } from '../../src/scan/walk.js';

const SOURCE = [
  "export const main = { namespace: 'demo', routes: { getItem: { method: 'GET' } } }",
  'export const handlers = ({ sharedLists }) => ({',
  '  getItem: { preRequest: async ({ struct, payload }) => ({ struct: { ...struct, ok: [1, `t${payload}`] } }) }',
  '})',
  '',
].join('\n');

/** Every node of the tree, the root first. */
function nodesOf(root: AnyNode): AnyNode[] {
  const nodes: AnyNode[] = [];
  const visit = (node: AnyNode) => {
    nodes.push(node);
    forEachChild(node, visit, undefined, undefined);
  };
  visit(root);
  return nodes;
}

describe('parseModule', () => {
  it('gives every node its start and end in the text, and no range array besides (nothing reads one)', () => {
    const program = parseModule(SOURCE, new FindingSink('demo.mjs', SOURCE));
    expect(program).not.toBeNull();
    const nodes = nodesOf(program as AnyNode);
    // The walk reached the handlers' inner nodes, or the check below proves little.
    expect(nodes.length).toBeGreaterThan(40);
    for (const node of nodes) {
      expect(typeof node.start, node.type).toBe('number');
      expect(typeof node.end, node.type).toBe('number');
      expect(node, node.type).not.toHaveProperty('range');
    }
    const shorthand = nodes.find((node) => node.type === 'Identifier' && node.name === 'payload');
    expect(SOURCE.slice(shorthand?.start, shorthand?.end)).toBe('payload');
  });

  it('reports a syntax error as SEC016 at its line, and gives no tree', () => {
    const text = 'export const main = {}\nexport const handlers = () => ({ a: }\n';
    const sink = new FindingSink('broken.mjs', text);
    expect(parseModule(text, sink)).toBeNull();
    expect(sink.findings).toEqual([expect.objectContaining({ code: 'SEC016', line: 2 })]);
  });
});
