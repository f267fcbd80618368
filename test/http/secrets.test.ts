import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SecretStore, SecretTokens, type SecretSlots } from '../../src/http/secrets.js';

const dir = mkdtempSync(join(tmpdir(), 'flowguard-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SecretStore', () => {
  it('reads .env, lets a granted environment variable win, and counts empty values as missing', () => {
    writeFileSync(join(dir, '.env'), 'FROM_FILE=file-value\nBOTH=file\nEMPTY=\n');
    const store = SecretStore.fromProject(dir, {
      env: { BOTH: 'env', ALSO_EMPTY: '' },
      grants: [
        { pattern: 'BOTH', namespaces: null },
        { pattern: 'ALSO_EMPTY', namespaces: null },
      ],
    });
    expect(['FROM_FILE', 'BOTH', 'EMPTY', 'ALSO_EMPTY'].map((key) => store.valueFor(key, 'ns'))).toEqual([
      'file-value',
      'env',
      undefined,
      undefined,
    ]);
    expect(store.missing(['FROM_FILE', 'EMPTY', 'NOPE'], 'ns')).toEqual(['EMPTY', 'NOPE']);
  });

  it('works without a .env file', () => {
    expect(SecretStore.fromProject(join(dir, 'missing'), { given: { K: 'v' } }).valueFor('K', 'ns')).toBe('v');
  });

  it('takes nothing from the environment that security.keys does not grant', () => {
    const store = new SecretStore({ env: { AWS_SECRET_ACCESS_KEY: 'aws-secret', HOME: '/root' } });
    expect(store.valueFor('AWS_SECRET_ACCESS_KEY', 'evil')).toBeUndefined();
    expect(store.access('AWS_SECRET_ACCESS_KEY', 'evil')).toEqual({
      granted: false,
      reason: 'not-granted',
      fix: 'security.keys: "AWS_SECRET_ACCESS_KEY": ["evil"]',
    });
    expect(store.access('NEVER_SET', 'evil')).toEqual({
      granted: false,
      reason: 'unset',
      fix: 'NEVER_SET=... in .env',
    });
  });

  it('grants names and globs, each bound to its namespaces', () => {
    const store = new SecretStore({
      env: { ETHERSCAN_API_KEY: 'e', ALCHEMY_KEY: 'a', ALCHEMY_OTHER: 'o', UNRELATED: 'u' },
      grants: [
        { pattern: 'ETHERSCAN_API_KEY', namespaces: ['etherscan'] },
        { pattern: 'ALCHEMY_*', namespaces: null },
      ],
    });
    expect(store.valueFor('ETHERSCAN_API_KEY', 'etherscan')).toBe('e');
    expect(store.valueFor('ETHERSCAN_API_KEY', 'evil')).toBeUndefined();
    expect(store.access('ETHERSCAN_API_KEY', 'evil')).toEqual({
      granted: false,
      reason: 'bound-elsewhere',
      fix: 'security.keys: "ETHERSCAN_API_KEY": ["etherscan","evil"]',
    });
    expect([
      store.valueFor('ALCHEMY_KEY', 'x'),
      store.valueFor('ALCHEMY_OTHER', 'y'),
      store.valueFor('UNRELATED', 'x'),
    ]).toEqual(['a', 'o', undefined]);
    expect(store.access('ALCHEMY_KEY', 'x')).toEqual({ granted: true, source: 'environment' });
  });

  it('binds a key from .env too when a grant names it', () => {
    const store = new SecretStore({
      dotenv: { ETHERSCAN_API_KEY: 'e' },
      grants: [{ pattern: 'ETHERSCAN_API_KEY', namespaces: ['etherscan'] }],
    });
    expect([store.valueFor('ETHERSCAN_API_KEY', 'etherscan'), store.valueFor('ETHERSCAN_API_KEY', 'other')]).toEqual([
      'e',
      undefined,
    ]);
  });

  it('reads a glob literally apart from its stars', () => {
    const store = new SecretStore({ env: { 'A.B': 'dot', AXB: 'x' }, grants: [{ pattern: 'A.*', namespaces: null }] });
    expect([store.valueFor('A.B', 'ns'), store.valueFor('AXB', 'ns')]).toEqual(['dot', undefined]);
  });
});

describe('Redactor', () => {
  const store = new SecretStore({ given: { API_KEY: 's3cr3t/+ key"', OTHER: 'abc' } });
  const redactor = store.redactorFor(['API_KEY']);

  it.each([
    ['raw', 'value s3cr3t/+ key" here'],
    ['percent-encoded', `url?k=${encodeURIComponent('s3cr3t/+ key"')}`],
    ['form-encoded', `url?${new URLSearchParams({ k: 's3cr3t/+ key"' }).toString()}`],
    ['JSON-escaped', JSON.stringify({ echoed: 's3cr3t/+ key"' })],
  ])('redacts the %s form', (_form, text) => {
    const redacted = redactor.redact(text);
    expect(redacted).toContain('[redacted API_KEY]');
    expect(redacted).not.toContain('s3cr3t');
  });

  it('redacts inside JSON values and leaves undeclared keys alone', () => {
    expect(redactor.redactValue({ a: ['s3cr3t/+ key"', 'abc'] })).toEqual({ a: ['[redacted API_KEY]', 'abc'] });
  });
});

describe('SecretTokens', () => {
  const slots: SecretSlots = {
    url: new Set(['API_KEY']),
    headers: new Map([['x-api-key', new Set(['API_KEY'])]]),
    body: new Set(),
  };
  const valueOf = (key: string) => (key === 'API_KEY' ? 'k&y/1' : undefined);

  it('fills the declared slots only, encoded for where they stand', () => {
    const tokens = new SecretTokens();
    const t = tokens.token('API_KEY');
    const filled = tokens.fill(
      { url: `https://api.example.com/x?apikey=${t}`, headers: { 'X-Api-Key': t, 'x-moved': t }, body: `{"k":"${t}"}` },
      slots,
      valueOf,
    );
    expect(filled).toEqual({
      url: `https://api.example.com/x?apikey=${encodeURIComponent('k&y/1')}`,
      headers: { 'X-Api-Key': 'k&y/1', 'x-moved': t },
      body: `{"k":"${t}"}`,
    });
  });

  it('fills nothing for a key not granted to the namespace', () => {
    const tokens = new SecretTokens();
    const t = tokens.token('API_KEY');
    expect(tokens.fill({ url: `https://api.example.com/x?apikey=${t}`, headers: {} }, slots, () => undefined).url).toBe(
      `https://api.example.com/x?apikey=${t}`,
    );
  });

  it("never expands a placeholder a user typed, nor another call's token", () => {
    const tokens = new SecretTokens();
    const typed = 'https://api.example.com/x?q={{API_KEY}}&r={{SERVER_PARAM:API_KEY}}';
    expect(tokens.fill({ url: typed, headers: {} }, slots, valueOf).url).toBe(typed);
    const foreign = new SecretTokens().token('API_KEY');
    expect(tokens.fill({ url: `https://api.example.com/?k=${foreign}`, headers: {} }, slots, valueOf).url).toContain(
      foreign,
    );
  });

  it('fills every occurrence of a token, and reads no `$` of a value as a replacement pattern', () => {
    const tokens = new SecretTokens();
    const t = tokens.token('API_KEY');
    const dollars = (key: string) => (key === 'API_KEY' ? "$&$'$$1$`" : undefined);
    const filled = tokens.fill(
      { url: 'https://api.example.com/', headers: { 'x-api-key': `${t}|${t}${t}|` } },
      slots,
      dollars,
    );
    expect(filled.headers['x-api-key']).toBe("$&$'$$1$`|$&$'$$1$`$&$'$$1$`|");
  });

  it('makes a fresh nonce for every call, past a batch of them', () => {
    // 256 nonces are written per batch of random bytes: three batches' worth, none repeated.
    const nonces = new Set(Array.from({ length: 800 }, () => new SecretTokens().token('K')));
    expect(nonces.size).toBe(800);
    for (const token of nonces) expect(token).toMatch(/^__secret_K_[0-9a-f]{32}__$/);
  });

  it('makes tokens that survive URL and JSON encoding', () => {
    const t = new SecretTokens().token('API_KEY');
    expect(encodeURIComponent(t)).toBe(t);
    expect(JSON.stringify(t)).toBe(`"${t}"`);
  });
});
