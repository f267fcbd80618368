// One schema file from text to findings and, when it has no error, its canonical form.
// The stages run in a fixed order and each one reports everything it finds; nothing of the
// file is executed here.

import deepFreeze from 'deep-freeze-strict';
import { childPath, FindingSink, type Finding } from '../findings.js';
import { checkRequiredLibraries } from '../libraries/allowlist.js';
import type { ListRegistry, ResolvedList } from '../lists/types.js';
import { isRecord, stringOr, stringsOf, type RawObject } from '../raw.js';
import { scanForbidden } from '../scan/forbidden.js';
import { parseModule } from '../scan/parse.js';
import { checkHandlers } from './handlers.js';
import { checkListRefs, checkListUsage, resolveListRefs } from './list-refs.js';
import { readLiteral } from './literal.js';
import { readSchemaModule } from './module.js';
import { checkOutput } from './output.js';
import { compileParameters, type ParamContext } from './params.js';
import { checkPreload } from './preload.js';
import { checkRouteTests } from './route-tests.js';
import { checkShape } from './shape.js';
import { compilePath, compileRoot, compileValueTemplate, type TemplateContext } from './templates.js';
import type { CanonicalRoute, CanonicalSchema, HttpMethod, Template } from './types.js';

export interface CheckOptions {
  /** The effective library allowlist (defaults plus the project's config). */
  allowedLibraries: ReadonlySet<string>;
  /** The loaded shared lists; without them list references are checked only for their form. */
  lists?: ListRegistry;
}

export interface SchemaCheck {
  file: string;
  findings: Finding[];
  /** Present only when the file has no error-severity finding. */
  schema: CanonicalSchema | null;
}

const ROUTE_NAME = /^[a-z][a-zA-Z0-9]*$/;
const METHODS = new Set<string>(['GET', 'POST', 'PUT', 'DELETE']);
/** A path inside the tests of a route, e.g. `main.routes.getPrice.tests[0].limit`. */
const IN_ROUTE_TESTS = /^main\.routes(?:\.[A-Za-z_$][\w$]*|\["(?:[^"\\]|\\.)*"\])\.tests\b/;

/** What a route's parameters need to know of the schema's shared lists. */
type RouteLists = Pick<ParamContext, 'declaredLists' | 'lists'>;

export function checkSchemaText(file: string, text: string, options: CheckOptions): SchemaCheck {
  const sink = new FindingSink(file, text);
  const schema = checkInto(file, text, options, sink);
  return { file, findings: sink.findings, schema: sink.hasErrors() ? null : schema };
}

function checkInto(file: string, text: string, options: CheckOptions, sink: FindingSink): CanonicalSchema | null {
  const program = parseModule(text, sink);
  if (!program) return null;
  const module = readSchemaModule(program, sink);
  const data = module.main ? readLiteral(module.main, 'main', sink, 'SEC017') : null;
  // A `main` that is literal data through and through holds no code, so the scan may skip it.
  scanForbidden(program, sink, data && data.opaque.length === 0 ? module.main : null);
  if (!data) return null;

  sink.ignoreBelow(data.opaque);
  reportNonJsonNumbers(data.nonFinite, sink);
  checkShape(data.value, sink);
  if (!isRecord(data.value)) return null;

  const main = data.value;
  const serverKeys = new Set(stringsOf(main.requiredServerParams));
  const templates: TemplateContext = { sink, serverKeys };
  const sharedLists = Array.isArray(main.sharedLists) ? checkListRefs(main.sharedLists, sink) : [];
  // A declared list whose entry has another fault is still declared: VAL048 would only repeat it.
  const declaredLists = new Set(Array.isArray(main.sharedLists) ? main.sharedLists.flatMap((entry) => (isRecord(entry) && typeof entry.ref === 'string' ? [entry.ref] : [])) : []);
  const resolvedLists = options.lists ? resolveListRefs(sharedLists, options.lists, sink) : undefined;
  checkRequiredLibraries(stringsOf(main.requiredLibraries), options.allowedLibraries, sink);

  const rawRoutes = isRecord(main.routes) ? main.routes : {};
  const lists: RouteLists = resolvedLists ? { declaredLists, lists: resolvedLists } : { declaredLists };
  const routes = Object.entries(rawRoutes).flatMap(([name, raw]) =>
    isRecord(raw) ? [compileRoute(name, raw, childPath('main.routes', name), templates, lists)] : [],
  );
  const handlers = module.handlers ? checkHandlers(module.handlers, text, new Set(Object.keys(rawRoutes)), sink) : null;
  checkListUsage(sharedLists, routes, handlers?.factorySource ?? null, sink);

  return {
    file,
    namespace: stringOr(main.namespace),
    name: stringOr(main.name),
    description: stringOr(main.description),
    version: stringOr(main.version),
    root: typeof main.root === 'string' ? compileRoot(main.root, 'main.root', templates) : [],
    docs: stringsOf(main.docs),
    tags: stringsOf(main.tags),
    requiredServerParams: [...serverKeys],
    requiredLibraries: stringsOf(main.requiredLibraries),
    headers: compileHeaders(main.headers, templates),
    sharedLists,
    resolvedLists: listEntries(resolvedLists),
    routes,
    handlers,
  };
}

