// The 2.0.0 handlers factory for a migrated 1.2.0 schema. The legacy handlers go in as they were
// written, together with the module-level code they use; small adapters run them with the
// arguments 1.2.0 gave them and hand their result back in the shape 2.0.0 asks for:
//
//   1.2.0 handler({ struct: { status, messages, data }, payload: { requestMethod, url, headers, body },
//                   userParams, routeName, phaseType }) -> { struct, payload }
//   2.0.0 preRequest({ struct: request, payload: args }) -> { struct: request }
//         postRequest({ response, struct, payload })     -> { response }
//         executeRequest({ struct, payload: request })   -> { struct: { status, messages, data } }

import type { FindingSink } from '../report/findings.js';
import { startOf, type AnyNode } from '../scan/ast.js';
import type { PhaseHandlers } from './convert.js';
import { formatKey, quote } from './format.js';
import type { LegacyHandlers, LeftOver } from './legacy-handlers.js';
import { referencedNames, type LegacyModule, type ModuleBinding } from './legacy-module.js';
import { reindented } from './source-lines.js';

export interface FactoryInput {
  text: string;
  module: LegacyModule;
  handlers: LegacyHandlers;
  /** The routes' legacy handlers by phase. */
  hooks: ReadonlyMap<string, PhaseHandlers>;
  /** Module-level names the schema's data reads (already resolved into it). */
  dataNames: ReadonlySet<string>;
  sink: FindingSink;
}

export interface FactoryOutput {
  /** `export const handlers = ...`, or null when no route has a handler. */
  source: string | null;
  /** Code left for a person (also reported as MIG001). */
  leftOver: LeftOver[];
  /** Routes that run legacy handlers in the new file. */
  routes: number;
}

const ADAPTER_NAMES = [
  'legacyHandlers',
  'runLegacyPhase',
  'legacyRequest',
  'legacyPreRequest',
  'legacyExecuteRequest',
  'legacyPostRequest',
  'sharedLists',
  'libraries',
];
const HOOK_OF = {
  pre: ['preRequest', 'legacyPreRequest'],
  execute: ['executeRequest', 'legacyExecuteRequest'],
  post: ['postRequest', 'legacyPostRequest'],
} as const;

export function buildFactory(input: FactoryInput): FactoryOutput {
  const { module, handlers, hooks, sink } = input;
  const leftOver = [...handlers.leftOver, ...topLevelCode(module, sink)];
  const used = new Set([...hooks.values()].flatMap((phases) => [...phases.pre, ...phases.execute, ...phases.post]));
  for (const [name, property] of handlers.entries) {
    if (!used.has(name))
      sink.addAt(
        'MIG006',
        startOf(property),
        `handler '${name}' is named by no route's modifiers; left out`,
        undefined,
        `schema.handlers.${name}`,
      );
  }
  const kept = [...handlers.entries].filter(([name]) => used.has(name));
  const copied = neededBindings(
    kept.flatMap(([, property]) => [...referencedNames(property.value)]),
    module.bindings,
  );
  reportUnused(
    module.bindings,
    new Set([...copied, ...(handlers.binding ? [handlers.binding] : [])]),
    input.dataNames,
    sink,
  );
  for (const binding of copied) {
    if (!ADAPTER_NAMES.includes(binding.name)) continue;
    copied.delete(binding);
    leftOver.push({ node: binding.statement, why: `the name '${binding.name}' is taken by the migration's adapters` });
    sink.addAt(
      'MIG001',
      startOf(binding.statement),
      `module-level '${binding.name}' has a name the migration's adapters use; left in a comment`,
      'rename it in the 1.2.0 file and migrate again',
    );
  }
  const routes = [...hooks].flatMap(([route, phases]) => {
    const carried = (Object.keys(HOOK_OF) as Array<keyof PhaseHandlers>).filter((phase) =>
      phases[phase].some((name) => handlers.entries.has(name)),
    );
    return carried.length > 0 ? [{ route, phases, carried }] : [];
  });
  if (routes.length === 0) return { source: null, leftOver, routes: 0 };

  const body: string[] = [];
  if (copied.size > 0)
    body.push(
      '  // Module-level code of the 1.2.0 file that its handlers use.',
      ...[...copied].map((binding) => `  ${reindented(input.text, declarationOf(binding), '  ')}`),
      '',
    );
  body.push(
    HANDLERS_COMMENT,
    '  const legacyHandlers = {',
    kept.map(([, property]) => `    ${reindented(input.text, property, '    ')}`).join(',\n'),
    '  }',
    '',
  );
  const phasesUsed = new Set(routes.flatMap(({ carried }) => carried));
  body.push(RUN_PHASE);
  for (const phase of ['pre', 'execute', 'post'] as const) if (phasesUsed.has(phase)) body.push(ADAPTERS[phase]);
  const entries = routes.map(({ route, phases, carried }) => {
    const hooksText = carried.map((phase) => {
      const names = phases[phase]
        .filter((name) => handlers.entries.has(name))
        .map(quote)
        .join(', ');
      const [hook, adapter] = HOOK_OF[phase];
      return `${hook}: ${adapter}(${quote(route)}, [${names}])`;
    });
    return `    ${formatKey(route)}: { ${hooksText.join(', ')} }`;
  });
  body.push('', '  return {', entries.join(',\n'), '  }');
  return {
    source: `export const handlers = ({ sharedLists, libraries }) => {\n${body.join('\n')}\n}`,
    leftOver,
    routes: routes.length,
  };
}

