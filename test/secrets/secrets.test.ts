import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SecretStore, SecretTokens, type SecretSlots } from '../../src/http/secrets.js';

const dir = mkdtempSync(join(tmpdir(), 'flowguard-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SecretStore', () => {
  it('reads .env, lets the environment win, and counts empty values as missing', () => {
    writeFileSync(join(dir, '.env'), 'FROM_FILE=file-value\nBOTH=file\nEMPTY=\n');
    const store = SecretStore.fromProject(dir, { BOTH: 'env', ALSO_EMPTY: '' });
    expect([store.get('FROM_FILE'), store.get('BOTH'), store.get('EMPTY'), store.get('ALSO_EMPTY')]).toEqual(['file-value', 'env', undefined, undefined]);
    expect(store.missing(['FROM_FILE', 'EMPTY', 'NOPE'])).toEqual(['EMPTY', 'NOPE']);
  });

  it('works without a .env file', () => {
    expect(SecretStore.fromProject(join(dir, 'missing'), { K: 'v' }).get('K')).toBe('v');
  });
});

describe('Redactor', () => {
  const store = new SecretStore({ API_KEY: 's3cr3t/+ key"', OTHER: 'abc' });
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
  const store = new SecretStore({ API_KEY: 'k&y/1' });
  const slots: SecretSlots = { url: new Set(['API_KEY']), headers: new Map([['x-api-key', new Set(['API_KEY'])]]), body: new Set() };

  it('fills the declared slots only, encoded for where they stand', () => {
    const tokens = new SecretTokens();
    const t = tokens.token('API_KEY');
    const filled = tokens.fill({ url: `https://api.example.com/x?apikey=${t}`, headers: { 'X-Api-Key': t, 'x-moved': t }, body: `{"k":"${t}"}` }, slots, store);
    expect(filled).toEqual({
      url: `https://api.example.com/x?apikey=${encodeURIComponent('k&y/1')}`,
      headers: { 'X-Api-Key': 'k&y/1', 'x-moved': t },
      body: `{"k":"${t}"}`,
    });
  });

  it('never expands a placeholder a user typed, nor another call\'s token', () => {
    const tokens = new SecretTokens();
    const typed = 'https://api.example.com/x?q={{API_KEY}}&r={{SERVER_PARAM:API_KEY}}';
    expect(tokens.fill({ url: typed, headers: {} }, slots, store).url).toBe(typed);
    const foreign = new SecretTokens().token('API_KEY');
    expect(tokens.fill({ url: `https://api.example.com/?k=${foreign}`, headers: {} }, slots, store).url).toContain(foreign);
  });

  it('makes tokens that survive URL and JSON encoding', () => {
    const t = new SecretTokens().token('API_KEY');
    expect(encodeURIComponent(t)).toBe(t);
    expect(JSON.stringify(t)).toBe(`"${t}"`);
  });
});
