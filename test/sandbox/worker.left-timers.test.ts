// Promise 7 against timers a call leaves behind: a handler hands a library's timer (ethers'
// `_setTimeout`, allowlisted by default) a callback that never returns, and answers. The reply
// waits one turn of the event loop for the work a call leaves running, but the timer fires
// later, under no deadline: the sandbox process would be held, and the next call in it, of a
// calm schema, failed in its place (SEC105). A timer that fires while its call runs still runs.
//
// Real parts: the real sandbox (one process, both schemas in it), ethers as installed.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/runtime/catalog.js';
import { loadProjectCatalog, type ProjectCatalog } from '../kit/catalog.js';
import { CALM, calmCallsAnswered, ROUTE } from './left-work-kit.js';

const TIMED = `export const main = {
    namespace: 'timed', name: 'Timed', description: 'Leaves timers behind.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.timed.test',
    requiredLibraries: ['ethers'],
    routes: { ${[ROUTE('spin'), ROUTE('rearm'), ROUTE('fired'), ROUTE('waits')].join(', ')} }
};
export const handlers = ({ libraries }) => {
    const provider = new libraries.ethers.JsonRpcProvider('https://api.timed.test', 1, { staticNetwork: true });
    let fired = 0;
    return {
        spin: { executeRequest: async () => {
            provider._setTimeout(() => { let turns = 0; while (turns >= 0) turns += 1; }, 20);
            return { response: 'left a spinning timer' };
        } },
        rearm: { executeRequest: async () => {
            const again = () => { fired += 1; provider._setTimeout(again, 0); };
            again();
            return { response: 'left a timer that sets itself again' };
        } },
        fired: { executeRequest: async () => ({ response: fired }) },
        waits: { executeRequest: async () => {
            await new Promise((resolve) => provider._setTimeout(resolve, 10));
            return { response: 'the timer fired during the call' };
        } }
    };
};
`;

let loaded: ProjectCatalog | undefined;
let catalog: Catalog;

beforeAll(async () => {
  loaded = await loadProjectCatalog({ schemas: { 'timed.mjs': TIMED, 'calm.mjs': CALM } }, { sandbox: { size: 1 } });
  catalog = loaded.catalog;
  expect(catalog.findings().filter((finding) => finding.severity === 'error')).toEqual([]);
}, 30_000);
afterAll(async () => {
  await loaded?.close();
});

describe('timers a call leaves behind in a library', () => {
  it('a timer that fires during its call runs (the control)', async () => {
    expect(await catalog.call('timed_waits', {})).toMatchObject({
      ok: true,
      content: { value: 'the timer fired during the call' },
    });
  });

  it("a callback that never returns, fired after its call answered, fails no calm schema's call", async () => {
    expect(await catalog.call('timed_spin', {})).toMatchObject({ ok: true });
    await calmCallsAnswered(catalog);
  });

  it("a timer that sets itself again, for ever, stops with its call; the calm schema's calls are answered", async () => {
    expect(await catalog.call('timed_rearm', {})).toMatchObject({ ok: true });
    const firedThen = await catalog.call('timed_fired', {});
    await calmCallsAnswered(catalog);
    expect(await catalog.call('timed_fired', {})).toEqual(firedThen);
    expect(await catalog.call('timed_waits', {})).toMatchObject({ ok: true });
  });
});
