// The canaries of the adversarial suite are live: each kind of effect an attack could have is
// produced here on purpose, from the host, and World.expectUntouched must notice it. Without
// this, a canary that silently saw nothing would make every hostile test pass.

import { appendFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ENV_SECRET, expectPlainData, World } from './helpers.js';

let world: World | null = null;
afterEach(async () => {
  await world?.close();
  world = null;
});

async function fresh(): Promise<World> {
  world = await World.create();
  return world;
}

describe('the canaries notice every effect', () => {
  it('a clean world passes', async () => {
    await (await fresh()).expectUntouched([{ ok: true, value: { struct: {} } }]);
  });

  it('the environment secret is set for the whole process', () => {
    expect(process.env.FLOWGUARD_CANARY_KEY).toBe(ENV_SECRET);
  });

  it('a request to the canary server', async () => {
    const w = await fresh();
    await new Promise<void>((done) => get(w.server.url, (response) => response.resume().on('end', done)));
    await expect(w.expectUntouched([])).rejects.toThrow(/canary server/);
  });

  it('a bare connection to the canary server, without a request', async () => {
    const w = await fresh();
    const { connect } = await import('node:net');
    const url = new URL(w.server.url);
    await new Promise<void>((done) => connect(Number(url.port), url.hostname, done).end());
    await expect(w.expectUntouched([])).rejects.toThrow(/canary server/);
  });

  it('an overwritten canary file, a file appended to, a file created', async () => {
    for (const spoil of [
      (w: World) => writeFileSync(w.canary.file, 'overwritten'),
      (w: World) => appendFileSync(w.canary.file, '!'),
      (w: World) => writeFileSync(join(w.canary.dir, 'created.txt'), 'x'),
    ]) {
      const w = await fresh();
      spoil(w);
      await expect(w.expectUntouched([])).rejects.toThrow(/canary folder/);
      await w.close();
      world = null;
    }
  });

  it('a secret in an output, however deep or wrapped in an error', async () => {
    const w = await fresh();
    await expect(w.expectUntouched([{ ok: true, value: { struct: { deep: [ENV_SECRET] } } }])).rejects.toThrow(
      /secret/,
    );
    await expect(
      w.expectUntouched([{ ok: false, failure: { code: 'SEC107', message: `x ${w.canary.secret}` } }]),
    ).rejects.toThrow(/secret/);
    await expect(w.expectUntouched([new Error(`boom ${ENV_SECRET}`)])).rejects.toThrow(/secret/);
  });

  it('a polluted Object.prototype, a replaced JSON.parse, a new global', async () => {
    const w = await fresh();
    Object.defineProperty(Object.prototype, 'polluted', { value: 1, configurable: true, enumerable: false });
    try {
      await expect(w.expectUntouched([])).rejects.toThrow(/Object\.prototype/);
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
    const parse = JSON.parse;
    JSON.parse = (text: string) => parse(text) as unknown;
    try {
      await expect(w.expectUntouched([])).rejects.toThrow();
    } finally {
      JSON.parse = parse;
    }
    (globalThis as Record<string, unknown>).flowguardCanaryGlobal = 1;
    try {
      await expect(w.expectUntouched([])).rejects.toThrow();
    } finally {
      delete (globalThis as Record<string, unknown>).flowguardCanaryGlobal;
    }
    await w.expectUntouched([]);
  });

  it('expectPlainData refuses accessors, proxies, foreign prototypes and __proto__ keys', () => {
    expectPlainData({ a: [1, 'x', null, { b: true }] });
    expect(() =>
      expectPlainData({
        get a() {
          return 1;
        },
      }),
    ).toThrow();
    expect(() => expectPlainData(new Proxy({}, {}))).toThrow();
    expect(() => expectPlainData(Object.create(null))).toThrow();
    expect(() => expectPlainData(JSON.parse('{"__proto__":{"x":1}}'))).toThrow();
    expect(() => expectPlainData({ f: () => 1 })).toThrow();
  });
});
