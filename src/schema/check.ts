// One schema file from text to findings and its canonical form. The stages run in a fixed
// order and each one reports everything it finds; nothing of the file is executed here.
//
// The smallest unit fails (decision R1, scope.ts): an error inside a route leaves that route out
// of the canonical form, an error that concerns the whole file leaves the file out, and an
// authoring error (tests, outputs, descriptions) leaves nothing out. `validate` reports every
// finding with its own severity; the serving commands read the same check.

import deepFreeze from 'deep-freeze-strict';
import { withSuggestion } from '../report/did-you-mean.js';
import { childPath, FindingSink, type Finding } from '../report/findings.js';
import { checkRequiredLibraries } from '../libraries/allowlist.js';
import type { ListRegistry, ResolvedList } from '../lists/types.js';
import { isRecord, stringOr, stringsOf, type RawObject } from '../shared/raw.js';
import { scanForbidden } from '../scan/forbidden.js';
import { parseWithLeadingData } from '../scan/leading-parse.js';
import { checkHandlers } from './handlers.js';
import { checkListRefs, checkListUsage, resolveListRefs } from './list-refs.js';
import { readLiteral } from '../scan/literal.js';
import { readPromptFile } from '../prompts/prompt-file.js';
import type { PromptDefinition } from '../prompts/types.js';
import { readSchemaModule, type OtherFile } from './module.js';
import { checkOutput } from './output.js';
import { compileParameters, type ParamContext } from './params.js';
import { reportSingleBraces, type RouteBraces } from './path-braces.js';
import { readReachOrigins } from './reach-origins.js';
import { checkPreload } from './preload.js';
import { checkRouteTests } from './route-tests.js';
import { fileVerdict } from '../report/scope.js';
import { checkShape } from './shape.js';
import { compilePath, compileRoot, compileValueTemplate, type TemplateContext } from './templates.js';
import { readToolMeta } from './tool-meta.js';
import {
  INFO_FIELDS,
  type CanonicalRoute,
  type CanonicalSchema,
  type HttpMethod,
  type SchemaInfo,
  type Template,
  type ToolMeta,
} from './types.js';
import { checkNamespace, readMajor, readToolMap, reportUnservedPrimitives } from './version.js';

export interface CheckOptions {
  /** The effective library allowlist (defaults plus the project's config). */
  allowedLibraries: ReadonlySet<string>;
  /** The loaded shared lists; without them list references are checked only for their form. */
  lists?: ListRegistry;
}

export interface SchemaCheck {
  file: string;
  /** Every finding, each with its code's severity (what `validate` shows). */
  findings: Finding[];
  /**
   * What can be served: the file's canonical form with only the routes that have no error of
   * their own. Null when the file is rejected (an error that concerns the whole file) or is no
   * schema.
   */
  schema: CanonicalSchema | null;
  /** Every route (tool) the file declares, in order; those missing from `schema` were dropped. Absent when the file was not read. */
  routes?: string[];
  /** Set for a skill, prompt or agent file: recognised, not checked as a schema. */
  skipped?: OtherFile;
  /** A skill or prompt file's prompt, when it has no error (served as an MCP prompt). */
  prompt?: PromptDefinition;
}

const ROUTE_NAME = /^[a-z][a-zA-Z0-9]*$/;
const METHODS = new Set<string>(['GET', 'POST', 'PUT', 'DELETE']);
/** A path inside the tests of a route, e.g. `main.routes.getPrice.tests[0].limit`. */
const IN_ROUTE_TESTS = /^main\.(?:routes|tools)(?:\.[A-Za-z_$][\w$]*|\["(?:[^"\\]|\\.)*"\])\.tests\b/;

/** What a route's parameters need to know of the schema's shared lists. */
type RouteLists = Pick<ParamContext, 'declaredLists' | 'lists'>;

export function checkSchemaText(file: string, text: string, options: CheckOptions): SchemaCheck {
  const sink = new FindingSink(file, text);
  const read = checkInto(file, text, options, sink);
  const check: SchemaCheck = { file, findings: sink.findings, schema: null, routes: read.routes };
  if (read.skipped) check.skipped = read.skipped;
  if (read.prompt) check.prompt = read.prompt;
  const verdict = fileVerdict(check);
  if (read.schema && verdict.status === 'loads') {
    const dropped = new Set(verdict.dropped.map(({ route }) => route));
    check.schema = { ...read.schema, routes: read.schema.routes.filter((route) => !dropped.has(route.name)) };
  }
  return check;
}

