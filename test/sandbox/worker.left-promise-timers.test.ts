// Promise 7 against a library's timers in their promise form (`node:timers/promises`, its
// interval's ticks, and `util.promisify(setTimeout)`, which Node answers with the same): a library that sleeps
// before calling back (a retry's backoff) is handed a callback that never returns, and the
// handler answers. timer-guard.ts guards the callback forms only: the sleep ends after the call
// answered, the callback spins in the sandbox process under no deadline, and the next call in
// it, of a calm schema, fails in its place (SEC105). A sleep that ends while its call runs still
// ends (the control).
//
// Real parts: the real sandbox (one process, both schemas in it), a library written into the
// project's node_modules and allowed by the operator.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/runtime/catalog.js';
import { loadProjectCatalog, type ProjectCatalog } from '../kit/catalog.js';
import { CALM, calmCallsAnswered, ROUTE } from './left-work-kit.js';

const SLEEPER = `import { setInterval as ticks, setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
const pause = promisify(setTimeout);
export const later = async (ms, then) => { await sleep(ms); then(); };
export const afterPause = async (ms, then) => { await pause(ms); then(); };
export const everyTick = async (ms, then) => { for await (const tick of ticks(ms)) then(tick); };
`;

const SLEEPY = `export const main = {
    namespace: 'sleepy', name: 'Sleepy', description: 'Leaves sleeps behind.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.sleepy.test',
    requiredLibraries: ['sleeper'],
    routes: { ${[ROUTE('spin'), ROUTE('spinAfterPause'), ROUTE('spinOnTick'), ROUTE('waits')].join(', ')} }
};
export const handlers = ({ libraries }) => {
    const spin = () => { let turns = 0; while (turns >= 0) turns += 1; };
    return {
        spin: { executeRequest: async () => {
            void libraries.sleeper.later(20, spin);
            return { response: 'left a sleep that spins' };
        } },
        spinAfterPause: { executeRequest: async () => {
            void libraries.sleeper.afterPause(20, spin);
            return { response: 'left a pause that spins' };
        } },
        spinOnTick: { executeRequest: async () => {
            void libraries.sleeper.everyTick(20, spin);
            return { response: 'left an interval that spins' };
        } },
        waits: { executeRequest: async () => {
            await new Promise((resolve) => libraries.sleeper.later(10, resolve));
            return { response: 'the sleep ended during the call' };
        } }
    };
};
`;

let loaded: ProjectCatalog | undefined;
let catalog: Catalog;

beforeAll(async () => {
  loaded = await loadProjectCatalog(
    {
      schemas: { 'sleepy.mjs': SLEEPY, 'calm.mjs': CALM },
      config: { security: { allowedLibraries: ['sleeper'] } },
      files: {
        'node_modules/sleeper/package.json': JSON.stringify({
          name: 'sleeper',
          version: '1.0.0',
          type: 'module',
          main: 'index.js',
        }),
        'node_modules/sleeper/index.js': SLEEPER,
      },
    },
    { sandbox: { size: 1 } },
  );
  catalog = loaded.catalog;
  expect(catalog.findings().filter((finding) => finding.severity === 'error')).toEqual([]);
}, 30_000);
afterAll(async () => {
  await loaded?.close();
});

describe("a library's sleeps (timers' promise form) a call leaves behind", () => {
  it('a sleep that ends during its call ends (the control)', async () => {
    expect(await catalog.call('sleepy_waits', {})).toMatchObject({
      ok: true,
      content: { value: 'the sleep ended during the call' },
    });
  });

  it("node:timers/promises: a callback that never returns, after a sleep that ends once its call answered, fails no calm schema's call", async () => {
    expect(await catalog.call('sleepy_spin', {})).toMatchObject({ ok: true });
    await calmCallsAnswered(catalog);
  });

  it("util.promisify(setTimeout): the same, fails no calm schema's call", async () => {
    expect(await catalog.call('sleepy_spinAfterPause', {})).toMatchObject({ ok: true });
    await calmCallsAnswered(catalog);
    expect(await catalog.call('sleepy_waits', {})).toMatchObject({ ok: true });
  });

  it("an interval's ticks (for await ... of setInterval): the same, fails no calm schema's call", async () => {
    expect(await catalog.call('sleepy_spinOnTick', {})).toMatchObject({ ok: true });
    await calmCallsAnswered(catalog);
    expect(await catalog.call('sleepy_waits', {})).toMatchObject({ ok: true });
  });
});
