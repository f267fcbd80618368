// The data of a 1.2.0 schema in the 2.0.0 form (SPEC-NOTES §16): the fields move into `main`,
// `flowMCP` becomes `version: '2.0.0'`, `requestMethod` and `route` become `method` and `path`,
// and each route's `modifiers` say which legacy handlers run in which phase.

import { childPath, type FindingSink } from '../report/findings.js';
import { isRecord } from '../shared/raw.js';

export type Phase = 'pre' | 'execute' | 'post';

/** A route's legacy handlers by phase, each list in the order its modifiers named them. */
export type PhaseHandlers = Record<Phase, string[]>;

export interface ConvertedSchema {
  main: Record<string, unknown>;
  /** Routes with at least one handler. */
  hooks: Map<string, PhaseHandlers>;
}

/** `main`'s fields in the order 2.0.0 files write them; `routes` comes last. */
const MAIN_ORDER = [
  'namespace',
  'name',
  'description',
  'version',
  'docs',
  'tags',
  'root',
  'requiredServerParams',
  'headers',
];
/** 1.2.0 fields that have a place in 2.0.0 as they are (`flowMCP`, `routes` and `handlers` are converted). */
const LEGACY_MAIN = new Set([
  'namespace',
  'name',
  'description',
  'docs',
  'tags',
  'root',
  'requiredServerParams',
  'headers',
]);
const LEGACY_ROUTE = new Set(['requestMethod', 'route', 'description', 'parameters', 'tests', 'modifiers']);
const PHASES: ReadonlySet<string> = new Set<Phase>(['pre', 'execute', 'post']);
/** 1.2.0 sent a body only with POST (and PUT, where it was understood). */
const BODY_METHODS = new Set(['POST', 'PUT']);

/** `handlerNames`: the keys of the legacy `handlers` object, which modifiers refer to. */
export function convertSchema(
  data: Record<string, unknown>,
  handlerNames: ReadonlySet<string>,
  sink: FindingSink,
): ConvertedSchema {
  const main: Record<string, unknown> = {};
  for (const key of MAIN_ORDER) {
    if (key === 'version') main.version = '2.0.0';
    else if (key in data) main[key] = data[key];
  }
  // The public catalogs' copies of 1.2.0 files had `routes` renamed to `tools` by the move to 3.0.0.
  const mapKey = 'routes' in data || !('tools' in data) ? 'routes' : 'tools';
  for (const [key, value] of Object.entries(data)) {
    if (LEGACY_MAIN.has(key) || key === 'flowMCP' || key === mapKey) continue;
    carriedOver(sink, childPath('schema', key), `'${key}' is no 1.2.0 field`);
    main[key] = value;
  }
  const hooks = new Map<string, PhaseHandlers>();
  const rawRoutes = data[mapKey];
  if (!isRecord(rawRoutes)) {
    main.routes = rawRoutes ?? {};
    return { main, hooks };
  }
  const routes: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(rawRoutes)) {
    const path = childPath(childPath('schema', mapKey), name);
    if (!isRecord(raw)) {
      routes[name] = raw;
      continue;
    }
    routes[name] = convertRoute(raw, path, sink);
    const phases = readModifiers(raw.modifiers, childPath(path, 'modifiers'), handlerNames, sink);
    if (phases.pre.length + phases.execute.length + phases.post.length > 0) hooks.set(name, phases);
  }
  main.routes = routes;
  return { main, hooks };
}

function convertRoute(raw: Record<string, unknown>, path: string, sink: FindingSink): Record<string, unknown> {
  const method = typeof raw.requestMethod === 'string' ? raw.requestMethod.toUpperCase() : raw.requestMethod;
  const route: Record<string, unknown> = { method, path: raw.route, description: raw.description };
  const parameters = unslashedPatterns(raw.parameters, childPath(path, 'parameters'), sink);
  route.parameters =
    typeof method === 'string' && !BODY_METHODS.has(method)
      ? handlerOnlyBodies(parameters, method, childPath(path, 'parameters'), sink)
      : parameters;
  route.tests = raw.tests;
  for (const [key, value] of Object.entries(raw)) {
    if (LEGACY_ROUTE.has(key)) continue;
    carriedOver(sink, childPath(path, key), `'${key}' is no 1.2.0 route field`);
    route[key] = value;
  }
  // A route without a field stays without it: the checker names what is missing.
  return Object.fromEntries(Object.entries(route).filter(([, value]) => value !== undefined));
}

