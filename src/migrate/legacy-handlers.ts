// The `handlers` object of a 1.2.0 schema: functions keyed by handler name, which the routes'
// modifiers refer to. Each entry is carried over as its source text; what cannot be (an entry
// that is not a plain `name: value`, code that needs the 1.2.0 `schema` object) is left for a
// person in a comment.

import type { FindingSink } from '../report/findings.js';
import { startOf, type AnyNode, type Expression, type Property } from '../scan/ast.js';
import { propertyName, referencedNames, type ModuleBinding } from './legacy-module.js';

export interface LeftOver {
  node: AnyNode;
  /** Why it was not carried over, for the comment above it. */
  why: string;
}

export interface LegacyHandlers {
  /** Entries that can be carried over, by handler name. */
  entries: Map<string, Property>;
  /** Every name the object defines, carried over or not: what modifiers may refer to. */
  names: Set<string>;
  leftOver: LeftOver[];
  /** The module-level constant that holds the object, for `handlers: moduleLevelHandlers`. */
  binding?: ModuleBinding;
}

const NEEDS_SCHEMA = 'it uses the 1.2.0 `schema` object, which a 2.0.0 file does not have; give it the values it reads';

/** `value` is the `handlers` field of the schema object, or null when there is none. */
export function readLegacyHandlers(
  value: Expression | null,
  bindings: ReadonlyMap<string, ModuleBinding>,
  sink: FindingSink,
): LegacyHandlers {
  const result: LegacyHandlers = { entries: new Map(), names: new Set(), leftOver: [] };
  if (!value) return result;
  // `handlers: moduleLevelHandlers` reads as the object that constant holds.
  const binding = value.type === 'Identifier' ? bindings.get(value.name) : undefined;
  const object = binding?.constValue ?? value;
  if (binding) result.binding = binding;
  if (object.type !== 'ObjectExpression') {
    leaveOut(
      result,
      sink,
      value,
      '`handlers` is not an object literal, so its entries cannot be told apart',
      'schema.handlers',
    );
    return result;
  }
  for (const property of object.properties) {
    const name = property.type === 'Property' && !property.computed ? propertyName(property.key) : null;
    if (property.type !== 'Property' || name === null) {
      leaveOut(
        result,
        sink,
        property,
        'this entry of `handlers` has no plain name (a spread or a computed key)',
        'schema.handlers',
      );
      continue;
    }
    result.names.add(name);
    if (referencedNames(property.value).has('schema')) {
      leaveOut(result, sink, property, `handler '${name}': ${NEEDS_SCHEMA}`, `schema.handlers.${name}`);
      continue;
    }
    result.entries.set(name, property);
  }
  return result;
}

function leaveOut(result: LegacyHandlers, sink: FindingSink, node: AnyNode, why: string, path: string): void {
  result.leftOver.push({ node, why });
  sink.addAt(
    'MIG001',
    startOf(node),
    `${why}; left in a comment at the end of the new file`,
    'port it into the handlers factory by hand',
    path,
  );
}
