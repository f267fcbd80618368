// The operator's project configuration, `.flowmcp/config.json`. It is trusted input, so a
// malformed file is a usage error that stops the command with a message naming each problem.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { newAjv, once } from '../shared/deps.js';
import { PACKAGE_NAME_PATTERN } from '../libraries/allowlist.js';

export interface SandboxConfig {
  /** Deadline of a handlers factory or handler call, in milliseconds. */
  deadlineMs?: number;
  /** Heap limit of each sandbox worker, in MiB. */
  memoryMb?: number;
  /** Sandbox worker processes. */
  workers?: number;
}

export interface HttpConfig {
  connectTimeoutMs?: number;
  totalTimeoutMs?: number;
  maxResponseBytes?: number;
  maxRedirects?: number;
  /** Deepest nesting of an upstream JSON answer that is accepted. */
  maxJsonDepth?: number;
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
  /** Origins added to a namespace's reach for its executeRequest handlers (RULINGS R12). */
  allow: Readonly<Record<string, readonly string[]>>;
  /** Origins taken out of a namespace's reach; `*` takes out all. Wins over everything else. */
  deny: Readonly<Record<string, readonly string[]>>;
  /** Outbound requests one executeRequest call may make. */
  maxRequestsPerCall: number;
  /** Response bytes one executeRequest call may receive, over all its requests. */
  maxBytesPerCall: number;
}

const DEFAULT_BRIDGE_BOUNDS = Object.freeze({ maxRequestsPerCall: 20, maxBytesPerCall: 8 * 1_048_576 });

/** Bounds on input from outside, checked before it is walked (RULINGS R13). */
export interface LimitsConfig {
  /** Largest schema or list file read, in bytes. */
  maxFileBytes?: number;
  /** Deepest nesting of a tool's arguments. */
  maxArgumentDepth?: number;
  /** Largest tool arguments, counted as their JSON text, in bytes. */
  maxArgumentBytes?: number;
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
}

export class ConfigError extends Error {}

const integer = (minimum: number, maximum?: number) => (maximum === undefined ? { type: 'integer', minimum } : { type: 'integer', minimum, maximum });
/** Unknown keys are errors, so that a typo in the config does not pass silently. */
const closedObject = (properties: Record<string, unknown>) => ({ type: 'object', additionalProperties: false, properties });

/** An environment variable name, or a glob of one with `*`. */
const KEY_PATTERN = '^[A-Za-z_*][A-Za-z0-9_*]*$';

export const CONFIG_SHAPE = {
  type: 'object',
  additionalProperties: false,
  properties: {
    security: closedObject({
      allowedLibraries: { type: 'array', items: { type: 'string', pattern: PACKAGE_NAME_PATTERN } },
      keys: {
        oneOf: [
          { type: 'array', items: { type: 'string', pattern: KEY_PATTERN } },
          {
            type: 'object',
            propertyNames: { pattern: KEY_PATTERN },
            additionalProperties: { oneOf: [{ const: '*' }, { type: 'array', items: { type: 'string', minLength: 1 } }] },
          },
        ],
      },
    }),
    network: closedObject({
      allowPrivate: { oneOf: [{ type: 'boolean' }, { type: 'array', items: { type: 'string', minLength: 1 } }] },
      allow: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string', minLength: 1 } } },
      deny: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string', minLength: 1 } } },
      maxRequestsPerCall: integer(1, 1000),
      maxBytesPerCall: integer(1024),
    }),
    limits: closedObject({
      maxFileBytes: integer(1024),
      maxArgumentDepth: integer(1, 1000),
      maxArgumentBytes: integer(1024),
    }),
    sandbox: closedObject({
      deadlineMs: integer(50, 60000),
      memoryMb: integer(16, 8192),
      workers: integer(1, 16),
    }),
    http: closedObject({
      connectTimeoutMs: integer(1, 120000),
      totalTimeoutMs: integer(1, 600000),
      maxResponseBytes: integer(1),
      maxRedirects: integer(0, 20),
      maxJsonDepth: integer(1, 10000),
    }),
    upstreams: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

interface ConfigFile {
  security?: { allowedLibraries?: string[]; keys?: string[] | Record<string, '*' | string[]> };
  network?: { allowPrivate?: boolean | string[]; allow?: Record<string, string[]>; deny?: Record<string, string[]>; maxRequestsPerCall?: number; maxBytesPerCall?: number };
  limits?: LimitsConfig;
  sandbox?: SandboxConfig;
  http?: HttpConfig;
  upstreams?: Record<string, string>;
}

/** Compiled when a project has a config file to check, not at import. */
const configValidator = once((): ValidateFunction<ConfigFile> => newAjv({ allErrors: true }).compile<ConfigFile>(CONFIG_SHAPE));

export function loadProjectConfig(projectDir: string): ProjectConfig {
  const file = join(projectDir, '.flowmcp', 'config.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return configFrom({});
    throw new ConfigError(`${file}: cannot be read (${(error as Error).message})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  const validateConfig = configValidator();
  if (!validateConfig(data)) {
    const problems = (validateConfig.errors ?? []).map((error) => {
      const where = error.instancePath.slice(1).replaceAll('/', '.') || '(top level)';
      const extra = error.keyword === 'additionalProperties' ? ` '${(error.params as { additionalProperty: string }).additionalProperty}'` : '';
      const detail = error.keyword === 'pattern' ? 'must be an exact package name (no subpath, version or ..)' : error.message;
      return `${where} ${detail}${extra}`;
    });
    throw new ConfigError(`${file}: ${problems.join('; ')}`);
  }
  return configFrom(data);
}

function configFrom(data: ConfigFile): ProjectConfig {
  return {
    allowedLibraries: data.security?.allowedLibraries ?? [],
    keys: keyGrants(data.security?.keys),
    network: {
      allowPrivate: data.network?.allowPrivate ?? false,
      allow: data.network?.allow ?? {},
      deny: data.network?.deny ?? {},
      maxRequestsPerCall: data.network?.maxRequestsPerCall ?? DEFAULT_BRIDGE_BOUNDS.maxRequestsPerCall,
      maxBytesPerCall: data.network?.maxBytesPerCall ?? DEFAULT_BRIDGE_BOUNDS.maxBytesPerCall,
    },
    limits: data.limits ?? {},
    sandbox: data.sandbox ?? {},
    http: data.http ?? {},
    upstreams: data.upstreams ?? {},
  };
}

/** `["A", "B_*"]` grants to any namespace; `{ "A": ["ns"], "B_*": "*" }` binds each to namespaces. */
function keyGrants(keys: string[] | Record<string, '*' | string[]> | undefined): KeyGrant[] {
  if (keys === undefined) return [];
  if (Array.isArray(keys)) return keys.map((pattern) => ({ pattern, namespaces: null }));
  return Object.entries(keys).map(([pattern, namespaces]) => ({ pattern, namespaces: namespaces === '*' ? null : namespaces }));
}
