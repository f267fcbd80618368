// The shape of `.flowmcp/config.json` as one JSON Schema 2020-12 document. The config is the
// operator's, trusted input: a problem is a usage error naming the key (project.ts), not a
// finding, so the shape carries no codes, only a message where Ajv's own words would mislead
// (the src/shapes/ vocabulary). Checks run the validator generated from it
// (config-shape.generated.ts, by `npm run generate`); the page docs/reference/configuration.md is
// generated from it and config-docs.ts, which must say what every key does.

import { PACKAGE_NAME_PATTERN } from '../libraries/allowlist.js';
import { IDENTITIES_SHAPE, OAUTH_SHAPE } from '../access/settings.js';
import { annotated } from '../shapes/vocabulary.js';
import { CONFIG_DEFAULTS } from './defaults.js';

const integer = (minimum: number, maximum?: number) =>
  maximum === undefined ? { type: 'integer', minimum } : { type: 'integer', minimum, maximum };
/** A setting's schema stating its default (defaults.ts): what applies when the config does not give it. */
const defaulted = (schema: object, value: unknown) => ({ ...schema, default: value });
const D = CONFIG_DEFAULTS;
/** Unknown keys are errors, so that a typo in the config does not pass silently. */
const closedSection = (properties: Record<string, unknown>) => ({
  type: 'object',
  additionalProperties: false,
  properties,
});

/** A string matching `pattern`; one that does not is worded by `message`, Ajv's pattern text would not say what is meant. */
const patterned = (pattern: string, message: string) => ({
  type: 'string',
  allOf: [annotated({ pattern }, { message })],
});

/** An environment variable name, or a glob of one with `*`. */
const KEY_PATTERN = '^[A-Za-z_*][A-Za-z0-9_*]*$';

/** One entry of `upstreamLimits` (src/guard/): a rate (token bucket) and a concurrency bound; 0 concurrency is none. */
const UPSTREAM_LIMIT = closedSection({
  requestsPerSecond: { type: 'number', exclusiveMinimum: 0, maximum: 1_000_000 },
  burst: integer(1, 1_000_000),
  concurrency: integer(0, 10_000),
});

/** A bearer token of the Streamable HTTP endpoint, as its digest (src/edge/auth.ts). */
const TOKEN_DIGEST_PATTERN = '^sha256:[0-9a-fA-F]{64}$';

export const CONFIG_SHAPE = {
  type: 'object',
  additionalProperties: false,
  properties: {
    security: closedSection({
      allowedLibraries: {
        type: 'array',
        items: patterned(PACKAGE_NAME_PATTERN, 'must be an exact package name (no subpath, version or ..)'),
      },
      keys: {
        oneOf: [
          { type: 'array', items: patterned(KEY_PATTERN, 'is not an environment variable name or a * glob of one') },
          {
            type: 'object',
            propertyNames: annotated(
              { pattern: KEY_PATTERN },
              { message: "key '{key}' is not an environment variable name or a * glob of one" },
            ),
            additionalProperties: {
              oneOf: [{ const: '*' }, { type: 'array', items: { type: 'string', minLength: 1 } }],
            },
          },
        ],
      },
    }),
    network: closedSection({
      allowPrivate: { oneOf: [{ type: 'boolean' }, { type: 'array', items: { type: 'string', minLength: 1 } }] },
      allow: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string', minLength: 1 } } },
      deny: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string', minLength: 1 } } },
      maxRequestsPerCall: defaulted(integer(1, 1000), D.network.maxRequestsPerCall),
      maxBytesPerCall: defaulted(integer(1024), D.network.maxBytesPerCall),
    }),
    limits: closedSection({
      maxFileBytes: defaulted(integer(1024), D.limits.maxFileBytes),
      maxArgumentDepth: integer(1, 1000),
      maxArgumentBytes: integer(1024),
    }),
    sandbox: closedSection({
      deadlineMs: defaulted(integer(50, 60000), D.sandbox.deadlineMs),
      memoryMb: defaulted(integer(16, 8192), D.sandbox.memoryMb),
      workers: integer(1, 16),
      loadHandlers: defaulted({ enum: ['on-first-call', 'at-load'] }, D.sandbox.loadHandlers),
    }),
    http: closedSection({
      connectTimeoutMs: defaulted(integer(1, 120000), D.http.connectTimeoutMs),
      totalTimeoutMs: defaulted(integer(1, 600000), D.http.totalTimeoutMs),
      maxResponseBytes: defaulted(integer(1), D.http.maxResponseBytes),
      maxRedirects: defaulted(integer(0, 20), D.http.maxRedirects),
      maxJsonDepth: defaulted(integer(1, 10000), D.http.maxJsonDepth),
      allowedHosts: { type: 'array', items: { type: 'string', minLength: 1 } },
      authTokens: {
        type: 'array',
        items: patterned(
          TOKEN_DIGEST_PATTERN,
          'must be sha256: and the 64 hex digits of the token\'s SHA-256 (echo "sha256:$(printf %s "$TOKEN" | sha256sum | cut -d" " -f1)"); the config never holds a token itself',
        ),
      },
    }),
    upstreams: { type: 'object', additionalProperties: { type: 'string' } },
    audit: closedSection({
      enabled: defaulted({ type: 'boolean' }, D.audit.enabled),
      dir: defaulted({ type: 'string', minLength: 1 }, D.audit.dir),
      maxBytes: defaulted(integer(1024), D.audit.maxBytes),
      files: defaulted(integer(1, 10000), D.audit.files),
    }),
    log: closedSection({
      level: defaulted({ enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] }, D.log.level),
      format: defaulted({ enum: ['text', 'json'] }, D.log.format),
    }),
    cache: closedSection({
      enabled: defaulted({ type: 'boolean' }, D.cache.enabled),
      ttlSeconds: defaulted(integer(0), D.cache.ttlSeconds),
      maxEntries: defaulted(integer(1), D.cache.maxEntries),
      overrides: { type: 'object', additionalProperties: integer(0) },
    }),
    upstreamLimits: closedSection({
      default: UPSTREAM_LIMIT,
      origins: { type: 'object', additionalProperties: UPSTREAM_LIMIT },
      namespaces: { type: 'object', additionalProperties: UPSTREAM_LIMIT },
      maxPauseSeconds: defaulted(integer(0, 86400), D.upstreamLimits.maxPauseSeconds),
    }),
    redis: closedSection({
      url: patterned('^rediss?://', 'must be a redis:// or rediss:// URL'),
      keyPrefix: { type: 'string' },
      commandTimeoutMs: defaulted(integer(10, 10000), D.redis.commandTimeoutMs),
    }),
    output: closedSection({
      validate: defaulted({ enum: ['error', 'warn', 'off'] }, D.output.validate),
    }),
    // Discovery mode (src/discovery/): what tools/list shows; `auto` searches above `searchAbove` served tools.
    discovery: closedSection({
      tools: defaulted({ enum: ['auto', 'search', 'all'] }, D.discovery.tools),
      searchAbove: defaulted(integer(0), D.discovery.searchAbove),
      pageSize: integer(1, 100000),
    }),
    // Remote access (src/access/): how OAuth access tokens are verified, and what each identity may list and call.
    oauth: OAUTH_SHAPE,
    identities: IDENTITIES_SHAPE,
  },
};
