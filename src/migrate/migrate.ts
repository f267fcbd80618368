// A FlowMCP 1.2.0 file in, the text of a 2.0.0 file out, with findings for what a person has
// to look at (decision R10). The legacy file is read from its syntax tree and never run.

import { basename } from 'node:path';
import { FindingSink, type Finding } from '../report/findings.js';
import { parseModule } from '../scan/parse.js';
import { isRecord } from '../shared/raw.js';
import type { Expression, ObjectExpression } from '../scan/ast.js';
import { convertSchema } from './convert.js';
import { buildFactory } from './factory.js';
import { formatBlock, OneLine, quote } from './format.js';
import { readLegacyData } from './legacy-data.js';
import { readLegacyHandlers } from './legacy-handlers.js';
import { propertyName, readLegacyModule, referencedNames } from './legacy-module.js';
import { commentedOut, reindented } from './source-lines.js';

export interface Migration {
  /** False when the file is no 1.2.0 schema (or could not be parsed): nothing to write. */
  legacy: boolean;
  /** The new file's text, when `legacy`. */
  text?: string;
  /** Findings about the legacy file: what needs a person, and why the file could not be read. */
  findings: Finding[];
  /** Routes converted, and how many of them run legacy handlers. */
  routes: number;
  routesWithHandlers: number;
}

export function migrateLegacyText(file: string, text: string): Migration {
  const sink = new FindingSink(file, text);
  const program = parseModule(text, sink);
  const module = program ? readLegacyModule(program) : null;
  if (!module) return { legacy: false, findings: sink.findings, routes: 0, routesWithHandlers: 0 };

  const { data, handlersValue } = splitHandlers(module.schema);
  const value = readLegacyData(data, 'schema', text, module.bindings, sink);
  const handlers = readLegacyHandlers(handlersValue, module.bindings, sink);
  const converted = convertSchema(value as Record<string, unknown>, handlers.names, sink);
  const factory = buildFactory({
    text,
    module,
    handlers,
    hooks: converted.hooks,
    dataNames: referencedNames(data),
    sink,
  });

  const parts = [
    commentedOut(`Migrated from FlowMCP 1.2.0 (${quote(basename(file))}) by \`flowguard migrate\`.`, ''),
    `export const main = ${formatBlock(laidOut(converted.main))}`,
  ];
  if (factory.source) parts.push(factory.source);
  for (const { node, why } of factory.leftOver) {
    parts.push(
      commentedOut(`flowguard migrate (MIG001): not carried over, ${why}:\n${reindented(text, node, '')}`, ''),
    );
  }
  const routes = Object.keys(converted.main.routes as object).length;
  return {
    legacy: true,
    text: `${parts.join('\n\n\n')}\n`,
    findings: sink.findings,
    routes,
    routesWithHandlers: factory.routes,
  };
}

/** `main` with each parameter and each test marked to be written on one line, as FlowMCP files are. */
function laidOut(main: Record<string, unknown>): Record<string, unknown> {
  if (!isRecord(main.routes)) return main;
  const oneEach = (items: unknown) => (Array.isArray(items) ? items.map((item) => new OneLine(item)) : items);
  const routes = Object.fromEntries(
    Object.entries(main.routes).map(([name, route]) => [
      name,
      isRecord(route) ? { ...route, parameters: oneEach(route.parameters), tests: oneEach(route.tests) } : route,
    ]),
  );
  return { ...main, routes };
}

/** The schema object without its `handlers` field (data), and that field's value (code). */
function splitHandlers(schema: ObjectExpression): { data: ObjectExpression; handlersValue: Expression | null } {
  let handlersValue: Expression | null = null;
  const properties = schema.properties.filter((property) => {
    if (property.type !== 'Property' || property.computed || propertyName(property.key) !== 'handlers') return true;
    handlersValue = property.value as Expression;
    return false;
  });
  return { data: { ...schema, properties }, handlersValue };
}
