// A tool definition an agent can afford: none in a listing over MAX_DEFINITION_TOKENS.
// A definition over it is cut, in this order, until it fits: every enum of more than
// LISTED_ENUM_VALUES values becomes its first values as `examples` (the enum itself is dropped
// from the listing, so that a client checking arguments against it does not refuse a value the
// server accepts); the output schema is cut to its top level, then dropped; the input schema's
// nested levels and long descriptions are cut; last, the description. The description then says
// what was cut. The full definition is what `describe_tool` gives, and arguments and answers are
// always checked against the full schemas (tool-input.ts, tool-output.ts): a cut listing only loosens
// what a client is told.
//
// Tokens are estimated, not counted: JSON length / CHARS_PER_TOKEN. A tokenizer would add
// megabytes and milliseconds per tool to the runtime for a bound that needs no precision.

import type { JsonSchema } from './tool-input.js';

/** The bound on one definition in a listing, in (estimated) tokens. */
export const MAX_DEFINITION_TOKENS = 8000;

/**
 * Characters of a definition's JSON per o200k token, set below the least ratio measured on the
 * 3.0.0 catalog's largest definitions (2.07 for ethscriptions_getTokenDetails; 3.3 to 4.3 for
 * the others above 5,000 characters), so that an estimate within the bound is a count within it.
 * Most definitions hold 4 characters a token: they are cut from about half the bound.
 */
const CHARS_PER_TOKEN = 2;

/** Enum values a cut listing keeps as examples. */
const LISTED_ENUM_VALUES = 25;

/** Description characters a cut input schema keeps per property. */
const PROPERTY_DESCRIPTION_CHARS = 200;

export function estimateTokens(value: unknown): number {
  return tokensOfChars(JSON.stringify(value).length);
}

