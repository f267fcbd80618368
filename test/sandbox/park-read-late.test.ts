// Promise 7 on a loaded machine: a call asked to park counts its deadline until the worker says it
// has parked, and the worker's word is judged by when the worker said it, not by when the host read
// it. Found as a flaky test/call/bridge-starvation.test.ts under CPU pressure: the host, busy with
// another schema's flood of messages, read the calm call's "parked" after its deadline had fired,
// and the calm call failed (SEC105) and its process was replaced for time that was not its own.
// Here the host's slowness is made certain, not hoped for: right after it asks the worker to park
// the call, the host blocks its own event loop for longer than the deadline, so the deadline's
// timer comes due before the host can read the "parked" that the worker sent at once.
//
// Real parts: the real sandbox, one process; only the host is held up, by blocking its thread.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { SandboxHost } from '../../src/sandbox/host.js';
import type { Bridge, BridgeAnswer, UnitSpec } from '../../src/sandbox/protocol.js';
import { WorkerProcess } from '../../src/sandbox/worker-process.js';
import { hookInput, hookUnit } from './helpers.js';

const DEADLINE_MS = 300;

const WAITS = (id: string) =>
  hookUnit(id, 'executeRequest', `async () => ({ response: (await fetch('https://api.${id}.test/')).status })`);
/** Computes beside its request in flight, for ever: it never parks. */
const SPINS = hookUnit(
  'spins',
  'executeRequest',
  `async () => { fetch('https://api.spins.test/').catch(() => undefined); for (let turn = 0; turn < 10; turn += 1) await null; for (;;) {} }`,
);
const OK: BridgeAnswer = { ok: true, status: 200, url: 'https://api.test/', headers: {}, body: '' };

/** Holds the host's thread, as a flood of another schema's messages does on a loaded machine. */
function blockHost(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

let sandbox: SandboxHost | undefined;
const replaced: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  replaced.length = 0;
  return sandbox?.close();
});

/** Starts a sandbox with `units`, and a call of unit `id`, whose request stays in flight until the test answers it. */
async function startWithHeldCall(units: UnitSpec[], id: string) {
  const host = new SandboxHost({
    size: 1,
    deadlineMs: DEADLINE_MS,
    onEvent: (event) => event.kind === 'worker-replaced' && replaced.push(event.reason),
  });
  sandbox = host;
  for (const unit of units) expect((await host.load(unit)).ok).toBe(true);
  const pid = host.pids()[0];
  let answer: (answer: BridgeAnswer) => void = () => undefined;
  let asked: () => void = () => undefined;
  const firstAsked = new Promise<void>((resolve) => (asked = resolve));
  const held: Bridge = () => {
    asked();
    return new Promise((settle) => (answer = settle));
  };
  const first = host.runHook(id, 'getThing', 'executeRequest', hookInput('preRequest'), held);
  await firstAsked;
  return { host, pid, first, answer: (given: BridgeAnswer) => answer(given) };
}

/**
 * Once the host has asked the worker to park a call (another wants the process), the host's thread
 * is held, after the send, for longer than the deadline that now counts. Returns how many parks were sent.
 */
function blockHostAfterPark(): { parks: number } {
  const send = WorkerProcess.prototype.send;
  const seen = { parks: 0 };
  vi.spyOn(WorkerProcess.prototype, 'send').mockImplementation(function (this: WorkerProcess, message) {
    send.call(this, message);
    if ('kind' in message && message.kind === 'park') {
      seen.parks += 1;
      setImmediate(() => blockHost(DEADLINE_MS * 3));
    }
  });
  return seen;
}

describe('a call asked to park while the host is too busy to read the answer', () => {
  it('parks in time by the worker’s word: neither call fails, the process is not replaced', async () => {
    const {
      host,
      pid,
      first,
      answer: answerFirst,
    } = await startWithHeldCall([WAITS('first'), WAITS('second')], 'first');
    const seen = blockHostAfterPark();
    const second = host.runHook('second', 'getThing', 'executeRequest', hookInput('preRequest'), async () => OK);

    expect(await second).toEqual({ ok: true, value: { response: 200 } });
    expect(seen.parks).toBe(1);
    answerFirst(OK);
    // Before the fix: the first call failed (SEC105, "did not finish within 300 ms") and its
    // process was replaced, for time the host took, not the handler.
    expect(await first).toEqual({ ok: true, value: { response: 200 } });
    expect(replaced).toEqual([]);
    expect(host.pids()).toEqual([pid]);
  });

  it('that computes beside its request, and never parks, still misses its deadline (SEC105): the next call runs on the replacement', async () => {
    const { host, pid, first: spins } = await startWithHeldCall([SPINS, WAITS('second')], 'spins');
    const seen = blockHostAfterPark();
    const second = host.runHook('second', 'getThing', 'executeRequest', hookInput('preRequest'), async () => OK);
    expect(await spins).toEqual({
      ok: false,
      failure: { code: 'SEC105', message: `the handler did not finish within ${DEADLINE_MS} ms` },
    });
    expect(seen.parks).toBe(1);
    expect(await second).toEqual({ ok: true, value: { response: 200 } });
    expect(replaced).toHaveLength(1);
    expect(host.pids()).not.toEqual([pid]);
  });
});
