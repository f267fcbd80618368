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
import type { Bridge, BridgeAnswer } from '../../src/sandbox/protocol.js';
import { WorkerProcess } from '../../src/sandbox/worker-process.js';
import { hookInput, hookUnit } from './helpers.js';

const DEADLINE_MS = 300;

const WAITS = (id: string) =>
  hookUnit(id, 'executeRequest', `async () => ({ response: (await fetch('https://api.${id}.test/')).status })`);
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
  return sandbox?.close();
});

describe('a call asked to park while the host is too busy to read the answer', () => {
  it('parks in time by the worker’s word: neither call fails, the process is not replaced', async () => {
    sandbox = new SandboxHost({
      size: 1,
      deadlineMs: DEADLINE_MS,
      onEvent: (event) => event.kind === 'worker-replaced' && replaced.push(event.reason),
    });
    for (const id of ['first', 'second']) expect((await sandbox.load(WAITS(id))).ok).toBe(true);
    const pid = sandbox.pids()[0];

    // The first call's request stays in flight until the test lets it go.
    let answerFirst: (answer: BridgeAnswer) => void = () => undefined;
    let asked: () => void = () => undefined;
    const firstAsked = new Promise<void>((resolve) => (asked = resolve));
    const held: Bridge = () => {
      asked();
      return new Promise((answer) => (answerFirst = answer));
    };
    const first = sandbox.runHook('first', 'getThing', 'executeRequest', hookInput('preRequest'), held);
    await firstAsked;

    // Once the host has asked the worker to park the first call (the second wants the process), the
    // host's thread is held, after the send, for longer than the deadline that now counts.
    const send = WorkerProcess.prototype.send;
    let parks = 0;
    vi.spyOn(WorkerProcess.prototype, 'send').mockImplementation(function (this: WorkerProcess, message) {
      send.call(this, message);
      if ('kind' in message && message.kind === 'park') {
        parks += 1;
        setImmediate(() => blockHost(DEADLINE_MS * 3));
      }
    });
    const second = sandbox.runHook('second', 'getThing', 'executeRequest', hookInput('preRequest'), async () => OK);

    // Before the fix: the first call failed here (SEC105, "did not finish within 300 ms") and the
    // process was replaced, failing the second call with it.
    expect(await second).toEqual({ ok: true, value: { response: 200 } });
    expect(parks).toBe(1);
    answerFirst(OK);
    expect(await first).toEqual({ ok: true, value: { response: 200 } });
    expect(replaced).toEqual([]);
    expect(sandbox.pids()).toEqual([pid]);
  });
});