interface ReadFile {
  schema: CanonicalSchema | null;
  routes: string[];
  skipped?: OtherFile;
  prompt?: PromptDefinition;
}

function checkInto(file: string, text: string, options: CheckOptions, sink: FindingSink): ReadFile {
  // `main` is read from the text where it opens the file as plain data (scan/leading-data.ts).
  const { program, data: leadingMain, parsedText } = parseWithLeadingData(text, 'main', sink);
  if (!program) return { schema: null, routes: [] };
  const module = readSchemaModule(program, sink);
  if (module.other) {
    const prompt = module.other === 'agent' ? null : readPromptFile(program, module.other, sink);
    return prompt
      ? { schema: null, routes: [], skipped: module.other, prompt }
      : { schema: null, routes: [], skipped: module.other };
  }
  const data = leadingMain ? leadingMain.data : module.main ? readLiteral(module.main, 'main', sink, 'SEC017') : null;
  // A `main` that is literal data through and through holds no code, so the scan may skip it.
  scanForbidden(program, sink, data && data.opaque.length === 0 ? module.main : null);
  if (!data) return { schema: null, routes: [] };

  sink.ignoreBelow(data.opaque);
  reportNonJsonNumbers(data.nonFinite, sink);
  checkShape(data.value, sink);
  if (!isRecord(data.value)) return { schema: null, routes: [] };

  const main = data.value;
  const major = readMajor(main, sink);
  checkNamespace(main, major, sink);
  const toolMap = readToolMap(main, major, sink);
  reportUnservedPrimitives(main, sink);
  const rawRoutes = toolMap?.entries ?? {};
  const routeNames = Object.keys(rawRoutes);

  const serverKeys = new Set(stringsOf(main.requiredServerParams));
  const templates: TemplateContext = { sink, serverKeys };
  const sharedLists = Array.isArray(main.sharedLists) ? checkListRefs(main.sharedLists, sink) : [];
  // A declared list whose entry has another fault is still declared: VAL048 would only repeat it.
  const declaredLists = new Set(
    Array.isArray(main.sharedLists)
      ? main.sharedLists.flatMap((entry) => (isRecord(entry) && typeof entry.ref === 'string' ? [entry.ref] : []))
      : [],
  );
  const resolvedLists = options.lists ? resolveListRefs(sharedLists, options.lists, sink) : undefined;
  checkRequiredLibraries(stringsOf(main.requiredLibraries), options.allowedLibraries, sink);

  const lists: RouteLists = resolvedLists ? { declaredLists, lists: resolvedLists } : { declaredLists };
  const defaultMeta = readToolMeta(main.meta);
  const mapPath = childPath('main', toolMap?.key ?? 'routes');
  const braces: RouteBraces[] = [];
  const routes = Object.entries(rawRoutes).flatMap(([name, raw]) =>
    isRecord(raw) ? [compileRoute(name, raw, childPath(mapPath, name), templates, lists, defaultMeta, braces)] : [],
  );
  const handlers = module.handlers ? checkHandlers(module.handlers, parsedText, new Set(routeNames), sink) : null;
  // Whether `{id}` can still be filled depends on the route's handlers.
  reportSingleBraces(braces, handlers, sink);
  checkListUsage(sharedLists, routes, handlers?.factorySource ?? null, sink);

  const listsGiven = listEntries(resolvedLists);
  const schema: CanonicalSchema = {
    file,
    namespace: stringOr(main.namespace),
    name: stringOr(main.name),
    description: stringOr(main.description),
    version: stringOr(main.version),
    info: readInfo(main),
    // Only tools need a root; a file of resources or skills only may leave it out (3.x, 4.x).
    root: routeNames.length > 0 ? readRoot(main.root, templates) : [],
    docs: stringsOf(main.docs),
    tags: stringsOf(main.tags),
    requiredServerParams: [...serverKeys],
    requiredLibraries: stringsOf(main.requiredLibraries),
    headers: compileHeaders(main.headers, templates),
    sharedLists,
    resolvedLists: listsGiven,
    routes,
    handlers,
    reachOrigins: readReachOrigins(text, listsGiven, [...serverKeys], sink),
  };
  return { schema, routes: routeNames };
}

