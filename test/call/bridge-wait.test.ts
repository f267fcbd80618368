// Issue 23, guarantee 3: a network wait does not hold the sandbox. An executeRequest call that
// waits for a slow upstream is parked, and other schemas' calls run in the same process
// meanwhile; before, they waited behind it and failed with SEC105 ("could not start within
// ... ms"). Deadlines stay exact: a parked call's deadline does not count the time other calls
// run beside it, and theirs do not count its wait.
//
// Real parts: one real sandbox process (size 1) with a short deadline, a loopback upstream that
// answers after the delay asked for.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/runtime/catalog.js';
import { loadProjectCatalog, type ProjectCatalog } from '../kit/catalog.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { waitFor } from '../support/wait.js';

const DEADLINE_MS = 1000;
/** How long a job may wait to start: the deadline and the sandbox's start allowance of 2 s. */
const START_BOUND_MS = DEADLINE_MS + 2000;
/** The busy handlers' own run time: well inside the deadline, but two of them together are not. */
const SPIN_MS = 600;

const ROUTE = (name: string) =>
  `${name}: { method: 'GET', path: '/${name}', description: 'A route.', parameters: [], tests: [{ _description: 'a' }] }`;
const SPIN = `const end = Date.now() + ${SPIN_MS}; while (Date.now() < end);`;

const WAITER = `export const main = {
    namespace: 'waiter', name: 'Waiter', description: 'Waits on a slow upstream.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.waiter.test',
    routes: { ${[ROUTE('slow'), ROUTE('thenBusy'), ROUTE('both')].join(', ')} }
};
export const handlers = () => ({
    slow: { executeRequest: async () => ({ response: await (await fetch('https://api.waiter.test/slow?ms=${START_BOUND_MS + 1000}')).json() }) },
    thenBusy: { executeRequest: async () => {
        const answer = await (await fetch('https://api.waiter.test/slow?ms=100')).json();
        ${SPIN}
        return { response: answer };
    } },
    both: { executeRequest: async () => {
        const answers = await Promise.all(['/slow?ms=50', '/slow?ms=${START_BOUND_MS + 1000}'].map(async (path) => (await fetch('https://api.waiter.test' + path)).json()));
        return { response: answers.map((answer) => answer.path) };
    } }
});
`;

const OTHER = `export const main = {
    namespace: 'other', name: 'Other', description: 'Computes only.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.other.test',
    routes: { ${[ROUTE('quick'), ROUTE('busy')].join(', ')} }
};
export const handlers = () => ({
    quick: { executeRequest: async () => ({ response: 'quick' }) },
    busy: { executeRequest: async () => { ${SPIN} return { response: 'busy' }; } }
});
`;

let upstream: Upstream;
let loaded: ProjectCatalog | undefined;
let catalog: Catalog;

beforeAll(async () => {
  upstream = await startUpstream((req, res) => {
    const ms = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('ms') ?? 0);
    setTimeout(
      () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: req.url })),
      ms,
    );
  });
  loaded = await loadProjectCatalog(
    { config: { sandbox: { deadlineMs: DEADLINE_MS } }, schemas: { 'waiter.mjs': WAITER, 'other.mjs': OTHER } },
    { upstreams: { 'https://api.waiter.test': upstream.origin }, sandbox: { size: 1 } },
  );
  catalog = loaded.catalog;
  // Both units loaded in the one process before the timing matters.
  expect(await catalog.call('other_quick', {})).toMatchObject({ ok: true });
  expect(await catalog.call('waiter_thenBusy', {})).toMatchObject({ ok: true });
}, 30_000);
afterAll(async () => {
  await loaded?.close();
  await upstream?.close();
});

/** Starts `tool`, and once its request to `path` has reached the upstream, hands over the call (wrapped: an async function would wait for it). */
async function startWaiting(tool: string, path: string): Promise<{ call: Promise<unknown> }> {
  const mark = upstream.records.length;
  const call = catalog.call(tool, {});
  expect(await waitFor(() => upstream.records.slice(mark).some((entry) => entry.url === path), 10_000)).toBe(true);
  return { call };
}

describe('a call waiting on the network does not hold the sandbox process', () => {
  it("another schema's calls run while it waits longer than their start bound, and it still gets its answer", async () => {
    const slowPath = `/slow?ms=${START_BOUND_MS + 1000}`;
    const { call: slow } = await startWaiting('waiter_slow', slowPath);
    let slowDone = false;
    void slow.then(() => (slowDone = true));
    for (let i = 0; i < 3; i += 1)
      expect(await catalog.call('other_quick', {})).toMatchObject({ ok: true, content: { value: 'quick' } });
    expect(slowDone).toBe(false);
    expect(await slow).toMatchObject({ ok: true, content: { value: { path: slowPath } } });
  });

  it('also while one of its requests is answered and another still waits (Promise.all)', async () => {
    const { call: both } = await startWaiting('waiter_both', `/slow?ms=${START_BOUND_MS + 1000}`);
    expect(await catalog.call('other_quick', {})).toMatchObject({ ok: true });
    expect(await both).toMatchObject({
      ok: true,
      content: { value: ['/slow?ms=50', `/slow?ms=${START_BOUND_MS + 1000}`] },
    });
  });

  it("deadlines stay exact: a parked call's answer waits while another call runs, and neither deadline counts the other's run time", async () => {
    // The waiter's answer comes while the busy call runs; each runs SPIN_MS of a DEADLINE_MS
    // deadline, so a deadline that counted the other's time would be missed.
    const { call: waiter } = await startWaiting('waiter_thenBusy', '/slow?ms=100');
    const busy = catalog.call('other_busy', {});
    expect(await busy).toMatchObject({ ok: true, content: { value: 'busy' } });
    expect(await waiter).toMatchObject({ ok: true, content: { value: { path: '/slow?ms=100' } } });
  });
});
