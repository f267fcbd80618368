// The tool sets one HTTP server serves, by path: `/mcp` the catalog (or the one group of
// `serve --group`) and `/mcp/<group>` each group of `.flowmcp/groups.json` as a server of its own
// (a client set up for one task connects to one small endpoint). Which groups verify is
// decided by the caller (`serve`, as `serve --group` decides); a group that does not is still
// named here, so that its path says why it is not served instead of being merely unknown.

import type { McpServerOptions } from '../mcp/server.js';

/** What a group endpoint's server serves instead of the whole catalog. */
export type EndpointServing = Pick<McpServerOptions, 'tools' | 'prompts' | 'discovery'>;

/** A `/mcp/<name>` endpoint: a verified group (or 4.x selection) and what it serves, or one refused and why. */
export type GroupEndpoint = ({ name: string; serving: EndpointServing } | { name: string; refused: string }) & {
  kind?: 'group' | 'selection';
};

/** The endpoint a request's path names: its key (sessions belong to one), and what its servers serve. */
export interface Endpoint {
  path: string;
  serving: EndpointServing;
}

export type EndpointMatch = { found: Endpoint } | { missing: string } | null;

export class EndpointTable {
  private readonly groups = new Map<string, GroupEndpoint>();

  constructor(
    private readonly root: string,
    groups: readonly GroupEndpoint[],
  ) {
    for (const group of groups) this.groups.set(group.name, group);
  }

  /** Whether the path is the root endpoint or one below it (checked before a request is admitted; what it names is told only after). */
  claims(pathname: string): boolean {
    return pathname === this.root || pathname.startsWith(`${this.root}/`);
  }

  /** The endpoint of a claimed path, or why there is none (a 404's message). */
  match(pathname: string): Exclude<EndpointMatch, null> {
    if (pathname === this.root) return { found: { path: this.root, serving: {} } };
    const name = pathname.slice(this.root.length + 1);
    const group = this.groups.get(name);
    if (!group) return { missing: `Not found: no endpoint ${pathname.slice(0, 200)}; ${this.known()}` };
    if ('refused' in group)
      return { missing: `Not found: ${group.kind ?? 'group'} '${name}' is not served: ${group.refused}` };
    return { found: { path: pathname, serving: group.serving } };
  }

  /** The paths served, for a 404's message. */
  private known(): string {
    const served = [...this.groups.values()]
      .filter((group) => !('refused' in group))
      .map((group) => `${this.root}/${group.name}`);
    return `this server's endpoints are ${[this.root, ...served].join(', ')}`;
  }
}
