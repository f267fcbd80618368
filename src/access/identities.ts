// What each verified caller may list and call (`identities` of the config). A caller maps to the
// first identity, in the config's order, whose `match` holds for it (every field given: its
// subject, its client, all the scopes, one of the groups) or whose static token it presented.
// Once identities are configured, a caller that maps to none is refused: access is granted by the
// config, never by default. An identity's policy narrows the tools served to it (the tools of its
// groups and namespaces, read-only ones only, ones whose keys it may use); tools/list, search and
// calls all read the same selection (src/mcp/server.ts), so what it cannot see it cannot call.

import type { Caller } from './caller.js';
import { IdentityRate, type TakeToken } from './rate.js';
import type { IdentitySettings } from './settings.js';
import { FlowguardError } from '../errors/flowguard-error.js';

/**
 * What a policy reads of a tool (a catalog Tool has these fields). Its own type: the config's
 * shape comes from this room, and the catalog reads the config, so this room reads no catalog type.
 */
export interface PolicyTool {
  reference: string;
  namespace: string;
  method: string;
  /** Keys its request uses, and keys its executeRequest handler may ask for. */
  requiredKeys: readonly string[];
  declaredKeys: readonly string[];
  route: { meta?: { readOnly?: boolean } };
}

/** An identity that cannot be used as configured; the message names it. */
export class IdentityConfigError extends FlowguardError {
  constructor(message: string) {
    super('ERR012', message);
  }
}

/** The tools of a group of `.flowmcp/groups.json` as verified, or why it does not verify. */
export type GroupTools = (group: string) => readonly PolicyTool[] | { refused: string };

export class IdentityPolicy {
  /** Selections made, per base tool list: stable arrays, so the MCP layer's tables built on them are reused. */
  private readonly selections = new WeakMap<readonly PolicyTool[], PolicyTool[]>();

  constructor(
    readonly name: string,
    private readonly references: ReadonlySet<string> | null,
    private readonly namespaces: ReadonlySet<string> | null,
    private readonly settings: IdentitySettings,
    private readonly keyPatterns: readonly RegExp[] | null,
    readonly limiter: IdentityRate | undefined,
  ) {}

  /** What tools/list shows this identity, where it says. */
  get discovery(): 'search' | 'all' | undefined {
    return this.settings.tools;
  }

  /** The tools of `base` this identity may list and call. */
  select<T extends PolicyTool>(base: readonly T[]): T[] {
    let selection = this.selections.get(base) as T[] | undefined;
    if (!selection) this.selections.set(base, (selection = base.filter((tool) => this.admits(tool))));
    return selection;
  }

  admits(tool: PolicyTool): boolean {
    const inScope =
      (this.references === null && this.namespaces === null) ||
      this.references?.has(tool.reference) === true ||
      this.namespaces?.has(tool.namespace) === true;
    if (!inScope) return false;
    if (this.settings.readOnly && !isReadOnly(tool)) return false;
    const patterns = this.keyPatterns;
    return (
      patterns === null ||
      [...tool.requiredKeys, ...tool.declaredKeys].every((key) => patterns.some((pattern) => pattern.test(key)))
    );
  }
}

export class Identities {
  private constructor(
    private readonly entries: ReadonlyArray<{ name: string; settings: IdentitySettings; policy: IdentityPolicy }>,
  ) {}

  /** No identities: every caller lists and calls every tool. */
  static none(): Identities {
    return new Identities([]);
  }

  /** `takeToken` keeps each identity's rate bucket (`identity:<name>`) with the server's other buckets. */
  static create(
    settings: Readonly<Record<string, IdentitySettings>>,
    groupTools: GroupTools,
    takeToken: TakeToken,
  ): Identities {
    const entries = Object.entries(settings).map(([name, entry]) => {
      if (!entry.match && !entry.tokens?.length)
        throw new IdentityConfigError(
          `identities.${name}: names no caller: give it a match (subjects, clients, scopes or groups) or tokens`,
        );
      const references = entry.groups
        ? new Set(entry.groups.flatMap((group) => groupReferences(name, group, groupTools)))
        : null;
      const namespaces = entry.namespaces ? new Set(entry.namespaces) : null;
      const keys = entry.keys ? entry.keys.map(globPattern) : null;
      const rate = entry.rateLimit;
      const limiter = rate
        ? new IdentityRate(
            `identity:${name}`,
            rate.requestsPerSecond,
            rate.burst ?? Math.max(1, Math.ceil(rate.requestsPerSecond)),
            takeToken,
          )
        : undefined;
      return { name, settings: entry, policy: new IdentityPolicy(name, references, namespaces, entry, keys, limiter) };
    });
    return new Identities(entries);
  }

  /** Whether any identity is configured: then every caller must map to one. */
  get configured(): boolean {
    return this.entries.length > 0;
  }

  /** The static tokens that name an identity, as `sha256:<hex>` digests. */
  namedTokens(): Array<{ identity: string; digest: string }> {
    return this.entries.flatMap(({ name, settings }) =>
      (settings.tokens ?? []).map((digest) => ({ identity: name, digest })),
    );
  }

  policy(identity: string): IdentityPolicy | undefined {
    return this.entries.find((entry) => entry.name === identity)?.policy;
  }

  /** The caller with the identity it maps to; undefined when identities are configured and none matches. */
  resolve(caller: Caller): Caller | undefined {
    if (caller.identity !== undefined) return this.policy(caller.identity) ? caller : undefined;
    const found = this.entries.find(({ settings }) => settings.match !== undefined && matches(settings.match, caller));
    if (found) return { ...caller, identity: found.name };
    return this.configured ? undefined : caller;
  }
}

function matches(match: NonNullable<IdentitySettings['match']>, caller: Caller): boolean {
  if (match.subjects && (caller.subject === undefined || !match.subjects.includes(caller.subject))) return false;
  if (match.clients && (caller.client === undefined || !match.clients.includes(caller.client))) return false;
  if (match.scopes && !match.scopes.every((scope) => caller.scopes.includes(scope))) return false;
  if (match.groups && !match.groups.some((group) => caller.groups.includes(group))) return false;
  return true;
}

function groupReferences(identity: string, group: string, groupTools: GroupTools): string[] {
  const tools = groupTools(group);
  if ('refused' in tools)
    throw new IdentityConfigError(`identities.${identity}.groups: group '${group}' cannot be served: ${tools.refused}`);
  return tools.map((tool) => tool.reference);
}

/** Read-only as the MCP annotations say it (src/mcp/server.ts): a 4.x `meta.readOnly`, else a GET. */
function isReadOnly(tool: PolicyTool): boolean {
  return tool.route.meta ? tool.route.meta.readOnly === true : tool.method === 'GET';
}

function globPattern(glob: string): RegExp {
  return new RegExp(
    `^${glob
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
}