function readRoot(raw: unknown, templates: TemplateContext): Template {
  if (typeof raw === 'string') return compileRoot(raw, 'main.root', templates);
  if (raw === undefined)
    templates.sink.add(
      'VAL015',
      'main.root',
      '`root` is required',
      'the base URL of every tool, e.g. https://api.example.com',
    );
  return [];
}

/** Compiles one route; single-brace names in its path are added to `braces`, judged once the handlers are read. */
function compileRoute(
  name: string,
  raw: RawObject,
  path: string,
  templates: TemplateContext,
  lists: RouteLists,
  defaultMeta: ToolMeta | undefined,
  braces: RouteBraces[],
): CanonicalRoute {
  const { sink } = templates;
  if (!ROUTE_NAME.test(name)) {
    sink.add(
      'VAL030',
      path,
      `route name '${name}' is not camelCase`,
      'tool names are derived from it; a camelCase name reads best',
    );
  }
  if ('async' in raw) sink.add('VAL037', childPath(path, 'async'), '`async` is reserved for FlowMCP 2.1.0 and ignored');
  const method = typeof raw.method === 'string' && METHODS.has(raw.method) ? (raw.method as HttpMethod) : undefined;
  const compiledPath =
    typeof raw.path === 'string' && raw.path.startsWith('/')
      ? compilePath(raw.path, childPath(path, 'path'), templates, declaredInsertKeys(raw.parameters))
      : { template: [], slots: new Set<string>(), singleBraces: [], hasQuery: false };

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
      const other = parameters.find((p) => p.key === slot);
      const hint = other
        ? `the parameter '${slot}' has location '${other.location}'; make it 'insert'`
        : withSuggestion(slot, insertKeys, `add a parameter with position { key: '${slot}', location: 'insert' }`);
      sink.add('VAL050', childPath(path, 'path'), `the path slot '${slot}' is filled by no insert parameter`, hint);
    }
  }
  if (compiledPath.singleBraces.length > 0)
    braces.push({ route: name, path: childPath(path, 'path'), names: compiledPath.singleBraces, parameters });

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
  const meta = 'meta' in raw ? readToolMeta(raw.meta) : defaultMeta;
  if (meta) route.meta = meta;
  return route;
}

/** The keys of the parameters a route declares with location `insert`, read before they are checked (the path is compiled first). */
function declaredInsertKeys(parameters: unknown): Set<string> {
  const keys = new Set<string>();
  if (!Array.isArray(parameters)) return keys;
  for (const item of parameters) {
    const position: unknown = isRecord(item) ? item.position : undefined;
    if (isRecord(position) && position.location === 'insert' && typeof position.key === 'string')
      keys.add(position.key);
  }
  return keys;
}

/** The informational fields `main` gives, strings or null as written; one of another type was reported (VAL039). */
function readInfo(main: RawObject): SchemaInfo {
  const info: SchemaInfo = {};
  for (const field of INFO_FIELDS) {
    const value = main[field];
    if (typeof value === 'string' || value === null) info[field] = value;
  }
  return info;
}

/** What handlers get as `sharedLists`: each resolved list's filtered entries by name, all frozen. */
function listEntries(resolved: ReadonlyMap<string, ResolvedList> | undefined): CanonicalSchema['resolvedLists'] {
  return deepFreeze(Object.fromEntries([...(resolved ?? [])].map(([name, list]) => [name, list.entries])));
}

function compileHeaders(raw: unknown, templates: TemplateContext): Record<string, Template> {
  const headers: Record<string, Template> = {};
  if (!isRecord(raw)) return headers;
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value === 'string')
      headers[name] = compileValueTemplate(value, childPath('main.headers', name), templates);
  }
  return headers;
}

/**
 * `main` must survive JSON unchanged; a literal like 1e999 does not. Inside route tests this
 * is left to TST005, which says more precisely what is wrong with a test.
 */
function reportNonJsonNumbers(paths: readonly string[], sink: FindingSink): void {
  for (const path of paths) {
    if (!IN_ROUTE_TESTS.test(path))
      sink.add(
        'SEC017',
        path,
        'a number too large for JSON is not literal data',
        'write a number JSON can carry, or the value as text',
      );
  }
}
