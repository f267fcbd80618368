// Which tools the response cache keeps answers of, and for how long. Read-only routes only: a GET
// route, or any route whose 4.x `meta` says `isReadOnly` (and not `isDestructive`); where `meta`
// is given it decides, so a GET route marked not read-only is never cached. The lifetime, first
// that applies:
//   1. the operator's `cache.overrides`, by reference, then tool name, then namespace;
//   2. the route's `preload` (`enabled: true`, `ttl` in seconds, spec chapter 11);
//   3. a `cacheTtl*` tag of the schema (CACHE_TTL_TAGS; the shortest when there are several);
//   4. `cache.ttlSeconds` (default 0: a route with no hint is not cached).
// A lifetime of 0 means not cached.

import type { CacheConfig } from '../config/project.js';
import type { CanonicalRoute, CanonicalSchema } from '../schema/types.js';

/** What the policy reads of a tool (the catalog's Tool fits it). */
export interface CacheableTool {
  name: string;
  /** `namespace/file.mjs::route` */
  reference: string;
  namespace: string;
  schema: CanonicalSchema;
  route: CanonicalRoute;
  /** Every key the schema declares: the entry is bound to their values (cache-key.ts). */
  declaredKeys: readonly string[];
  /**
   * Where its handlers' requests may go as configured now (`network.allow`, `network.deny`): the
   * entry is bound to it (cache-key.ts), so an answer fetched within an older reach is not served.
   */
  reach: { describe(): unknown };
}

/**
 * The `cacheTtl*` tags of the public catalogs (`main.tags`, 700 files), in seconds. Their names
 * are all the catalogs give; these readings are flowguard's: realtime data answered from a cache
 * would not be realtime, so that tag caches nothing.
 */
export const CACHE_TTL_TAGS: Readonly<Record<string, number>> = Object.freeze({
  cacheTtlRealtime: 0,
  cacheTtlFrequent: 60,
  cacheTtlShort: 300,
  cacheTtlHourly: 3_600,
  cacheTtlDaily: 86_400,
  cacheTtlWeekly: 604_800,
  cacheTtlLong: 604_800,
  cacheTtlStatic: 2_592_000,
});

export interface CachePolicy {
  ttlSeconds: number;
  /** The route said so in `meta`: its answers are kept even if its requests were not GETs. */
  declaredReadOnly: boolean;
}

/** How long `tool`'s answers are kept; null when they are never kept. */
export function cachePolicy(tool: CacheableTool, config: CacheConfig): CachePolicy | null {
  if (!config.enabled || !isReadOnly(tool.route)) return null;
  const declaredReadOnly = tool.route.meta?.readOnly === true;
  const ttlSeconds =
    overrideFor(tool, config.overrides) ??
    (tool.route.preload?.enabled ? tool.route.preload.ttl : null) ??
    tagTtl(tool.schema.tags) ??
    config.ttlSeconds;
  return ttlSeconds > 0 ? { ttlSeconds, declaredReadOnly } : null;
}

function isReadOnly(route: CanonicalRoute): boolean {
  return route.meta ? route.meta.readOnly && !route.meta.destructive : route.method === 'GET';
}

/** The most specific override: the tool's reference, its MCP name, then its namespace. */
function overrideFor(tool: CacheableTool, overrides: CacheConfig['overrides']): number | null {
  const name = [tool.reference, tool.name, tool.namespace].find((candidate) => Object.hasOwn(overrides, candidate));
  return name === undefined ? null : (overrides[name] as number);
}

function tagTtl(tags: readonly string[]): number | null {
  const ttls = tags.filter((tag) => Object.hasOwn(CACHE_TTL_TAGS, tag)).map((tag) => CACHE_TTL_TAGS[tag] as number);
  return ttls.length > 0 ? Math.min(...ttls) : null;
}
