// Issue 23, guarantee 1: a bridged request belongs to the executeRequest call whose code started
// it, whatever made it (a library's global fetch in a timer loop, an ethers provider's retry loop,
// a fetch a handler left behind). It is judged, bounded and recorded as that call's, and sent only
// while that call runs: once the call has answered, its requests in flight are aborted and
// recorded, and what its code still tries is refused and charged to no one. Before, the worker
// charged every request to whichever call ran in its process: schema A's leftovers reached an
// origin the operator allowed for schema B only, landed in B's record, and failed B with SEC100.
//
// Real parts: both schemas load in one real sandbox process (size 1); a library written into the
// project's node_modules keeps timers; loopback servers stand for the upstreams, and `internal`
// for an address only the victim may reach (network.allow and network.allowPrivate name it).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import type { SandboxEvent } from '../../src/sandbox/events.js';
import { tempProject } from '../support/project.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { waitFor } from '../support/wait.js';

const ROUTE = (name: string, parameters = '[]') =>
  `${name}: { method: 'GET', path: '/${name}', description: 'A route.', parameters: ${parameters}, tests: [{ _description: 'a' }] }`;
const PARAM = (key: string) =>
  `[{ position: { key: '${key}', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: [] } }]`;

const LEAVER = `export const main = {
    namespace: 'leaver', name: 'Leaver', description: 'Leaves work behind.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.leaver.test',
    requiredLibraries: ['timer-lib', 'ethers'],
    routes: { ${[ROUTE('loop', PARAM('url')), ROUTE('detached', PARAM('url')), ROUTE('ethersLoop', PARAM('url')), ROUTE('abandon')].join(', ')} }
};
export const handlers = ({ sharedLists, libraries }) => ({
    loop: { executeRequest: async ({ payload }) => { libraries['timer-lib'].fetchEvery(20, payload.userParams.url); return { response: 'started' }; } },
    detached: { executeRequest: async ({ payload }) => { libraries['timer-lib'].after(100, () => fetch(payload.userParams.url)); return { response: 'left' }; } },
    ethersLoop: { executeRequest: async ({ payload }) => {
        const provider = new libraries.ethers.JsonRpcProvider(payload.userParams.url);
        provider.getBlockNumber().catch(() => undefined);
        return { response: 'started' };
    } },
    abandon: { executeRequest: async () => {
        fetch('https://api.leaver.test/slow?ms=3000').catch(() => undefined);
        // Answered only once the first request is surely on the wire.
        await fetch('https://api.leaver.test/slow?ms=100');
        return { response: 'answered' };
    } }
});
`;

const VICTIM = `export const main = {
    namespace: 'victim', name: 'Victim', description: 'Waits on its own upstream.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.victim.test',
    routes: { ${ROUTE('wait', PARAM('ms'))} }
};
export const handlers = () => ({
    wait: { executeRequest: async ({ payload }) => {
        const answer = await fetch('https://api.victim.test/slow?ms=' + payload.userParams.ms);
        return { response: await answer.json() };
    } }
});
`;

const TIMER_LIB = `
const quietly = (work) => { try { Promise.resolve(work()).catch(() => undefined); } catch {} };
export function fetchEvery(ms, url) { setInterval(() => quietly(() => fetch(url)), ms); }
export function after(ms, work) { setTimeout(() => quietly(work), ms); }
`;

let upstream: Upstream;
let internal: Upstream;
let project: { dir: string; remove: () => void };
let catalog: Catalog;
const events: SandboxEvent[] = [];

