// What each key of `.flowmcp/config.json` does and its default, in words: the data the page
// docs/reference/configuration.md is generated from (`npm run generate`), beside the shape that
// checks the keys (config-shape.ts gives each key's type and bounds). A key of the shape with no
// entry here, or an entry for no key, fails test/docs/reference.test.ts.

export interface ConfigKeyDoc {
  /** The value in effect when the key is not set, as written in the page (Markdown). */
  default: string;
  /** What the key does (Markdown; links relative to docs/reference/). */
  meaning: string;
}

/** By `section.key`, or the section's name for a section that is one value (`upstreams`). */
export const CONFIG_DOCS: Readonly<Record<string, ConfigKeyDoc>> = {
  'security.keys': {
    default: 'none',
    meaning:
      'the environment variables that may be used as keys: `["NAME", "PREFIX_*"]` (any namespace), or `{ "NAME": ["namespace", ...], "PREFIX_*": "*" }` binding each to the namespaces that may use it; an exact name wins over a glob. Keys in the project\'s `.env` need no grant, but a grant that names one binds it too (see [Keys are granted by the operator](../security.md))',
  },
  'security.allowedLibraries': {
    default: '`[]`',
    meaning:
      'extends (never replaces) the default library allowlist `ethers`, `moment`, `indicatorts`, `@erc725/erc725.js`, `ccxt`, `axios`; exact package names only (no subpaths, versions or `..`); a `requiredLibraries` entry outside the effective list is `SEC013`',
  },
  'limits.maxFileBytes': {
    default: '`2097152` (2 MiB)',
    meaning:
      'largest schema or list file read (at least 1024); the size is checked before the file is read, and a larger file is `SEC020` (schema) or `SEC207` (list) and is not parsed. The largest file of the public corpus is about 154 kB',
  },
  'limits.maxArgumentDepth': {
    default: '`64`',
    meaning:
      "deepest nesting of a tool call's arguments; deeper is an `arguments` error, checked before anything walks them",
  },
  'limits.maxArgumentBytes': {
    default: '`1048576`',
    meaning: 'largest tool call arguments (counted about as their JSON text); larger is an `arguments` error',
  },
  'network.allowPrivate': {
    default: '`false`',
    meaning:
      'origins whose requests may connect to loopback, private, link-local, CGNAT, unique-local and other non-public addresses: `true` for every origin, or a list of origins (`https://host[:port]`, as the request after `preRequest` names it). Without it such a request is refused before a connection is opened (see [Requests and keys](requests-and-keys.md#requests-and-keys)); the requests an `upstreams` or `--upstream` override routes to its base need no entry. A listed origin is reached by the schemas whose `root` it is, and by the `executeRequest` handlers of a namespace whose `network.allow` names it; a schema whose text merely writes it does not reach it',
  },
  'network.allow': {
    default: '`{}`',
    meaning:
      'per namespace, origins added to the reach of its `executeRequest` handlers: `{ "namespace": ["https://host[:port]", ...] }` (see [Handlers that make their own requests](sandbox.md#handlers-that-make-their-own-requests))',
  },
  'network.deny': {
    default: '`{}`',
    meaning:
      'per namespace, origins taken out of that reach (`"*"`: all of it); wins over the schema\'s text and `network.allow`',
  },
  'network.maxRequestsPerCall': {
    default: '`20`',
    meaning:
      'outbound requests one `executeRequest` call may make (1–1000); the next one fails with `TOO_MANY_REQUESTS: `',
  },
  'network.maxBytesPerCall': {
    default: '`8388608`',
    meaning:
      'response bytes one `executeRequest` call may receive over all its requests, and, on their own, request bytes it may send (URLs, headers and bodies); past either the request fails with `TOO_MANY_BYTES: `',
  },
  'sandbox.deadlineMs': { default: '`2000`', meaning: 'deadline of a handlers factory or handler call (50–60000)' },
  'sandbox.memoryMb': {
    default: '`128`',
    meaning: 'V8 heap limit of each sandbox process; its resident memory may reach 2 × this + 128 MiB',
  },
  'sandbox.workers': { default: 'cores − 1 (1–4)', meaning: 'sandbox processes' },
  'sandbox.loadHandlers': {
    default: '`"on-first-call"`',
    meaning:
      "when handlers factories run: `on-first-call` starts the sandbox and runs a schema's factory the first time one of its tools needs a handler (a factory that fails then withdraws that schema's tools and clients are told to list again); `at-load` runs every factory while loading, as `doctor` always does",
  },
  'http.connectTimeoutMs': { default: '`5000`', meaning: 'time to open a connection to an upstream' },
  'http.totalTimeoutMs': { default: '`15000`', meaning: 'the whole exchange: redirects, headers and body' },
  'http.maxResponseBytes': {
    default: '`1048576`',
    meaning:
      'largest upstream answer read, counted on the wire and again once its `Content-Encoding` is undone; a larger one fails the call',
  },
  'http.maxRedirects': { default: '`5`', meaning: 'same-origin redirects followed' },
  'http.maxJsonDepth': {
    default: '`256`',
    meaning:
      'deepest nesting of arrays and objects in a JSON answer (1–10000), checked on the bytes before anything parses them; deeper is a `decode` error naming the bound',
  },
  'http.allowedHosts': {
    default: '`[]`',
    meaning:
      "`serve --transport http`: host names or addresses a request's `Host` header may name besides the bound ones (see [Tokens and hosts](../operators/access.md#tokens-and-hosts)); no scheme, port or path",
  },
  'http.authTokens': {
    default: '`[]`',
    meaning:
      '`serve --transport http`: bearer tokens as `sha256:<64 hex digits>` of each token (`echo "sha256:$(printf %s "$TOKEN" | sha256sum | cut -d" " -f1)"`); with any token set (here, `--auth-token` or `FLOWGUARD_AUTH_TOKEN`) every request to `/mcp` (and `/mcp/<group>`) and `/metrics` needs one',
  },
  upstreams: {
    default: '`{}`',
    meaning:
      'upstream overrides, as `--upstream` (the flag wins for the same origin); their base origins are trusted, private addresses included, for the requests the override routes there only',
  },
  'audit.enabled': {
    default: '`true`',
    meaning: '`serve` writes one JSON line per tool call (see [Audit log](../operators/observability.md#audit-log))',
  },
  'audit.dir': {
    default: '`".flowmcp/audit"`',
    meaning: "the audit log's folder; a relative path is taken from the project folder",
  },
  'audit.maxBytes': {
    default: '`10485760` (10 MiB)',
    meaning: "a file's size before a new one is started (at least 1024)",
  },
  'audit.files': { default: '`10`', meaning: 'audit files kept in the folder, the oldest removed first (1–10000)' },
  'log.level': {
    default: '`"info"`',
    meaning:
      "level of `serve`'s structured logs on stderr (see [Logs](../operators/observability.md#logs)); `--log-level` wins",
  },
  'log.format': {
    default: '`"text"`',
    meaning:
      'what `serve` writes on stderr: `text`, the start-up summary and connect instructions as lines for a person with the structured logs as JSON lines among them; `json`, for a log shipper, every line one JSON log entry (the summary as entries, no instructions; see [Logs](../operators/observability.md#logs)); `--log-format` wins',
  },
  'cache.enabled': {
    default: '`true`',
    meaning:
      'the response cache of read-only tools (see [Response cache](../operators/cache-and-limits.md#response-cache)); `false` keeps and serves nothing from it',
  },
  'cache.ttlSeconds': {
    default: '`0`',
    meaning:
      'lifetime of the answers of read-only tools whose schema gives none (no `preload`, no `cacheTtl*` tag); `0` keeps them not at all',
  },
  'cache.maxEntries': {
    default: '`10000`',
    meaning: 'most answers kept in memory (least recently used go first; at most 64 MiB of them in all)',
  },
  'cache.overrides': {
    default: '`{}`',
    meaning:
      'lifetime in seconds by tool reference (`namespace/file.mjs::route`), MCP tool name or namespace, most specific first, over what the schema says; `0` turns the cache off there',
  },
  'upstreamLimits.default': {
    default: '`{ "concurrency": 8 }`',
    meaning:
      "limits on requests to each upstream origin where no entry below applies: `requestsPerSecond` (a token bucket's refill; none by default), `burst` (its capacity; default the rate rounded up, at least 1), `concurrency` (requests at once per process; `0` none). See [Upstream limits](../operators/cache-and-limits.md#upstream-limits)",
  },
  'upstreamLimits.origins': {
    default: '`{}`',
    meaning:
      'the same limits by origin (`"https://host[:port]"`, the schema\'s origin): counted over every namespace that calls it; wins field by field over the other entries',
  },
  'upstreamLimits.namespaces': {
    default: '`{}`',
    meaning: 'the same limits by namespace: counted per namespace and origin; wins over `default`',
  },
  'upstreamLimits.maxPauseSeconds': {
    default: '`300`',
    meaning: 'longest pause a `Retry-After` can impose on an origin (0–86400); `0` never pauses',
  },
  'redis.url': {
    default: 'none',
    meaning:
      'shared state in Redis (`redis://[:password@]host:port[/db]` or `rediss://`): rate buckets, pauses and the response cache of every replica; `serve --redis` wins. See [Replicas and Redis](../operators/replicas.md#replicas-and-redis)',
  },
  'redis.keyPrefix': {
    default: '`"flowguard:"`',
    meaning: 'prefix of every key flowguard writes, so several deployments can share one Redis',
  },
  'output.validate': {
    default: '`"error"`',
    meaning:
      "what `serve` does with an answer that does not match its tool's output schema: `error` (an `isError` result with a note naming the mismatch), `warn` (served as text, logged at warn and counted in `/metrics`) or `off` (served as text); under `warn` and `off` no tool advertises an `outputSchema` (see [`flowguard serve`](../operators/serving.md#flowguard-serve))",
  },
  'discovery.tools': {
    default: '`"auto"`',
    meaning:
      'what `serve` lists: `all` (every served tool), `search` (discovery mode: the meta-tools `search_tools`, `describe_tool`, `call_tool` and the `alwaysLoad` tools; every served tool is reached through them) or `auto` (search above `discovery.searchAbove` served tools); `serve --tools` wins',
  },
  'discovery.searchAbove': {
    default: '`100`',
    meaning: 'under `discovery.tools: auto`, the number of served tools above which `serve` starts in discovery mode',
  },
  'discovery.pageSize': {
    default: 'none',
    meaning:
      '`tools/list` answers at most this many tools and a `nextCursor` for the rest (MCP pagination); without it every tool comes in one answer; `serve --page-size` wins',
  },
  'oauth.issuer': {
    default: 'none',
    meaning:
      '`serve --transport http`: the OAuth authorization server whose access tokens are accepted, found by RFC 8414 or OpenID discovery (`--oauth-issuer` wins; see [Remote access](../operators/remote-access.md#oauth-setup))',
  },
  'oauth.jwksUrl': {
    default: "from the issuer's metadata",
    meaning: "the issuer's key set, where discovery should not find it",
  },
  'oauth.resource': {
    default: 'the URL `/mcp` is served at',
    meaning:
      'the resource (audience) access tokens must be issued for; set it to the public URL behind a proxy (`--resource` wins)',
  },
  'oauth.algorithms': {
    default: 'RS, PS, ES and EdDSA algorithms',
    meaning: 'signature algorithms accepted; asymmetric only (`none` and HMAC are refused)',
  },
  'oauth.requiredScopes': {
    default: '`[]`',
    meaning: 'scopes every request needs; a token without one gets `403 insufficient_scope` naming it',
  },
  'oauth.clockToleranceSeconds': { default: '`30`', meaning: "leeway on a token's `exp` and `nbf`" },
  'oauth.groupsClaim': { default: '`"groups"`', meaning: 'the token claim `identities.<name>.match.groups` reads' },
  'oauth.introspection': {
    default: 'none',
    meaning:
      "`{ url?, clientId, clientSecretEnv, cacheSeconds? }`: opaque tokens are checked by RFC 7662 introspection at the issuer (or `url`), with the client secret read from the named environment variable; an active answer is kept until the earlier of the token's `exp` and `cacheSeconds` (default `60`, 0–3600, `0` asks every time; at most 10,000 tokens, by their SHA-256), so a token revoked at the provider is still admitted until then (see [Remote access](../operators/remote-access.md#opaque-tokens-introspection-and-its-cache))",
  },
  identities: {
    default: '`{}`',
    meaning:
      'by name, what a caller may list and call: `match` (subjects, clients, scopes, groups), static `tokens`, `groups`, `namespaces`, `readOnly`, `tools` (`search` or `all`), its own `rateLimit` (shared by replicas through Redis) and the `keys` its calls may use; with any identity set, a caller none matches is refused (see [Identities](../operators/remote-access.md#identities))',
  },
  'redis.commandTimeoutMs': {
    default: '`200`',
    meaning: 'a Redis command not answered in this time fails and the server goes on with local state (10–10000)',
  },
};
