// Every route of every loadable schema becomes one tool, compiled once: its R8 name and
// reference, input schema, request plan, origin rule, reach, handler hooks and the keys it
// lacks. The input schema is made when the tool is first listed or called, the request plan and
// the origin rule on its first call: a command that lists or calls one tool makes only that
// tool's, and most tools of a large catalog are never called. The reach, likewise made on first
// need, is compiled from what the check read (src/schema/reach-origins.ts): from the text that
// was checked, never from the file as it is by then.

import { relative } from 'node:path';
import { OriginRule } from '../http/origin.js';
import { Reach, type ReachSettings } from '../http/reach.js';
import { planRequest, routeKeys, type RequestPlan } from '../http/request.js';
import type { SecretStore } from '../http/secrets.js';
import { InputSchema } from '../schema/tool-input.js';
import type { Hook } from '../sandbox/protocol.js';
import type { CanonicalRoute, CanonicalSchema } from '../schema/types.js';
import type { CallableTool } from '../call/pipeline.js';
import { staticHooks } from './handler-units.js';
import { nameTools } from './names.js';

export interface Tool extends CallableTool {
  description: string;
  /** Every key the route uses: in the schema's root and headers, its path and parameter values. */
  requiredKeys: readonly string[];
  method: CanonicalRoute['method'];
  schema: CanonicalSchema;
  route: CanonicalRoute;
}

/** Where a tool finds its route's hooks once its schema's handlers factory has run (handler-units.ts). */
export interface LoadedHooks {
  loadedHooks(file: string): Readonly<Record<string, Hook[]>> | undefined;
}

const NO_REACH_SETTINGS: ReachSettings = { allow: {}, deny: {} };

/**
 * The tools of `schemas`. Its hooks are read from `units` once its factory has run, never
 * written into the tool: the load freezes every tool once the key lock has hidden those it holds
 * keys back from (src/runtime/catalog.ts), and nothing changes one after that.
 */
export function compileTools(
  schemas: readonly CanonicalSchema[],
  schemasRoot: string,
  secrets: SecretStore,
  units: LoadedHooks,
  reachSettings: ReachSettings = NO_REACH_SETTINGS,
): Tool[] {
  const byIdentity = new Map<string, { schema: CanonicalSchema; route: CanonicalRoute; file: string }>();
  for (const schema of schemas) {
    const file = relative(schemasRoot, schema.file).split('\\').join('/') || schema.file;
    for (const route of schema.routes)
      byIdentity.set(identityKey(schema.namespace, file, route.name), { schema, route, file });
  }
  const origins = new Map<CanonicalSchema, OriginRule>();
  const reaches = new Map<CanonicalSchema, Reach>();
  const named = nameTools(
    [...byIdentity.values()].map(({ schema, route, file }) => ({
      namespace: schema.namespace,
      file,
      route: route.name,
    })),
  );
  return named.map((identity) => {
    const { schema, route } = byIdentity.get(identityKey(identity.namespace, identity.file, identity.route)) as {
      schema: CanonicalSchema;
      route: CanonicalRoute;
    };
    // Before the factory runs, what the static check read from it; null where only running it can tell.
    const staticRouteHooks = staticHooks(schema.handlers, route.name);
    let input: InputSchema | undefined;
    let plan: RequestPlan | undefined;
    const requiredKeys = routeKeys(schema, route);
    return {
      name: identity.name,
      reference: identity.reference,
      routeName: route.name,
      unit: unitId(schema.file),
      description: route.description,
      method: route.method,
      schema,
      route,
      get input() {
        return (input ??= InputSchema.fromParameters(route.parameters));
      },
      get plan() {
        return (plan ??= planRequest(schema, route));
      },
      // One rule per schema, shared by its routes.
      get origin() {
        let rule = origins.get(schema);
        if (!rule) origins.set(schema, (rule = new OriginRule(schema.root)));
        return rule;
      },
      // Made on first need (a call of an executeRequest route, list --json, doctor), once per schema.
      get reach() {
        let reach = reaches.get(schema);
        if (!reach) reaches.set(schema, (reach = reachOf(schema, reachSettings)));
        return reach;
      },
      declaredKeys: schema.requiredServerParams,
      get hooks() {
        const loaded = units.loadedHooks(schema.file);
        return loaded ? (loaded[route.name] ?? []) : staticRouteHooks;
      },
      namespace: schema.namespace,
      requiredKeys,
      missingKeys: secrets.missing(requiredKeys, schema.namespace),
    };
  });
}

/** A schema's reach (R12): its canonical root, the origins its check read, its keys and the operator's settings. */
function reachOf(schema: CanonicalSchema, settings: ReachSettings): Reach {
  return Reach.of(
    { namespace: schema.namespace, root: schema.root, origins: schema.reachOrigins, keys: schema.requiredServerParams },
    settings,
  );
}

/** The sandbox unit of a schema's handlers: one per schema file. */
export function unitId(file: string): string {
  return file;
}

function identityKey(namespace: string, file: string, route: string): string {
  return JSON.stringify([namespace, file, route]);
}