/** The estimate for JSON of `chars` characters. */
export function tokensOfChars(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** What sizing needs of a definition (an MCP tool listing entry). */
export interface Definition {
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
}

export interface Affordable<T> {
  definition: T;
  /** What was cut, for the description's note and the author's finding; empty when it fits as it is. */
  cuts: string[];
  /** The estimate of the definition as given, before any cut. */
  tokens: number;
}

/** The definition as it fits the bound: itself when it does, else a cut copy. */
export function affordableDefinition<T extends Definition>(entry: T, bound = MAX_DEFINITION_TOKENS): Affordable<T> {
  const tokens = estimateTokens(entry);
  if (tokens <= bound) return { definition: entry, cuts: [], tokens };
  const cuts: string[] = [];
  let definition: T = { ...entry };
  const fits = () => estimateTokens(definition) + NOTE_TOKENS <= bound;

  const enums: string[] = [];
  definition.inputSchema = cutEnums(entry.inputSchema, enums, 'argument');
  if (entry.outputSchema) definition.outputSchema = cutEnums(entry.outputSchema, enums, 'output');
  if (enums.length > 0)
    cuts.push(`${enums.join(', ')} shortened to their first ${LISTED_ENUM_VALUES} values (as examples)`);
  // With no enum cut the definition is the entry, which was over the bound already.
  if ((enums.length === 0 || !fits()) && definition.outputSchema) {
    definition.outputSchema = topLevel(definition.outputSchema);
    cuts.push('the output schema cut to its top level');
    if (!fits()) {
      delete definition.outputSchema;
      cuts[cuts.length - 1] = 'the output schema left out';
    }
  }
  if (!fits()) {
    definition.inputSchema = topLevel(definition.inputSchema, PROPERTY_DESCRIPTION_CHARS);
    cuts.push('the arguments cut to their top level');
  }
  if (!fits()) {
    const room = Math.max(
      200,
      (bound - NOTE_TOKENS - estimateTokens({ ...definition, description: '' })) * CHARS_PER_TOKEN,
    );
    definition = { ...definition, description: `${(definition.description ?? '').slice(0, room)}…` };
    cuts.push('the description cut');
  }
  definition.description = `${definition.description ?? ''}\n\n${noteOf(cuts)}`;
  return { definition, cuts, tokens };
}

function noteOf(cuts: readonly string[]): string {
  return `[This definition is shortened to fit a model's context: ${cuts.join('; ')}. describe_tool (discovery mode) gives it whole; arguments are checked against the whole.]`;
}

/** Room the note takes (its fixed part and a few cuts). */
const NOTE_TOKENS = 150;

const CHILD_MAPS = ['properties', 'patternProperties', '$defs', 'definitions'];
const CHILD_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const CHILD_NODES = ['items', 'additionalProperties', 'not', 'contains'];

/**
 * The schema with every enum longer than LISTED_ENUM_VALUES as `examples`; `found` names each.
 * Copied only along the way to a cut enum: the schemas cut are the largest (output schemas of
 * thousands of nodes), most of them without such an enum. The path to a node is kept as its
 * keys (`keys`, pushed and popped on the way down) and written only for an enum cut.
 */
function cutEnums(node: JsonSchema, found: string[], where: string, keys: string[] = []): JsonSchema {
  let out: JsonSchema | undefined;
  if (Array.isArray(node.enum) && node.enum.length > LISTED_ENUM_VALUES) {
    out = { ...node };
    delete out.enum;
    out.examples = node.enum.slice(0, LISTED_ENUM_VALUES);
    if (out.type === undefined)
      out.type = [...new Set(node.enum.map((value) => (value === null ? 'null' : typeof value)))];
    out.description = `${typeof node.description === 'string' ? `${node.description} ` : ''}(one of ${node.enum.length} values; examples shows the first ${LISTED_ENUM_VALUES})`;
    found.push(`the ${where} ${keys.length === 0 ? 'values' : keys.join('.')} (${node.enum.length} values)`);
  }
  const children = changedChildren(node, (child, key) => {
    keys.push(key);
    const mapped = cutEnums(child, found, where, keys);
    keys.pop();
    return mapped;
  });
  return children ? { ...(out ?? node), ...children } : (out ?? node);
}

/** The schema's own keywords and its children's types only: `{ type, description }` per property. */
function topLevel(node: JsonSchema, descriptionChars?: number): JsonSchema {
  return { ...node, ...changedChildren(node, (child) => shallow(child, descriptionChars)) };
}

function shallow(node: JsonSchema, descriptionChars = 0): JsonSchema {
  const out: JsonSchema = {};
  if (node.type !== undefined) out.type = node.type;
  if (descriptionChars > 0 && typeof node.description === 'string')
    out.description = node.description.slice(0, descriptionChars);
  if (Array.isArray(node.examples)) out.examples = node.examples;
  return out;
}

/**
 * The keywords of `node` whose subschemas `map` changed, each with all its subschemas mapped
 * (`properties` whole); null when `map` gave every subschema back as it was. Nothing is
 * allocated for a keyword until one of its subschemas changes: most nodes of a large schema
 * keep theirs.
 */
function changedChildren(node: JsonSchema, map: (child: JsonSchema, key: string) => JsonSchema): JsonSchema | null {
  let changed: JsonSchema | null = null;
  for (const key of CHILD_MAPS) {
    const children = node[key];
    if (!isSchema(children)) continue;
    const names = Object.keys(children);
    const mapped = mapChanged(
      names.length,
      (at) => children[names[at] as string],
      (child, at) => (isSchema(child) ? map(child, names[at] as string) : child),
    );
    // fromEntries defines own properties: a property named __proto__ stays a plain key.
    if (mapped) (changed ??= {})[key] = Object.fromEntries(names.map((name, at) => [name, mapped[at]]));
  }
  for (const key of CHILD_LISTS) {
    const children = node[key];
    if (!Array.isArray(children)) continue;
    const mapped = mapChanged(
      children.length,
      (at): unknown => children[at],
      (child, at) => (isSchema(child) ? map(child, `${key}[${at}]`) : child),
    );
    if (mapped) (changed ??= {})[key] = mapped;
  }
  for (const key of CHILD_NODES) {
    const child = node[key];
    if (!isSchema(child)) continue;
    const mapped = map(child, key === 'items' ? '[]' : key);
    if (mapped !== child) (changed ??= {})[key] = mapped;
  }
  return changed;
}

/**
 * Each of `length` values mapped once, in order; the mapped values once one of them differs from
 * its original (those before it were given back as they were), null while none does.
 */
function mapChanged(
  length: number,
  originalAt: (at: number) => unknown,
  mapOne: (value: unknown, at: number) => unknown,
): unknown[] | null {
  let out: unknown[] | null = null;
  for (let at = 0; at < length; at += 1) {
    const original = originalAt(at);
    const value = mapOne(original, at);
    if (out) out.push(value);
    else if (value !== original) {
      out = [];
      for (let before = 0; before < at; before += 1) out.push(originalAt(before));
      out.push(value);
    }
  }
  return out;
}

/** A schema object to walk into: `true`, `false`, arrays and other values have no subschemas to cut. */
function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