beforeAll(async () => {
  upstream = await startUpstream((req, res) => {
    const ms = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('ms') ?? 0);
    setTimeout(
      () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: req.url })),
      ms,
    );
  });
  internal = await startUpstream((_req, res) => res.writeHead(500).end('internal'));
  project = tempProject({
    network: { allow: { victim: [internal.origin] }, allowPrivate: [internal.origin] },
    security: { allowedLibraries: ['timer-lib'] },
  });
  const library = join(project.dir, 'node_modules', 'timer-lib');
  mkdirSync(library, { recursive: true });
  writeFileSync(
    join(library, 'package.json'),
    JSON.stringify({ name: 'timer-lib', version: '1.0.0', type: 'module', main: 'index.js' }),
  );
  writeFileSync(join(library, 'index.js'), TIMER_LIB);
  mkdirSync(join(project.dir, 'schemas'));
  writeFileSync(join(project.dir, 'schemas', 'leaver.mjs'), LEAVER);
  writeFileSync(join(project.dir, 'schemas', 'victim.mjs'), VICTIM);
  catalog = await Catalog.load({
    schemas: join(project.dir, 'schemas'),
    project: project.dir,
    env: {},
    upstreams: { 'https://api.leaver.test': upstream.origin, 'https://api.victim.test': upstream.origin },
    sandbox: { size: 1, onEvent: (event) => events.push(event) },
  });
  expect(catalog.findings().filter((finding) => finding.severity === 'error')).toEqual([]);
}, 30_000);
afterAll(async () => {
  await catalog?.close();
  project?.remove();
  await Promise.all([upstream?.close(), internal?.close()]);
});

/** The victim's call: only its own request, recorded on it, and nothing else. */
async function victimWaits(ms: number): Promise<void> {
  const result = await catalog.call('victim_wait', { ms: String(ms) });
  expect(result).toMatchObject({ ok: true, content: { value: { path: `/slow?ms=${ms}` } } });
  expect((result as { requests: unknown[] }).requests).toEqual([
    {
      origin: 'https://api.victim.test',
      method: 'GET',
      status: 200,
      bytes: expect.any(Number),
      ms: expect.any(Number),
    },
  ]);
}

describe('work a call leaves behind never acts as another call', () => {
  it("a library's timer loop of global fetches, left running by one schema, never reaches the origin the operator allowed for another, nor lands in its record", async () => {
    const target = `${internal.origin}/from-leaver-loop`;
    expect(await catalog.call('leaver_loop', { url: target })).toMatchObject({
      ok: true,
      content: { value: 'started' },
    });
    // The loop fires every 20 ms, all through each of the victim's calls.
    for (const ms of [200, 200, 200]) await victimWaits(ms);
    expect(internal.records.filter((entry) => entry.url === '/from-leaver-loop')).toEqual([]);
    // Its timers never fired once its call had answered (timer-guard.ts): not even a refused attempt.
    expect(events).not.toContainEqual(expect.objectContaining({ kind: 'late-request' }));
  });

  it("a fetch a handler left behind, firing during another schema's call, does not fail that call (no SEC100)", async () => {
    const target = `${internal.origin}/from-leaver-detached`;
    expect(await catalog.call('leaver_detached', { url: target })).toMatchObject({ ok: true });
    // The leftover fires 100 ms after the leaver answered: within the victim's call.
    await victimWaits(400);
    expect(internal.records.filter((entry) => entry.url === '/from-leaver-detached')).toEqual([]);
  });

  it("an ethers provider's network-detection retry loop, left by one schema, is never sent in another schema's call", async () => {
    const mark = internal.records.length;
    // Outside the leaver's reach: its own call is refused, and ethers retries every second after.
    expect(await catalog.call('leaver_ethersLoop', { url: `${internal.origin}/rpc` })).toMatchObject({ ok: true });
    for (const ms of [1200, 1200]) await victimWaits(ms);
    expect(internal.records.slice(mark)).toEqual([]);
  });

  it('a request still in flight when its call answers is aborted upstream and recorded on that call', async () => {
    const mark = upstream.records.length;
    const result = await catalog.call('leaver_abandon', {});
    expect(result).toMatchObject({ ok: true, content: { value: 'answered' } });
    expect((result as { requests: unknown[] }).requests).toEqual([
      {
        origin: 'https://api.leaver.test',
        method: 'GET',
        status: 200,
        bytes: expect.any(Number),
        ms: expect.any(Number),
      },
      {
        origin: 'https://api.leaver.test',
        method: 'GET',
        status: 0,
        bytes: 0,
        ms: expect.any(Number),
        error: expect.stringMatching(/^ABORTED: /),
      },
    ]);
    // The upstream saw the request, and the core hang up on it long before its 3 s answer.
    expect(
      await waitFor(
        () => upstream.records.slice(mark).some((entry) => entry.url === '/slow?ms=3000' && entry.closed),
        2_500,
      ),
    ).toBe(true);
  });
});
