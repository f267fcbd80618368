import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadProjectConfig } from '../../src/config/project.js';

const root = mkdtempSync(join(tmpdir(), 'flowguard-config-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function project(name: string, config?: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, '.flowmcp'), { recursive: true });
  if (config !== undefined) writeFileSync(join(dir, '.flowmcp', 'config.json'), config);
  return dir;
}

describe('loadProjectConfig', () => {
  it('has empty defaults without a config file', () => {
    expect(loadProjectConfig(project('none'))).toEqual({
      allowedLibraries: [],
      keys: [],
      network: { allowPrivate: false, allow: {}, deny: {}, maxRequestsPerCall: 20, maxBytesPerCall: 8388608 },
      limits: {},
      sandbox: {},
      http: {},
      upstreams: {},
      cache: { enabled: true, ttlSeconds: 0, overrides: {} },
      upstreamLimits: {},
      redis: {},
      audit: { enabled: true, dir: join('.flowmcp', 'audit') },
      log: {},
      output: { validate: 'error' },
      discovery: { tools: 'auto' },
      oauth: {},
      identities: {},
    });
  });

  it('reads the allowlist extension and the sandbox limits', () => {
    const full = {
      security: {
        allowedLibraries: ['trading-signals', '@scope/pkg'],
        keys: { ETHERSCAN_API_KEY: ['etherscan'], 'ALCHEMY_*': '*' },
      },
      network: {
        allowPrivate: ['https://intranet.example.com'],
        allow: { erc: ['https://rpc.example.com'] },
        deny: { overpass: ['*'] },
        maxRequestsPerCall: 5,
        maxBytesPerCall: 65536,
      },
      limits: { maxFileBytes: 4096, maxArgumentDepth: 16, maxArgumentBytes: 65536 },
      sandbox: { deadlineMs: 1500, memoryMb: 96, workers: 2 },
      http: {
        connectTimeoutMs: 2000,
        totalTimeoutMs: 9000,
        maxResponseBytes: 65536,
        maxRedirects: 2,
        maxJsonDepth: 64,
      },
      upstreams: { '*': 'http://127.0.0.1:8080' },
      cache: {
        enabled: false,
        ttlSeconds: 30,
        maxEntries: 500,
        overrides: { quotes: 0, 'quotes/q.mjs::getQuote': 60 },
      },
      upstreamLimits: {
        default: { concurrency: 4 },
        origins: { 'https://api.example.com': { requestsPerSecond: 0.5, burst: 5 } },
        namespaces: { quotes: { concurrency: 0 } },
        maxPauseSeconds: 60,
      },
      redis: { url: 'redis://127.0.0.1:6379/2', keyPrefix: 'staging:', commandTimeoutMs: 150 },
      audit: { enabled: false, dir: '/var/log/flowguard', maxBytes: 2048, files: 3 },
      log: { level: 'warn' },
      output: { validate: 'warn' },
      discovery: { tools: 'search', searchAbove: 50 },
    };
    const dir = project('full', JSON.stringify(full));
    expect(loadProjectConfig(dir)).toEqual({
      allowedLibraries: full.security.allowedLibraries,
      keys: [
        { pattern: 'ETHERSCAN_API_KEY', namespaces: ['etherscan'] },
        { pattern: 'ALCHEMY_*', namespaces: null },
      ],
      network: full.network,
      limits: full.limits,
      sandbox: full.sandbox,
      http: full.http,
      upstreams: full.upstreams,
      cache: full.cache,
      upstreamLimits: full.upstreamLimits,
      redis: full.redis,
      audit: full.audit,
      log: full.log,
      output: { validate: 'warn' },
      discovery: { tools: 'search', searchAbove: 50 },
      oauth: {},
      identities: {},
    });
  });

  it('reads security.keys as a list of names granted to every namespace', () => {
    const dir = project('key-list', JSON.stringify({ security: { keys: ['MY_KEY', 'INFURA_*'] } }));
    expect(loadProjectConfig(dir).keys).toEqual([
      { pattern: 'MY_KEY', namespaces: null },
      { pattern: 'INFURA_*', namespaces: null },
    ]);
  });

  it.each([
    ['{ not json', 'not valid JSON'],
    [
      '{ "security": { "allowedLibraries": ["ethers/lib"] } }',
      'security.allowedLibraries[0]: must be an exact package name',
    ],
    [
      '{ "security": { "allowedLibraries": ["../evil"] } }',
      'security.allowedLibraries[0]: must be an exact package name',
    ],
    ['{ "security": { "allowedLibraries": ["a..b"] } }', 'security.allowedLibraries[0]: must be an exact package name'],
    ['{ "sandbox": { "deadlineMs": 0 } }', 'sandbox.deadlineMs: must be >= 50'],
    ['{ "sandbox": { "memoryMb": "lots" } }', 'sandbox.memoryMb: must be integer'],
    ['{ "security": { "keys": { "BAD-NAME": ["x"] } } }', 'security.keys'],
    ['{ "security": { "keys": { "A": "any" } } }', 'security.keys'],
    ['{ "network": { "allowPrivate": "yes" } }', 'network.allowPrivate'],
    ['{ "limits": { "maxFileBytes": 10 } }', 'limits.maxFileBytes: must be >= 1024'],
    ['{ "secuirty": {} }', "secuirty: unknown key 'secuirty'\n    hint: did you mean 'security'?"],
    // Issue 27, point 8: a misspelt key says what was meant, as schema findings do.
    [
      '{ "sandbox": { "deadlinMs": 100 } }',
      "sandbox.deadlinMs: unknown key 'deadlinMs'\n    hint: did you mean 'deadlineMs'?",
    ],
  ])('rejects %s, naming the problem', (text, message) => {
    const dir = project(`bad-${Math.random().toString(36).slice(2)}`, text);
    expect(() => loadProjectConfig(dir)).toThrow(ConfigError);
    expect(() => loadProjectConfig(dir)).toThrow(message);
  });
});

describe("the token recipe of the operators' access page (issue 27, point 8)", () => {
  it('prints a config entry that the config accepts as it is', () => {
    const page = readFileSync(join(__dirname, '..', '..', 'docs', 'operators', 'access.md'), 'utf8');
    const recipe = /its config entry with `([^`]+)`/.exec(page)?.[1];
    expect(recipe).toBeDefined();
    const entry = execFileSync('sh', ['-c', recipe as string], {
      env: { PATH: process.env.PATH, TOKEN: 'a-token-of-sufficient-length' },
      encoding: 'utf8',
    }).trim();
    const dir = project('recipe', JSON.stringify({ http: { authTokens: [entry] } }));
    expect(entry).toBe(`sha256:${createHash('sha256').update('a-token-of-sufficient-length').digest('hex')}`);
    expect(loadProjectConfig(dir).http.authTokens).toEqual([entry]);
  });
});
