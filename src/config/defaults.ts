// What each setting of `.flowmcp/config.json` is when the config does not give it: one table, which
// the config's JSON Schema states as its `default`s (config-shape.ts) and every module that applies
// a setting reads, instead of constants of its own. Settings without a fixed default (the sandbox
// workers, by the machine's cores; a cache without entries bound) are not here.

export const CONFIG_DEFAULTS = {
  network: { maxRequestsPerCall: 20, maxBytesPerCall: 8 * 1_048_576 },
  limits: { maxFileBytes: 2 * 1_048_576 },
  sandbox: { deadlineMs: 2000, memoryMb: 128, loadHandlers: 'on-first-call' },
  http: {
    connectTimeoutMs: 5_000,
    totalTimeoutMs: 15_000,
    maxResponseBytes: 1_048_576,
    maxRedirects: 5,
    maxJsonDepth: 256,
  },
  audit: { enabled: true, dir: '.flowmcp/audit', maxBytes: 10 * 1_048_576, files: 10 },
  log: { level: 'info', format: 'text' },
  cache: { enabled: true, ttlSeconds: 0, maxEntries: 10_000 },
  upstreamLimits: { maxPauseSeconds: 300 },
  redis: { commandTimeoutMs: 200 },
  output: { validate: 'error' },
  discovery: { tools: 'auto', searchAbove: 100 },
} as const;
