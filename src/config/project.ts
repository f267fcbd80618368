// The operator's project configuration, `.flowmcp/config.json`. It is trusted input, so a
// malformed file stops the command with its findings (config-file.ts; its shape: config-shape.ts).

import { join } from 'node:path';
import type { IdentitySettings, OAuthSettings } from '../access/settings.js';
import { hasErrors } from '../report/findings.js';
import type { OutputValidation } from '../shared/output-validation.js';
import { ConfigError, readConfigFile } from './config-file.js';
import { CONFIG_DEFAULTS } from './defaults.js';

export { ConfigError } from './config-file.js';

/** When handlers factories run: on the first call that needs one (default), or while the catalog loads. */
export type HandlerLoading = 'on-first-call' | 'at-load';

export interface SandboxConfig {
  /** Deadline of a handlers factory or handler call, in milliseconds. */
  deadlineMs?: number;
  /** Heap limit of each sandbox worker, in MiB. */
  memoryMb?: number;
  /** Sandbox worker processes. */
  workers?: number;
  loadHandlers?: HandlerLoading;
}

export interface HttpConfig {
  connectTimeoutMs?: number;
  totalTimeoutMs?: number;
  maxResponseBytes?: number;
  maxRedirects?: number;
  /** Deepest nesting of an upstream JSON answer that is accepted. */
  maxJsonDepth?: number;
  /** Host names or addresses a request to `serve --transport http` may name in its `Host` header, besides the bound one. */
  allowedHosts?: string[];
  /** Bearer tokens of `serve --transport http`, each as `sha256:<hex>` of the token. */
  authTokens?: string[];
}

/**
 * One grant of `security.keys`: the environment variables matching `pattern` (a name, or a
 * `*` glob) may be given to schemas; `namespaces` null means any namespace may use them.
 */
export interface KeyGrant {
  pattern: string;
  namespaces: readonly string[] | null;
}

export interface NetworkConfig {
  /** Private, loopback and other non-public addresses: `true` for every origin, or the origins allowed. */
  allowPrivate: boolean | readonly string[];
  /** Origins added to a namespace's reach for its executeRequest handlers (decision R12). */
  allow: Readonly<Record<string, readonly string[]>>;
  /** Origins taken out of a namespace's reach; `*` takes out all. Wins over everything else. */
  deny: Readonly<Record<string, readonly string[]>>;
  /** Outbound requests one executeRequest call may make. */
  maxRequestsPerCall: number;
  /** Response bytes one executeRequest call may receive, over all its requests. */
  maxBytesPerCall: number;
}

/** Bounds on input from outside, checked before it is walked (decision R13). */
export interface LimitsConfig {
  /** Largest schema or list file read, in bytes. */
  maxFileBytes?: number;
  /** Deepest nesting of a tool's arguments. */
  maxArgumentDepth?: number;
  /** Largest tool arguments, counted as their JSON text, in bytes. */
  maxArgumentBytes?: number;
}

/** The response cache (src/cache/): which read-only tools' answers are kept, and how long. */
export interface CacheConfig {
  enabled: boolean;
  /** Lifetime of tools with no hint in their schema, in seconds; 0 keeps nothing. */
  ttlSeconds: number;
  /** Most entries kept in memory; the store's default when not given. */
  maxEntries?: number;
  /** Lifetime in seconds by tool reference, MCP tool name or namespace; 0 keeps nothing. */
  overrides: Readonly<Record<string, number>>;
}

/** One entry of `upstreamLimits` (src/guard/); a field not given falls to the next entry. */
export interface UpstreamLimit {
  /** Rate of a token bucket, refilled continuously. */
  requestsPerSecond?: number;
  /** The bucket's capacity: requests that may go at once after a quiet spell. */
  burst?: number;
  /** Requests at once, per process; 0 is no bound. */
  concurrency?: number;
}

/** Limits on requests to upstream APIs: per origin over per namespace over the default. */
export interface UpstreamLimitsConfig {
  default?: UpstreamLimit;
  origins?: Readonly<Record<string, UpstreamLimit>>;
  namespaces?: Readonly<Record<string, UpstreamLimit>>;
  /** Longest pause a Retry-After may ask for, in seconds; 0 never pauses. */
  maxPauseSeconds?: number;
}

/** Shared state in Redis (src/state/): rate buckets, pauses and the response cache of every replica. */
export interface RedisConfig {
  url?: string;
  keyPrefix?: string;
  commandTimeoutMs?: number;
}

/** The audit log of `serve` (src/observe/audit-log.ts). */
export interface AuditConfig {
  enabled: boolean;
  /** Its folder; a relative path is taken from the project folder. */
  dir: string;
  /** A file's size before the next one is started, in bytes. */
  maxBytes?: number;
  /** Files kept; the oldest go first. */
  files?: number;
}