function compileRoute(name: string, raw: RawObject, path: string, templates: TemplateContext, lists: RouteLists): CanonicalRoute {
  const { sink } = templates;
  if (!ROUTE_NAME.test(name)) {
    sink.add('VAL030', path, `route name '${name}' is not camelCase`, 'tool names are derived from it; a camelCase name reads best');
  }
  if ('async' in raw) sink.add('VAL037', childPath(path, 'async'), '`async` is reserved for FlowMCP 2.1.0 and ignored');
  const method = typeof raw.method === 'string' && METHODS.has(raw.method) ? (raw.method as HttpMethod) : undefined;
  const compiledPath = typeof raw.path === 'string' && raw.path.startsWith('/')
    ? compilePath(raw.path, childPath(path, 'path'), templates)
    : { template: [], slots: new Set<string>(), hasQuery: false };

  const parameters = compileParameters(raw.parameters, childPath(path, 'parameters'), {
    sink,
    serverKeys: templates.serverKeys,
    ...lists,
    method,
    pathSlots: compiledPath.slots,
  });
  const insertKeys = new Set(parameters.filter((p) => p.location === 'insert').map((p) => p.key));
  for (const slot of compiledPath.slots) {
    if (!insertKeys.has(slot)) {
      sink.add('VAL050', childPath(path, 'path'), `the path slot '${slot}' is filled by no insert parameter`, `add a parameter with position { key: '${slot}', location: 'insert' }`);
    }
  }

  const route: CanonicalRoute = {
    name,
    method: method ?? 'GET',
    description: stringOr(raw.description),
    path: compiledPath.template,
    pathHasQuery: compiledPath.hasQuery,
    parameters,
    tests: checkRouteTests(raw.tests, childPath(path, 'tests'), parameters, sink),
  };
  const output = checkOutput(raw.output, childPath(path, 'output'), sink);
  if (output) route.output = output;
  const preload = checkPreload(raw.preload, childPath(path, 'preload'), parameters, sink);
  if (preload) route.preload = preload;
  return route;
}

/** What handlers get as `sharedLists`: each resolved list's filtered entries by name, all frozen. */
function listEntries(resolved: ReadonlyMap<string, ResolvedList> | undefined): CanonicalSchema['resolvedLists'] {
  return deepFreeze(Object.fromEntries([...(resolved ?? [])].map(([name, list]) => [name, list.entries])));
}

function compileHeaders(raw: unknown, templates: TemplateContext): Record<string, Template> {
  const headers: Record<string, Template> = {};
  if (!isRecord(raw)) return headers;
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value === 'string') headers[name] = compileValueTemplate(value, childPath('main.headers', name), templates);
  }
  return headers;
}

/**
 * `main` must survive JSON unchanged; a literal like 1e999 does not. Inside route tests this
 * is left to TST005, which says more precisely what is wrong with a test.
 */
function reportNonJsonNumbers(paths: readonly string[], sink: FindingSink): void {
  for (const path of paths) {
    if (!IN_ROUTE_TESTS.test(path)) sink.add('SEC017', path, 'a number too large for JSON is not literal data');
  }
}
