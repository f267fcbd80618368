// A route's `output.schema` read off real answers (`flowguard test --update-output`): the types
// of every answer merged into one schema of the FlowMCP output grammar the checker accepts
// (src/schema/output.ts): `type`, `description`, `nullable`, `properties`, `items`.
//
// - A value seen as null anywhere makes its node `nullable`; a node only ever null is typed
//   `string` (the grammar needs a type; nothing says which) and a note says so.
// - Objects: the union of the keys every answer showed (the grammar has no `required`, so a key
//   some answers lack is fine). Arrays: one `items` merged over every element of every answer;
//   an array only ever empty has no `items`.
// - Integers are `number` (the grammar has no integer). Two types at one place (a number here,
//   a string there) cannot be said in the grammar: the first one seen is kept and a note says so.
// - The root is level 1 and each `properties` child or `items` adds one (RULINGS R10): nodes of
//   level 4 get no children, deeper values are typed `object`/`array` only.
// - A `description` the previous schema had at the same place, for the same type, is kept: a
//   refresh should not throw away what the author wrote.

import { MAX_OUTPUT_DEPTH } from '../schema/output.js';
import { isRecord } from '../shared/raw.js';


type NodeType = 'string' | 'number' | 'boolean' | 'object' | 'array';
type SchemaNode = Record<string, unknown>;

/** What the answers showed at one place of the data. */
interface Seen {
  /** Types in the order first seen. */
  types: NodeType[];
  nullable: boolean;
  properties: Map<string, Seen>;
  /** The elements of every array seen here; null while no element was seen. */
  items: Seen | null;
}

export interface InferredOutput {
  schema: SchemaNode;
  /** What the schema could not say exactly: `/data/price: seen as number and string; typed number`. */
  notes: string[];
}

/** The output schema of `answers` (parsed JSON values, at least one); `previous` lends its descriptions. */
export function inferOutputSchema(answers: readonly unknown[], previous?: unknown): InferredOutput {
  const root = emptySeen();
  for (const answer of answers) observe(root, answer, 1);
  const notes: string[] = [];
  return { schema: emit(root, 1, previous, '', notes), notes };
}

function emptySeen(): Seen {
  return { types: [], nullable: false, properties: new Map(), items: null };
}

function observe(seen: Seen, value: unknown, level: number): void {
  if (value === null || value === undefined) {
    seen.nullable = true;
    return;
  }
  const type = typeOf(value);
  if (!seen.types.includes(type)) seen.types.push(type);
  if (level >= MAX_OUTPUT_DEPTH) return;
  if (type === 'array') {
    for (const element of value as unknown[]) observe((seen.items ??= emptySeen()), element, level + 1);
  } else if (type === 'object') {
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      let entry = seen.properties.get(key);
      if (!entry) seen.properties.set(key, (entry = emptySeen()));
      observe(entry, child, level + 1);
    }
  }
}

function typeOf(value: unknown): NodeType {
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'object';
  }
}

/** The schema node of what was seen at `pointer`, keys in the canonical order of src/schema/output.ts. */
function emit(seen: Seen, level: number, previous: unknown, pointer: string, notes: string[]): SchemaNode {
  const [first] = seen.types;
  const type: NodeType = first ?? 'string';
  if (first === undefined) notes.push(`${pointer || '(root)'}: only ever null; typed string`);
  else if (seen.types.length > 1) notes.push(`${pointer || '(root)'}: seen as ${seen.types.join(' and ')}; typed ${type}`);
  const before = isRecord(previous) && previous.type === type ? previous : undefined;
  const node: SchemaNode = { type };
  if (typeof before?.description === 'string' && before.description !== '') node.description = before.description;
  if (seen.nullable) node.nullable = true;
  if (level >= MAX_OUTPUT_DEPTH) return node;
  if (type === 'object' && seen.properties.size > 0) {
    const previousProperties = isRecord(before?.properties) ? before.properties : {};
    const properties: SchemaNode = {};
    for (const [key, child] of seen.properties) {
      const value = emit(child, level + 1, Object.hasOwn(previousProperties, key) ? previousProperties[key] : undefined, `${pointer}/${escapePointer(key)}`, notes);
      // defineProperty: a key named __proto__ stays a plain key.
      Object.defineProperty(properties, key, { value, enumerable: true, writable: true, configurable: true });
    }
    node.properties = properties;
  }
  if (type === 'array' && seen.items) node.items = emit(seen.items, level + 1, before?.items, `${pointer}/*`, notes);
  return node;
}

/** A key as one JSON pointer step (RFC 6901). */
function escapePointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}
