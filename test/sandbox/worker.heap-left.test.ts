// Promise 7 against memory a call leaves held: two schemas in one sandbox process. The hoarder's
// handler keeps most of the heap limit in its factory's closure and returns, under the limit when
// it answers. Before, its process served on, and the calm schema's next call, which fits a fresh
// process easily, ran out of heap there and was the one failed (SEC106) for memory it never took.
// Now the process weighs what it holds after each request: a call that leaves it holding more
// than half its heap limit beyond its libraries fails itself (SEC106), the process is replaced, and
// the calm call runs in the new one. A call that only made garbage is not blamed. Beside a parked
// call, whose memory it is cannot be told: no call is blamed, and the process is replaced.
//
// Real parts: the real sandbox (one process, the schemas in it), behind a real catalog or alone.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/runtime/catalog.js';
import type { SandboxEvent } from '../../src/sandbox/events.js';
import { SandboxHost } from '../../src/sandbox/host.js';
import type { Bridge } from '../../src/sandbox/protocol.js';
import { loadProjectCatalog, type ProjectCatalog } from '../kit/catalog.js';
import { hookInput, hookUnit } from './helpers.js';

const MEMORY_MB = 64;
/** Elements of one array of small integers: 8 bytes each, 8 MiB an array. */
const MIB_8 = 2 ** 20;

const ROUTE = (name: string) =>
  `${name}: { method: 'GET', path: '/${name}', description: 'A route.', parameters: [], tests: [{ _description: 'a' }] }`;

// 40 MiB kept in the factory's closure: under the 64 MiB limit when the call answers, but too
// much for the 30 MiB the calm call needs to fit beside it.
const HOARDER = `export const main = {
    namespace: 'hoarder', name: 'Hoarder', description: 'Keeps what it makes.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.hoarder.test',
    routes: { ${[ROUTE('hoard'), ROUTE('churn')].join(', ')} }
};
export const handlers = () => {
    const kept = [];
    return {
        hoard: { executeRequest: async () => {
            for (let i = 0; i < 5; i += 1) kept.push(new Array(${MIB_8}).fill(i));
            return { response: kept.length };
        } },
        // As much again made and dropped: garbage, not held.
        churn: { executeRequest: async () => {
            let made = 0;
            for (let i = 0; i < 5; i += 1) made += new Array(${MIB_8}).fill(i).length;
            return { response: made };
        } }
    };
};
`;

const CALM = `export const main = {
    namespace: 'calm', name: 'Calm', description: 'Works on a fair share of memory.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.calm.test',
    routes: { ${ROUTE('sum')} }
};
export const handlers = () => ({
    sum: { executeRequest: async () => {
        const parts = [];
        for (let i = 0; i < 4; i += 1) parts.push(new Array(${MIB_8}).fill(1));
        return { response: parts.reduce((total, part) => total + part.reduce((a, b) => a + b, 0), 0) };
    } }
});
`;

const CALM_SUM = 4 * MIB_8;

let loaded: ProjectCatalog | undefined;
let catalog: Catalog;
const events: SandboxEvent[] = [];

beforeAll(async () => {
  loaded = await loadProjectCatalog(
    { schemas: { 'hoarder.mjs': HOARDER, 'calm.mjs': CALM } },
    // A deadline long enough that a busy machine never decides; memory does.
    { sandbox: { size: 1, memoryMb: MEMORY_MB, deadlineMs: 20_000, onEvent: (event) => events.push(event) } },
  );
  catalog = loaded.catalog;
  expect(catalog.findings().filter((finding) => finding.severity === 'error')).toEqual([]);
}, 30_000);
afterAll(async () => {
  await loaded?.close();
});

describe('a call that leaves its process holding most of the heap, beside a calm schema', () => {
  it('the calm call fits a process of its own, and garbage made by another call is no one’s fault', async () => {
    expect(await catalog.call('calm_sum', {})).toMatchObject({ ok: true, content: { value: CALM_SUM } });
    for (let round = 0; round < 3; round += 1) {
      expect(await catalog.call('hoarder_churn', {})).toMatchObject({ ok: true, content: { value: 5 * MIB_8 } });
      expect(await catalog.call('calm_sum', {})).toMatchObject({ ok: true, content: { value: CALM_SUM } });
    }
    expect(events).toEqual([]);
  }, 60_000);

  it('fails itself (SEC106) and its process is replaced: the calm call after it succeeds', async () => {
    const hoarded = await catalog.call('hoarder_hoard', {});
    const calm = await catalog.call('calm_sum', {});
    // Before the fix: the hoard answered 5, and the calm call failed with SEC106 in the bloated process.
    expect(calm).toMatchObject({ ok: true, content: { value: CALM_SUM } });
    expect(hoarded).toMatchObject({ ok: false, error: { code: 'SEC106' } });
    expect(events).toEqual([expect.objectContaining({ kind: 'worker-replaced' })]);
    // The hoarder's next call starts in the new process, its closure made again, empty.
    expect(await catalog.call('hoarder_churn', {})).toMatchObject({ ok: true, content: { value: 5 * MIB_8 } });
  }, 60_000);
});

describe('memory left beside a parked call', () => {
  const WAITS = hookUnit(
    'waits',
    'executeRequest',
    `async () => ({ response: (await fetch('https://api.waits.test/')).status })`,
  );
  const HOARDS = hookUnit(
    'hoards',
    'preRequest',
    `async ({ struct }) => { for (let i = 0; i < 5; i += 1) kept.push(new Array(${MIB_8}).fill(i)); return { struct }; }`,
    'const kept = [];',
  );
  const SUMS = hookUnit(
    'sums',
    'preRequest',
    `async ({ struct }) => { const parts = []; for (let i = 0; i < 4; i += 1) parts.push(new Array(${MIB_8}).fill(1)); return { struct: { ...struct, parts: parts.length } }; }`,
  );
  let sandbox: SandboxHost | undefined;
  afterAll(() => sandbox?.close());

  it('cannot be told whose it is: no call is blamed, the process ends after the call that left it, and the parked call fails as in any replacement', async () => {
    const replaced: string[] = [];
    const host = (sandbox = new SandboxHost({
      size: 1,
      memoryMb: MEMORY_MB,
      deadlineMs: 20_000,
      onEvent: (event) => event.kind === 'worker-replaced' && replaced.push(event.reason),
    }));
    for (const unit of [WAITS, HOARDS, SUMS]) expect((await host.load(unit)).ok).toBe(true);
    let asked: () => void = () => undefined;
    const firstAsked = new Promise<void>((resolve) => (asked = resolve));
    const held: Bridge = (_request, callEnded) => {
      asked();
      return new Promise((settle) =>
        callEnded.addEventListener('abort', () => settle({ ok: false, message: 'ABORTED: the call ended' })),
      );
    };
    const waits = host.runHook('waits', 'getThing', 'executeRequest', hookInput('preRequest'), held);
    await firstAsked;
    // Runs while the first call is parked (it only waits on its request).
    const hoarded = await host.runHook('hoards', 'getThing', 'preRequest', hookInput('preRequest'));
    expect(hoarded).toMatchObject({ ok: true });
    expect(await waits).toMatchObject({
      ok: false,
      failure: { code: 'SEC107', message: expect.stringContaining('while this call waited for the network') },
    });
    expect(replaced).toEqual([expect.stringMatching(/^a call left it holding \d+ MiB beside calls still unfinished/)]);
    expect(await host.runHook('sums', 'getThing', 'preRequest', hookInput('preRequest'))).toMatchObject({
      ok: true,
      value: { struct: { parts: 4 } },
    });
  }, 60_000);
});