/**
 * 1.2.0 built a body from `body` parameters but sent it only with POST: on a GET such a
 * parameter reached the handlers (`userParams`) and nothing else. In 2.0.0 that is an insert
 * parameter without a slot in the path.
 */
function handlerOnlyBodies(parameters: unknown, method: string, path: string, sink: FindingSink): unknown {
  if (!Array.isArray(parameters)) return parameters;
  return parameters.map((parameter, index) => {
    if (!isRecord(parameter) || !isRecord(parameter.position) || parameter.position.location !== 'body')
      return parameter;
    sink.add(
      'MIG004',
      childPath(childPath(childPath(path, index), 'position'), 'location'),
      `body parameter '${String(parameter.position.key)}' of a ${method} route was never sent by 1.2.0, only handed to the handlers; it becomes an insert parameter without a path slot, which only handlers read`,
      'if the API should receive it, make it a query parameter',
    );
    return { ...parameter, position: { ...parameter.position, location: 'insert' } };
  });
}

/** `regex(/p/)`: 1.2.0 made `new RegExp('/p/')`, which wants the slashes in the value. */
const SLASHED_PATTERN = /^regex\(\/(.*)\/\)$/s;

/**
 * 1.2.0 files wrote patterns as `regex(/p/)`, and 1.2.0 made a RegExp of the text between the
 * parentheses, slashes and all: such a parameter accepted nothing its author meant. The new
 * file says `regex(p)`, which is what they meant.
 */
function unslashedPatterns(parameters: unknown, path: string, sink: FindingSink): unknown {
  if (!Array.isArray(parameters)) return parameters;
  return parameters.map((parameter, index) => {
    if (!isRecord(parameter) || !isRecord(parameter.z) || !Array.isArray(parameter.z.options)) return parameter;
    const optionsPath = childPath(childPath(childPath(path, index), 'z'), 'options');
    const options = parameter.z.options.map((option, at) => {
      const pattern = typeof option === 'string' ? SLASHED_PATTERN.exec(option)?.[1] : undefined;
      if (pattern === undefined) return option;
      sink.add(
        'MIG008',
        childPath(optionsPath, at),
        `${option} matched values only with the slashes in them in 1.2.0 (it made new RegExp of the whole text); written as regex(${pattern})`,
        "check that the route's tests show values the pattern should accept",
      );
      return `regex(${pattern})`;
    });
    return { ...parameter, z: { ...parameter.z, options } };
  });
}

function readModifiers(
  raw: unknown,
  path: string,
  handlerNames: ReadonlySet<string>,
  sink: FindingSink,
): PhaseHandlers {
  const phases: PhaseHandlers = { pre: [], execute: [], post: [] };
  if (!Array.isArray(raw)) return phases;
  raw.forEach((modifier, index) => {
    const at = childPath(path, index);
    const phase = isRecord(modifier) ? modifier.phase : undefined;
    const name = isRecord(modifier) ? modifier.handlerName : undefined;
    if (typeof phase !== 'string' || !PHASES.has(phase)) {
      sink.add(
        'MIG003',
        at,
        `modifier phase ${JSON.stringify(phase)} is none of pre, execute and post; dropped`,
        'in 1.2.0 such a modifier never ran',
      );
    } else if (typeof name !== 'string' || !handlerNames.has(name)) {
      sink.add(
        'MIG003',
        at,
        `modifier names handler ${JSON.stringify(name)}, which the 1.2.0 handlers do not define; dropped`,
        'in 1.2.0 this route failed on every call; write the handler, or remove the modifier',
      );
    } else {
      phases[phase as Phase].push(name);
    }
  });
  return phases;
}

function carriedOver(sink: FindingSink, path: string, what: string): void {
  sink.add(
    'MIG005',
    path,
    `${what}; carried over as written`,
    'the check of the new file says whether 2.0.0 accepts it',
  );
}
