import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadProjectConfig } from '../src/config/project.js';

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
    expect(loadProjectConfig(project('none'))).toEqual({ allowedLibraries: [], sandbox: {}, http: {}, upstreams: {} });
  });

  it('reads the allowlist extension and the sandbox limits', () => {
    const full = {
      security: { allowedLibraries: ['trading-signals', '@scope/pkg'] },
      sandbox: { deadlineMs: 1500, memoryMb: 96, workers: 2 },
      http: { connectTimeoutMs: 2000, totalTimeoutMs: 9000, maxResponseBytes: 65536, maxRedirects: 2 },
      upstreams: { '*': 'http://127.0.0.1:8080' },
    };
    const dir = project('full', JSON.stringify(full));
    expect(loadProjectConfig(dir)).toEqual({ allowedLibraries: full.security.allowedLibraries, sandbox: full.sandbox, http: full.http, upstreams: full.upstreams });
  });

  it.each([
    ['{ not json', 'not valid JSON'],
    ['{ "security": { "allowedLibraries": ["ethers/lib"] } }', 'security.allowedLibraries.0 must be an exact package name'],
    ['{ "security": { "allowedLibraries": ["../evil"] } }', 'security.allowedLibraries.0 must be an exact package name'],
    ['{ "security": { "allowedLibraries": ["a..b"] } }', 'security.allowedLibraries.0 must be an exact package name'],
    ['{ "sandbox": { "deadlineMs": 0 } }', 'sandbox.deadlineMs must be >= 50'],
    ['{ "sandbox": { "memoryMb": "lots" } }', 'sandbox.memoryMb must be integer'],
    ['{ "secuirty": {} }', "(top level) must NOT have additional properties 'secuirty'"],
  ])('rejects %s, naming the problem', (text, message) => {
    const dir = project(`bad-${Math.random().toString(36).slice(2)}`, text);
    expect(() => loadProjectConfig(dir)).toThrow(ConfigError);
    expect(() => loadProjectConfig(dir)).toThrow(message);
  });
});
