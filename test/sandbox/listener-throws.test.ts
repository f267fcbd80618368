// Promise 7 (and 8: a fault in one call fails that call only), attacked by handler code that
// throws where no caller can catch it: a listener of an AbortSignal it aborts (Node reports the
// error on a later tick, as an uncaught exception). It must not end the worker process that
// serves every schema's calls: another schema's unit stays loaded and its calls keep the same
// process, however often the hostile call is made, and a call of another schema waiting on the
// core's request meanwhile is answered. And by a thrown value that cannot be read at all (a
// Proxy whose every trap throws): its own call fails at once, saying so; no deadline is waited.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxHost } from '../../src/sandbox/host.js';
import type { SandboxEvent } from '../../src/sandbox/events.js';
import type { Bridge, UnitSpec } from '../../src/sandbox/protocol.js';
import { hookInput, hookUnit, render } from './helpers.js';

const unit = (id: string, postRequest: string) => hookUnit(id, 'postRequest', postRequest);

const THROWERS = [
  unit(
    'listener-throws',
    `({ response }) => { const c = new AbortController(); c.signal.addEventListener('abort', () => { throw new Error('boom'); }); c.abort(); return { response }; }`,
  ),
  unit(
    'onabort-throws',
    `({ response }) => { const c = new AbortController(); c.signal.onabort = () => { throw new Error('boom'); }; c.abort(); return { response }; }`,
  ),
];
/** Throws a value that cannot even be asked what it is: every trap of the Proxy throws. */
const UNREADABLE = unit(
  'unreadable-throw',
  `({ response }) => { const trap = () => { throw new Error('trap'); }; throw new Proxy({}, { getPrototypeOf: trap, get: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap }); }`,
);
const BENIGN = unit('benign', `({ response }) => ({ response: { benign: true } })`);
/** Another schema's executeRequest call, waiting on the core's request (parked) while the throwers run. */
const WAITS: UnitSpec = {
  id: 'waits',
  source: `() => ({ getThing: { executeRequest: async () => ({ response: (await fetch('https://api.waits.test/')).status }) } })`,
  routes: ['getThing'],
  libraries: [],
  sharedLists: {},
};

describe('handler code that throws where no one catches it', () => {
  let sandbox: SandboxHost;
  const events: SandboxEvent[] = [];
  beforeAll(async () => {
    sandbox = new SandboxHost({ size: 1, deadlineMs: 2000, memoryMb: 128, onEvent: (event) => events.push(event) });
    for (const spec of [...THROWERS, UNREADABLE, BENIGN, WAITS]) {
      const loaded = await sandbox.load(spec);
      expect(loaded.ok, render(loaded)).toBe(true);
    }
  });
  afterAll(() => sandbox.close());

  it('ends no worker process: the other schema is served by the same process throughout', async () => {
    const pid = sandbox.pids()[0];
    for (let round = 0; round < 3; round += 1) {
      for (const spec of THROWERS) await sandbox.runHook(spec.id, 'getThing', 'postRequest', hookInput('postRequest'));
      const benign = await sandbox.runHook('benign', 'getThing', 'postRequest', hookInput('postRequest'));
      expect(benign, render(benign)).toEqual({ ok: true, value: { response: { benign: true } } });
    }
    // Let a late report (a later tick) land before looking.
    await sandbox.runHook('benign', 'getThing', 'postRequest', hookInput('postRequest'));
    expect(sandbox.pids()).toEqual([pid]);
    expect(events.filter((event) => event.kind === 'worker-stopped')).toEqual([]);
  });

  it("fails no other schema's call waiting on the core meanwhile", async () => {
    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const bridge: Bridge = () =>
      held.then(() => ({ ok: true, status: 200, url: 'https://api.waits.test/', headers: {}, body: '' }));
    const waiting = sandbox.runHook('waits', 'getThing', 'executeRequest', hookInput('preRequest'), bridge);
    for (const spec of THROWERS) await sandbox.runHook(spec.id, 'getThing', 'postRequest', hookInput('postRequest'));
    answer();
    expect(await waiting).toEqual({ ok: true, value: { response: 200 } });
  });

  it('a thrown value whose every trap throws fails its own call at once (SEC107), and replaces no process', async () => {
    const pid = sandbox.pids()[0];
    const thrown = await sandbox.runHook('unreadable-throw', 'getThing', 'postRequest', hookInput('postRequest'));
    expect(thrown).toEqual({
      ok: false,
      failure: { code: 'SEC107', message: 'the handler threw: an unprintable value' },
    });
    expect(sandbox.pids()).toEqual([pid]);
  });
});