/** Imports and other top-level code: nothing in a 2.0.0 file may run at import time. */
function topLevelCode(module: LegacyModule, sink: FindingSink): LeftOver[] {
  return module.otherCode.map((statement) => {
    const why =
      statement.type === 'ImportDeclaration'
        ? "an import: a 2.0.0 file imports nothing; a library is named in main.requiredLibraries and arrives as the factory's `libraries` argument"
        : 'top-level code: a 2.0.0 file holds only `main` and the handlers factory';
    sink.addAt(
      'MIG001',
      startOf(statement),
      `${why}; left in a comment at the end of the new file`,
      'port what the handlers need into the handlers factory by hand',
    );
    return { node: statement, why };
  });
}

/** The module-level bindings of `names`, and those they use in turn, in the order written. */
function neededBindings(names: Iterable<string>, bindings: ReadonlyMap<string, ModuleBinding>): Set<ModuleBinding> {
  const needed = new Set<ModuleBinding>();
  const pending = [...names];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const binding = bindings.get(name);
    if (!binding || needed.has(binding)) continue;
    needed.add(binding);
    pending.push(...referencedNames(binding.statement));
  }
  return new Set([...needed].sort((a, b) => startOf(a.statement) - startOf(b.statement)));
}

/** `kept`: the bindings the new file holds (copied, or read for the handlers object). */
function reportUnused(
  bindings: ReadonlyMap<string, ModuleBinding>,
  kept: ReadonlySet<ModuleBinding>,
  dataNames: ReadonlySet<string>,
  sink: FindingSink,
): void {
  const usedByData = neededBindings(dataNames, bindings);
  for (const binding of bindings.values()) {
    if (kept.has(binding) || usedByData.has(binding)) continue;
    sink.addAt(
      'MIG006',
      startOf(binding.statement),
      `module-level '${binding.name}' is used by nothing the new file keeps; left out`,
    );
  }
}

/** The declaration without its `export`: inside the factory it is a local binding. */
function declarationOf(binding: ModuleBinding): AnyNode {
  const statement = binding.statement;
  return statement.type === 'ExportNamedDeclaration' && statement.declaration ? statement.declaration : statement;
}

const HANDLERS_COMMENT = `  // The 1.2.0 handlers as they were written. Each takes { struct, payload, userParams, routeName,
  // phaseType }, where struct is { status, messages, data } and payload is the request
  // { requestMethod, url, headers, body }, and returns { struct, payload }.`;

const RUN_PHASE = `  // Runs a route's 1.2.0 handlers of one phase in the order its modifiers named them. A handler
  // that sets struct.status to false fails the call with its messages, as it did in 1.2.0.
  const runLegacyPhase = async (phaseType, routeName, names, request, userParams, data) => {
    let struct = { status: true, messages: [], data, dataAsString: null }
    let payload = request
    for (const name of names) {
      const result = await legacyHandlers[name]({ struct, payload, userParams, routeName, phaseType })
      struct = result.struct
      payload = result.payload
    }
    if (struct.status === false) {
      throw new Error(struct.messages.join(' ') || \`the \${phaseType} handlers of \${routeName} failed\`)
    }
    return { struct, payload }
  }
  const legacyRequest = ({ method, url, headers, body }) => ({ requestMethod: method, url, headers, body })`;

const ADAPTERS = {
  pre: `  const legacyPreRequest = (routeName, names) => async ({ struct, payload }) => {
    const result = await runLegacyPhase('pre', routeName, names, legacyRequest(struct), payload, null)
    const { url, headers, body } = result.payload
    return { struct: { ...struct, url, headers: headers ?? {}, body: body ?? null } }
  }`,
  execute: `  const legacyExecuteRequest = (routeName, names) => async ({ struct, payload }) => {
    const result = await runLegacyPhase('execute', routeName, names, legacyRequest(payload), payload.userParams, null)
    return { struct: { status: true, messages: result.struct.messages, data: result.struct.data } }
  }`,
  post: `  const legacyPostRequest = (routeName, names) => async ({ response, struct, payload }) => {
    const result = await runLegacyPhase('post', routeName, names, legacyRequest(struct), payload, response)
    return { response: result.struct.data }
  }`,
};
