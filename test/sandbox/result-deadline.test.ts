// Promise 7, attacked where a handler's code still runs after it returned a value: while its
// result is read (a getter that loops, a toJSON that loops, a Proxy whose keys never come), an
// async generator left iterating, and a result that is small in memory but huge as JSON (one
// string shared a hundred and fifty times). Each fails its own call (SEC105 or SEC106) in the real
// sandbox, and the next schema's call on the same sandbox succeeds.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxHost } from '../../src/sandbox/host.js';
import { hookInput, hookUnit, render } from './helpers.js';

const unit = (id: string, postRequest: string) => hookUnit(id, 'postRequest', postRequest);

const ATTACKS: Record<string, { postRequest: string; codes: string[] }> = {
  'a getter on the result that loops': {
    postRequest: `({ response }) => ({ response: { get x() { for (;;) {} } } })`,
    codes: ['SEC105'],
  },
  'a toJSON on the result that loops': {
    postRequest: `({ response }) => ({ response: { toJSON() { for (;;) {} } } })`,
    codes: ['SEC105'],
  },
  'a Proxy result whose keys never come': {
    postRequest: `({ response }) => ({ response: new Proxy({}, { ownKeys() { for (;;) {} } }) })`,
    codes: ['SEC105'],
  },
  'an async generator left iterating': {
    postRequest: `async ({ response }) => { async function* ticks() { for (;;) yield 1; } (async () => { for await (const _ of ticks()); })(); return { response }; }`,
    codes: ['SEC105', 'SEC106'],
  },
  'a result of 150 MB as JSON from one shared 1 MB string': {
    postRequest: `({ response }) => { const text = 'x'.repeat(1e6); return { response: Array(150).fill(text) }; }`,
    codes: ['SEC106'],
  },
};

const BENIGN = unit('benign', `({ response }) => ({ response: { benign: true } })`);

describe('code that runs after a handler returned misses its deadline or bound; the next call succeeds', () => {
  let sandbox: SandboxHost;
  beforeAll(() => {
    sandbox = new SandboxHost({ size: 1, deadlineMs: 1000, memoryMb: 128 });
  });
  afterAll(() => sandbox.close());

  for (const [name, attack] of Object.entries(ATTACKS)) {
    it(
      name,
      async () => {
        const id = name.replace(/\W+/g, '-');
        for (const spec of [unit(id, attack.postRequest), BENIGN]) {
          const loaded = await sandbox.load(spec);
          expect(loaded.ok, render(loaded)).toBe(true);
        }
        const offending = await sandbox.runHook(id, 'getThing', 'postRequest', hookInput('postRequest'));
        expect(offending.ok, render(offending)).toBe(false);
        if (!offending.ok) expect(attack.codes).toContain(offending.failure.code);
        const next = await sandbox.runHook('benign', 'getThing', 'postRequest', hookInput('postRequest'));
        expect(next, render(next)).toEqual({ ok: true, value: { response: { benign: true } } });
      },
      30_000,
    );
  }
});
