// The config of remote access (`.flowmcp/config.json`): `oauth`, how access tokens are verified,
// and `identities`, what each verified caller may list and call. Their shapes are checked with the
// rest of the config (src/config/config-shape.ts takes them from here); the types are what
// `serve` reads.

/** Signature algorithms accepted by default: asymmetric only, so a public key can never serve as an HMAC secret. */
export const ASYMMETRIC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;
export type SigningAlgorithm = (typeof ASYMMETRIC_ALGORITHMS)[number];

export interface IntrospectionSettings {
  /** The RFC 7662 endpoint; default: the issuer's `introspection_endpoint`. */
  url?: string;
  clientId: string;
  /** The environment variable holding the client secret (the config holds no secret). */
  clientSecretEnv: string;
  /** How long an active token's answer is kept at most, in seconds (default 60; 0: asked every time). */
  cacheSeconds?: number;
}

export interface OAuthSettings {
  /** The authorization server; its metadata is found by RFC 8414 or OpenID discovery. */
  issuer?: string;
  /** The key set, where the issuer's metadata does not name it (or no issuer is discovered). */
  jwksUrl?: string;
  /** This server's resource URL: the audience tokens must carry; default the URL `/mcp` is served at. */
  resource?: string;
  algorithms?: SigningAlgorithm[];
  /** Scopes every request needs; one missing is a 403 insufficient_scope. */
  requiredScopes?: string[];
  /** Leeway on `exp` and `nbf`, in seconds. */
  clockToleranceSeconds?: number;
  /** The claim holding the caller's groups (default `groups`). */
  groupsClaim?: string;
  introspection?: IntrospectionSettings;
}

/** Who an identity is: every field given must hold (any of its values); tokens name it directly. */
export interface IdentityMatch {
  subjects?: string[];
  clients?: string[];
  /** Scopes the token must carry, all of them. */
  scopes?: string[];
  /** Groups of the groups claim, any of them. */
  groups?: string[];
}

export interface IdentitySettings {
  match?: IdentityMatch;
  /** Static bearer tokens that stand for this identity, as `sha256:<hex>`. */
  tokens?: string[];
  /** Groups of `.flowmcp/groups.json` whose tools it may list and call. */
  groups?: string[];
  /** Namespaces whose tools it may list and call. */
  namespaces?: string[];
  /** Only read-only tools (GET, or a 4.x `meta.readOnly`). */
  readOnly?: boolean;
  /** What its tools/list shows: every tool, or the discovery meta-tools (as `serve --tools`); default the endpoint's. */
  tools?: 'search' | 'all';
  /** Its own tool calls per second, for all its callers together, in this process. */
  rateLimit?: { requestsPerSecond: number; burst?: number };
  /** Granted keys its calls may use: a tool that needs another is not its (names or `*` globs). */
  keys?: string[];
}

const TOKEN_DIGEST_PATTERN = '^sha256:[0-9a-fA-F]{64}$';
const URL_PATTERN = '^https?://';
const strings = { type: 'array', items: { type: 'string', minLength: 1 } };

export const OAUTH_SHAPE = {
  type: 'object',
  additionalProperties: false,
  properties: {
    issuer: { type: 'string', pattern: URL_PATTERN },
    jwksUrl: { type: 'string', pattern: URL_PATTERN },
    resource: { type: 'string', pattern: URL_PATTERN },
    algorithms: { type: 'array', minItems: 1, items: { enum: [...ASYMMETRIC_ALGORITHMS] } },
    requiredScopes: strings,
    clockToleranceSeconds: { type: 'integer', minimum: 0, maximum: 300 },
    groupsClaim: { type: 'string', minLength: 1 },
    introspection: {
      type: 'object',
      additionalProperties: false,
      required: ['clientId', 'clientSecretEnv'],
      properties: {
        url: { type: 'string', pattern: URL_PATTERN },
        clientId: { type: 'string', minLength: 1 },
        clientSecretEnv: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
        cacheSeconds: { type: 'integer', minimum: 0, maximum: 3600 },
      },
    },
  },
};

export const IDENTITIES_SHAPE = {
  type: 'object',
  propertyNames: { pattern: '^[A-Za-z0-9_.-]{1,64}$' },
  additionalProperties: {
    type: 'object',
    additionalProperties: false,
    properties: {
      match: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: { subjects: strings, clients: strings, scopes: strings, groups: strings },
      },
      tokens: { type: 'array', items: { type: 'string', pattern: TOKEN_DIGEST_PATTERN } },
      groups: strings,
      namespaces: strings,
      readOnly: { type: 'boolean' },
      tools: { enum: ['search', 'all'] },
      rateLimit: {
        type: 'object',
        additionalProperties: false,
        required: ['requestsPerSecond'],
        properties: {
          requestsPerSecond: { type: 'number', exclusiveMinimum: 0, maximum: 1_000_000 },
          burst: { type: 'integer', minimum: 1, maximum: 1_000_000 },
        },
      },
      keys: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z_*][A-Za-z0-9_*]*$' } },
    },
  },
};