export interface ProjectConfig {
  allowedLibraries: string[];
  /** Environment variables the operator grants as keys (`.env` entries need no grant). */
  keys: KeyGrant[];
  network: NetworkConfig;
  limits: LimitsConfig;
  sandbox: SandboxConfig;
  http: HttpConfig;
  /** Upstream overrides: origin (or `*`) → base URL. */
  upstreams: Record<string, string>;
  cache: CacheConfig;
  audit: AuditConfig;
  upstreamLimits: UpstreamLimitsConfig;
  redis: RedisConfig;
  /** Level of the structured logs of `serve` (`--log-level` wins), and whether all it says is a log entry (`--log-format` wins). */
  log: { level?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'; format?: 'text' | 'json' };
  output: { validate: OutputValidation };
  /** What `serve` lists (src/discovery/mode.ts); `serve --tools` wins. */
  discovery: { tools: ToolsSetting; searchAbove?: number; pageSize?: number };
  /** OAuth access tokens of `serve --transport http` (src/access/); `serve --oauth-issuer` and `--resource` win. */
  oauth: OAuthSettings;
  /** What each verified caller may list and call, by name, in the config's order (src/access/identities.ts). */
  identities: Readonly<Record<string, IdentitySettings>>;
}

/** `serve --tools` and `discovery.tools`: every tool listed, the meta-tools of discovery mode, or by the catalog's size. */
export type ToolsSetting = 'auto' | 'search' | 'all';

interface ConfigFile {
  security?: { allowedLibraries?: string[]; keys?: string[] | Record<string, '*' | string[]> };
  network?: {
    allowPrivate?: boolean | string[];
    allow?: Record<string, string[]>;
    deny?: Record<string, string[]>;
    maxRequestsPerCall?: number;
    maxBytesPerCall?: number;
  };
  limits?: LimitsConfig;
  sandbox?: SandboxConfig;
  http?: HttpConfig;
  upstreams?: Record<string, string>;
  cache?: Partial<CacheConfig>;
  audit?: Partial<AuditConfig>;
  log?: ProjectConfig['log'];
  upstreamLimits?: UpstreamLimitsConfig;
  redis?: RedisConfig;
  output?: { validate?: OutputValidation };
  discovery?: { tools?: ToolsSetting; searchAbove?: number; pageSize?: number };
  oauth?: OAuthSettings;
  identities?: Record<string, IdentitySettings>;
}

/** The project's config: defaults where `.flowmcp/config.json` is missing; a ConfigError (ERR002) with its findings where it cannot be used. */
export function loadProjectConfig(projectDir: string): ProjectConfig {
  const file = join(projectDir, '.flowmcp', 'config.json');
  const { data, findings } = readConfigFile(file);
  if (data === undefined || hasErrors(findings)) throw new ConfigError(file, findings);
  return configFrom(data as ConfigFile);
}

function configFrom(data: ConfigFile): ProjectConfig {
  return {
    allowedLibraries: data.security?.allowedLibraries ?? [],
    keys: keyGrants(data.security?.keys),
    network: {
      allowPrivate: data.network?.allowPrivate ?? false,
      allow: data.network?.allow ?? {},
      deny: data.network?.deny ?? {},
      maxRequestsPerCall: data.network?.maxRequestsPerCall ?? CONFIG_DEFAULTS.network.maxRequestsPerCall,
      maxBytesPerCall: data.network?.maxBytesPerCall ?? CONFIG_DEFAULTS.network.maxBytesPerCall,
    },
    limits: data.limits ?? {},
    sandbox: data.sandbox ?? {},
    http: data.http ?? {},
    upstreams: data.upstreams ?? {},
    audit: {
      enabled: data.audit?.enabled ?? CONFIG_DEFAULTS.audit.enabled,
      dir: data.audit?.dir ?? join(...CONFIG_DEFAULTS.audit.dir.split('/')),
      maxBytes: data.audit?.maxBytes,
      files: data.audit?.files,
    },
    log: data.log ?? {},
    upstreamLimits: data.upstreamLimits ?? {},
    redis: data.redis ?? {},
    output: { validate: data.output?.validate ?? CONFIG_DEFAULTS.output.validate },
    discovery: {
      tools: data.discovery?.tools ?? CONFIG_DEFAULTS.discovery.tools,
      ...(data.discovery?.searchAbove === undefined ? {} : { searchAbove: data.discovery.searchAbove }),
      ...(data.discovery?.pageSize === undefined ? {} : { pageSize: data.discovery.pageSize }),
    },
    oauth: data.oauth ?? {},
    identities: data.identities ?? {},
    cache: {
      enabled: data.cache?.enabled ?? CONFIG_DEFAULTS.cache.enabled,
      ttlSeconds: data.cache?.ttlSeconds ?? CONFIG_DEFAULTS.cache.ttlSeconds,
      maxEntries: data.cache?.maxEntries,
      overrides: data.cache?.overrides ?? {},
    },
  };
}

/** `["A", "B_*"]` grants to any namespace; `{ "A": ["ns"], "B_*": "*" }` binds each to namespaces. */
function keyGrants(keys: string[] | Record<string, '*' | string[]> | undefined): KeyGrant[] {
  if (keys === undefined) return [];
  if (Array.isArray(keys)) return keys.map((pattern) => ({ pattern, namespaces: null }));
  return Object.entries(keys).map(([pattern, namespaces]) => ({
    pattern,
    namespaces: namespaces === '*' ? null : namespaces,
  }));
}
