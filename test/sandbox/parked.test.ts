// Parked executeRequest calls straight through SandboxHost (issue 23, guarantee 3): a call that
// only waits on the core's requests gives its process to the next job, and a parked call whose
// whole-call bound passes fails alone: it runs no code, so the process is not replaced and the
// job running beside it is not failed with it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxHost } from '../../src/sandbox/host.js';
import type { Bridge, UnitSpec } from '../../src/sandbox/protocol.js';
import { hookInput, hookUnit } from './helpers.js';

const DEADLINE_MS = 3000;
const ALLOWANCE_MS = 200;

const unit = (id: string, handler: string) => hookUnit(id, 'executeRequest', handler);

const WAITS = unit('waits', `async () => ({ response: (await fetch('https://api.waits.test/')).status })`);
/** Runs 2.5 s of its 3 s deadline: past the waiting call's whole bound of 3.2 s when it starts a second after it. */
const BUSY = unit(
  'busy',
  `async () => { const end = Date.now() + 2500; while (Date.now() < end); return { response: 'busy' }; }`,
);

/** A preRequest that tries the network and swallows the refusal: still SEC100, for it alone. */
const TRIES = {
  id: 'tries',
  source: `() => ({ getThing: { preRequest: async ({ struct }) => { try { await fetch('https://api.tries.test/'); } catch {} return { struct }; } } })`,
  routes: ['getThing'],
  libraries: [],
  sharedLists: {},
} satisfies UnitSpec;

/** The core's side of a request that never gets an answer: it ends only when the call does. */
const NEVER: Bridge = (_request, callEnded) =>
  new Promise((answer) => callEnded.addEventListener('abort', () => answer({ ok: false, message: 'aborted' })));

let sandbox: SandboxHost;
const replaced: string[] = [];

beforeAll(async () => {
  sandbox = new SandboxHost({
    size: 1,
    deadlineMs: DEADLINE_MS,
    bridgeAllowanceMs: ALLOWANCE_MS,
    onEvent: (event) => event.kind === 'worker-replaced' && replaced.push(event.reason),
  });
  for (const spec of [WAITS, BUSY, TRIES]) expect((await sandbox.load(spec)).ok).toBe(true);
});
afterAll(() => sandbox?.close());

describe('a parked call', () => {
  it('and a call beside it that tries the network: that one fails (SEC100), the parked one does not', async () => {
    const later: Bridge = () =>
      new Promise((answer) =>
        setTimeout(() => answer({ ok: true, status: 200, url: 'https://api.waits.test/', headers: {}, body: '' }), 300),
      );
    const waiting = sandbox.runHook('waits', 'getThing', 'executeRequest', hookInput('preRequest'), later);
    const trying = sandbox.runHook('tries', 'getThing', 'preRequest', hookInput('preRequest'));
    expect(await trying).toMatchObject({ ok: false, failure: { code: 'SEC100' } });
    expect(await waiting).toEqual({ ok: true, value: { response: 200 } });
  });

  it('whose whole bound passes while another call runs fails alone; the other call and the process live on', async () => {
    const pid = sandbox.pids()[0];
    const waiting = sandbox.runHook('waits', 'getThing', 'executeRequest', hookInput('preRequest'), NEVER);
    // The waiting call has the process to itself for a second, then the busy call arrives and it is parked.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const busy = sandbox.runHook('busy', 'getThing', 'executeRequest', hookInput('preRequest'), NEVER);
    expect(await waiting).toEqual({
      ok: false,
      failure: {
        code: 'SEC105',
        message: `the handler and its requests did not finish within ${DEADLINE_MS + ALLOWANCE_MS} ms`,
      },
    });
    expect(await busy).toEqual({ ok: true, value: { response: 'busy' } });
    expect(replaced).toEqual([]);
    expect(sandbox.pids()[0]).toBe(pid);
  });
});
