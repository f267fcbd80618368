// Promise 7 on a loaded machine: a calm schema's call waits behind a hostile loop that misses its
// deadline; the process is replaced, and the replacement takes long to start. That start is the
// machine's load, not the calm call's doing: its start bound stands still until the new process is
// ready, and it runs there (job-queue.ts, `pause`). Found as a flaky test/call/bridge-starvation.test.ts:
// under CPU pressure the calm call failed with "could not start within 4000 ms: the sandbox process
// was restarting". Here the replacement's slow start is made certain, not hoped for: it is stopped
// (SIGSTOP) before it can say it is ready, for longer than the calm call's start bound, then let go.
//
// Real parts: the real sandbox, one process, real signals.

import { afterEach, describe, expect, it } from 'vitest';
import { SandboxHost } from '../../src/sandbox/host.js';
import { START_ALLOWANCE_MS } from '../../src/sandbox/sandbox-options.js';
import type { Outcome } from '../../src/sandbox/protocol.js';
import { delay, hookInput, hookUnit, STRUCT } from './helpers.js';

const DEADLINE_MS = 300;
/** How long a calm call queued behind the loop may wait for a process to start it. */
const START_BOUND_MS = DEADLINE_MS + START_ALLOWANCE_MS;

const SPIN = hookUnit('spin', 'preRequest', `async () => { for (;;) {} }`);
const CALM = hookUnit('calm', 'preRequest', `async ({ struct }) => ({ struct: { ...struct, calm: true } })`);

let sandbox: SandboxHost | undefined;
afterEach(() => sandbox?.close());

describe('a call waiting behind a loop, while the replaced process starts slowly', () => {
  it('runs on the replacement once it is ready, however long its start took; the loop fails alone (SEC105)', async () => {
    /** The replacement, stopped as soon as it exists (before it can say it is ready). */
    let stopped: number | undefined;
    sandbox = new SandboxHost({
      size: 1,
      deadlineMs: DEADLINE_MS,
      onEvent: (event) => {
        if (event.kind !== 'worker-replaced') return;
        // The host starts the replacement right after telling: it exists once this turn is over.
        process.nextTick(() => {
          stopped = sandbox?.pids()[0];
          if (stopped !== undefined) process.kill(stopped, 'SIGSTOP');
        });
      },
    });
    for (const unit of [SPIN, CALM]) expect((await sandbox.load(unit)).ok).toBe(true);

    const spin = sandbox.runHook('spin', 'getThing', 'preRequest', hookInput('preRequest'));
    let calmOutcome: Outcome<unknown> | null = null;
    const calm = sandbox.runHook('calm', 'getThing', 'preRequest', hookInput('preRequest'));
    void calm.then((outcome) => (calmOutcome = outcome));

    expect(await spin).toMatchObject({ ok: false, failure: { code: 'SEC105' } });
    expect(stopped).toBeTypeOf('number');
    // Held past the whole start bound the calm call was queued with: before the fix, it failed
    // here ("could not start within 2300 ms: the sandbox process was restarting").
    await delay(START_BOUND_MS + 500);
    expect(calmOutcome).toBeNull();
    process.kill(stopped as number, 'SIGCONT');

    expect(await calm).toEqual({ ok: true, value: { struct: { ...STRUCT, calm: true } } });
    expect(sandbox.pids()).toEqual([stopped]);
  });
});
