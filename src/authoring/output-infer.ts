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
// - The root is level 1 and each `properties` child or `items` adds one (decision R10): nodes of
//   level 4 get no children, deeper values are typed `object`/`array` only.
// - What the author wrote (the previous schema) is only ever widened, never narrowed: answers
//   with values do not take away a `nullable: true`; a property or an array's `items` the
//   answers did not show is kept as written; an `enum` is kept and gains the values the answers
//   showed beside it; a `format` and a `description` are kept at the same place for the same
//   type. Where the answers contradict the author, they win and a note says so: a type the
//   answers never showed, a `format` a value does not fit (an enum of too many values seen).

import { MAX_OUTPUT_DEPTH } from '../schema/output.js';
import { isRecord } from '../shared/raw.js';
import { fitsFormat } from '../schema/tool-output.js';

/** Distinct scalar values remembered per place, for an author's `enum`; beyond it the enum cannot stay. */
const MAX_ENUM_VALUES = 256;

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
  /** The distinct strings, numbers and booleans seen here, up to MAX_ENUM_VALUES; null past it. */
  values: Set<unknown> | null;
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
  return { types: [], nullable: false, properties: new Map(), items: null, values: new Set() };
}

function observe(seen: Seen, value: unknown, level: number): void {
  if (value === null || value === undefined) {
    seen.nullable = true;
    return;
  }
  const type = typeOf(value);
  if (!seen.types.includes(type)) seen.types.push(type);
  if (type !== 'object' && type !== 'array' && seen.values) {
    seen.values.add(typeof value === 'bigint' ? Number(value) : value);
    if (seen.values.size > MAX_ENUM_VALUES) seen.values = null;
  }
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
  const place = pointer || '(root)';
  const author = isRecord(previous) ? previous : undefined;
  const type = chooseType(seen, author?.type, place, notes);
  const before = author?.type === type ? author : undefined;
  const node: SchemaNode = { type };
  if (typeof before?.description === 'string' && before.description !== '') node.description = before.description;
  if (seen.nullable || before?.nullable === true) node.nullable = true;
  const choices = widenedEnum(before?.enum, type, seen.values, place, notes);
  if (choices) node.enum = choices;
  if (before?.format !== undefined && keepsFormat(before.format, type, seen.values, place, notes))
    node.format = before.format;
  if (level >= MAX_OUTPUT_DEPTH) return node;
  const previousProperties = isRecord(before?.properties) ? before.properties : {};
  if (type === 'object' && (seen.properties.size > 0 || Object.keys(previousProperties).length > 0)) {
    const properties: SchemaNode = {};
    for (const [key, child] of seen.properties) {
      setOwn(
        properties,
        key,
        emit(
          child,
          level + 1,
          Object.hasOwn(previousProperties, key) ? previousProperties[key] : undefined,
          `${pointer}/${escapePointer(key)}`,
          notes,
        ),
      );
    }
    // A property no answer showed may still come (the grammar has no `required`): kept as written.
    for (const [key, written] of Object.entries(previousProperties))
      if (!seen.properties.has(key)) setOwn(properties, key, written);
    node.properties = properties;
  }
  if (type === 'array') {
    if (seen.items) node.items = emit(seen.items, level + 1, before?.items, `${pointer}/*`, notes);
    else if (before?.items !== undefined) node.items = before.items;
  }
  return node;
}

/** The first type seen, or the author's where the answers showed it too; the author's where they showed only null. */
function chooseType(seen: Seen, written: unknown, place: string, notes: string[]): NodeType {
  const [first] = seen.types;
  if (first === undefined) {
    if (typeof written === 'string' && isNodeType(written)) return written;
    notes.push(`${place}: only ever null; typed string`);
    return 'string';
  }
  const type = typeof written === 'string' && isNodeType(written) && seen.types.includes(written) ? written : first;
  if (seen.types.length > 1) notes.push(`${place}: seen as ${seen.types.join(' and ')}; typed ${type}`);
  else if (typeof written === 'string' && written !== type)
    notes.push(`${place}: written as ${written}, seen as ${type}; typed ${type}`);
  return type;
}

function isNodeType(type: string): type is NodeType {
  return type === 'string' || type === 'number' || type === 'boolean' || type === 'object' || type === 'array';
}

/** The author's enum and, after it, the values of the node's type the answers showed beside it. */
function widenedEnum(
  written: unknown,
  type: NodeType,
  values: Set<unknown> | null,
  place: string,
  notes: string[],
): unknown[] | undefined {
  if (!Array.isArray(written)) return undefined;
  if (values === null) {
    notes.push(`${place}: more than ${MAX_ENUM_VALUES} distinct values seen; enum left out`);
    return undefined;
  }
  const added = [...values].filter((value) => typeof value === type && !written.includes(value));
  if (added.length > 0) notes.push(`${place}: enum gains ${added.map((value) => JSON.stringify(value)).join(', ')}`);
  return [...written, ...added];
}

/** Whether the author's format stays: every string the answers showed here fits it. */
function keepsFormat(
  format: unknown,
  type: NodeType,
  values: Set<unknown> | null,
  place: string,
  notes: string[],
): boolean {
  if (type !== 'string') return false;
  const misfit =
    values === null ? undefined : [...values].find((value) => typeof value === 'string' && !fitsFormat(format, value));
  if (misfit === undefined) return true;
  notes.push(`${place}: ${JSON.stringify(misfit)} is not a ${String(format)}; format left out`);
  return false;
}

/** defineProperty: a key named __proto__ stays a plain key. */
function setOwn(target: SchemaNode, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A key as one JSON pointer step (RFC 6901). */
function escapePointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}
