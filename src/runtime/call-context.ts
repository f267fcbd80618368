// What the call pipeline (call/pipeline.ts) works with, made once per catalog: argument limits,
// the HTTP client, keys and their redaction, upstream overrides, the handlers in the sandbox, the
// bridge's bounds, and the upstream guard with whose a pause is.

import type { ProjectConfig } from '../config/project.js';
import { credentialOf } from '../guard/credential.js';
import { UpstreamGuard } from '../guard/upstream-guard.js';
import type { HttpClient } from '../http/client.js';
import { NetworkPolicy } from '../http/address-policy.js';
import type { Redactor } from '../http/redact.js';
import type { SecretStore } from '../http/secrets.js';
import type { Upstreams } from '../http/upstreams.js';
import type { SharedState } from '../state/shared-state.js';
import { DEFAULT_ARGUMENT_LIMITS, type CallContext } from '../call/pipeline.js';
import type { HandlerUnits } from '../catalog/handler-units.js';
import { runExecuteRequest, runPostRequest, runPreRequest } from '../call/hooks.js';
import type { Tool } from '../catalog/tools.js';

export interface CallContextParts {
  config: ProjectConfig;
  http: HttpClient;
  secrets: SecretStore;
  redactor: Redactor;
  upstreams: Upstreams;
  units: HandlerUnits;
  tools: readonly Tool[];
  state: SharedState;
}

export function callContext({
  config,
  http,
  secrets,
  redactor,
  upstreams,
  units,
  tools,
  state,
}: CallContextParts): CallContext {
  return {
    limits: { ...DEFAULT_ARGUMENT_LIMITS, ...config.limits },
    http,
    secrets,
    redactor,
    upstreams,
    handlers: {
      hooksOf: (tool) => units.hooksOf(tool.unit, tool.routeName),
      preRequest: (tool, struct, payload) => runPreRequest(units, tool.unit, tool.routeName, struct, payload),
      postRequest: (tool, input) => runPostRequest(units, tool.unit, tool.routeName, input),
      executeRequest: (tool, input, bridge) => runExecuteRequest(units, tool.unit, tool.routeName, input, bridge),
    },
    bridge: {
      maxRequestsPerCall: config.network.maxRequestsPerCall,
      maxBytesPerCall: config.network.maxBytesPerCall,
      privateOrigins: new NetworkPolicy({ allowPrivate: config.network.allowPrivate }).listed,
    },
    guard: new UpstreamGuard(config.upstreamLimits, state, {
      credentialOf: credentials(tools, secrets),
    }),
  };
}

/**
 * Whose a pause is (guard/credential.ts): the values of the keys a namespace's tools declare, are
 * granted and bind to the origin, the ones its requests there can carry. A key bound elsewhere is
 * not the credential an upstream's 429 limits, so two namespaces granted one value share a pause
 * only at an origin both send it to.
 */
function credentials(tools: readonly Tool[], secrets: SecretStore): (namespace: string, origin: string) => string {
  // Each namespace's tools, found on its first request: the guard asks once per namespace and origin.
  const toolsOf = new Map<string, readonly Tool[]>();
  return (namespace, origin) => {
    let own = toolsOf.get(namespace);
    if (own === undefined) toolsOf.set(namespace, (own = tools.filter((tool) => tool.namespace === namespace)));
    const url = new URL(origin);
    const values = own.flatMap((tool) =>
      tool.declaredKeys.filter((key) => tool.reach.binds(key, url)).map((key) => secrets.valueFor(key, namespace)),
    );
    return credentialOf(namespace, values);
  };
}
