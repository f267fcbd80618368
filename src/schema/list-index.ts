// The reverse index of SPEC-NOTES §7.3, for impact analysis: which tools a change to a list,
// or to one field of it, can affect.

import { basename } from 'node:path';
import type { CanonicalRoute, CanonicalSchema } from './types.js';

/**
 * `list:field` → the tools whose enums interpolate that field; `list` → every tool that can
 * see the list at all: those interpolating any of its fields, and every route with handlers
 * in a schema that declares it (handlers get all declared lists). Tools are
 * `namespace/file.mjs::route`, in schema and route order, each once per key.
 */
export function buildListIndex(schemas: readonly CanonicalSchema[]): Map<string, string[]> {
  const index = new Map<string, string[]>();
  const add = (key: string, tool: string): void => {
    const tools = index.get(key);
    if (!tools) index.set(key, [tool]);
    else if (!tools.includes(tool)) tools.push(tool);
  };
  for (const schema of schemas) {
    for (const route of schema.routes) {
      const tool = `${schema.namespace}/${basename(schema.file)}::${route.name}`;
      for (const { list, field } of interpolations(route)) {
        add(`${list}:${field}`, tool);
        add(list, tool);
      }
      if (hasHandlers(schema, route.name)) for (const { ref } of schema.sharedLists) add(ref, tool);
    }
  }
  return index;
}

function interpolations(route: CanonicalRoute): Array<{ list: string; field: string }> {
  return route.parameters.flatMap((param) => (param.type.kind === 'enum' ? param.type.lists : []));
}

/** Where the factory's result could not be read statically, any route may have handlers. */
function hasHandlers(schema: CanonicalSchema, route: string): boolean {
  const handlers = schema.handlers;
  return handlers !== null && (handlers.routes === null || Object.hasOwn(handlers.routes, route));
}
