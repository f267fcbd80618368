// Reading the JSON Schema dialects of Swagger 2.0, OpenAPI 3.0 and 3.1 the same way: the one type
// of a node (3.1's `type: ['string', 'null']` and 3.0's `nullable` alike), its examples, and
// `allOf` members merged into one object node.

import { isRecord, type RawObject } from '../shared/raw.js';

export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';
const TYPES = new Set<string>(['string', 'number', 'integer', 'boolean', 'array', 'object']);

export interface NodeType {
  type: JsonType | undefined;
  nullable: boolean;
}

/** The node's single type (absent when it has none, or several besides null) and whether null is allowed. */
export function typeOf(node: RawObject): NodeType {
  const declared = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
  const nullable = node.nullable === true || declared.includes('null') || node['x-nullable'] === true;
  const types = declared.filter((type): type is JsonType => typeof type === 'string' && TYPES.has(type));
  if (types.length === 1) return { type: types[0], nullable };
  if (types.length === 0 && isRecord(node.properties)) return { type: 'object', nullable };
  if (types.length === 0 && isRecord(node.items)) return { type: 'array', nullable };
  return { type: undefined, nullable };
}

/** `allOf` members folded into the node (their properties merged); other nodes as they are. */
export function flattenAllOf(node: RawObject, depth = 0): RawObject {
  if (!Array.isArray(node.allOf) || depth > 8) return node;
  const { allOf, ...rest } = node;
  let merged: RawObject = { ...rest };
  for (const member of allOf as unknown[]) {
    if (!isRecord(member)) continue;
    const flat = flattenAllOf(member, depth + 1);
    const properties = {
      ...(isRecord(merged.properties) ? merged.properties : {}),
      ...(isRecord(flat.properties) ? flat.properties : {}),
    };
    merged = { ...flat, ...merged, properties };
  }
  if (Object.keys(merged.properties as RawObject).length === 0) delete merged.properties;
  return merged;
}

/** The first example a node gives: `example`, 3.1's `examples` array, Swagger's `x-example`. */
export function exampleOf(node: RawObject | undefined): { value: unknown } | undefined {
  if (!node) return undefined;
  if (node.example !== undefined) return { value: node.example };
  if (Array.isArray(node.examples) && node.examples.length > 0) return { value: node.examples[0] };
  if (node['x-example'] !== undefined) return { value: node['x-example'] };
  return undefined;
}

/** A description cut at a sentence or word end, whitespace collapsed; empty when there is none. */
export function cutDescription(text: unknown, max = 300): string {
  if (typeof text !== 'string') return '';
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const sentence = cut.lastIndexOf('. ');
  if (sentence > max / 2) return cut.slice(0, sentence + 1);
  const word = cut.lastIndexOf(' ');
  return `${cut.slice(0, word > max / 2 ? word : max - 1)}…`;
}
