// Calls sent to a worker process together (issue 29: the worker goes from one call to the next
// without a round trip to the host) keep the guarantees of calls that waited in the host's queue:
// one that waits past its start bound fails and never runs, and when a call ends the process,
// those sent behind it run once each, in order, in the new process. Calls queued while another
// runs go to the worker at once, not once the running call has answered: several while no call is
// parked in the process, one while one is (its answers wait behind them).

import { afterEach, describe, expect, it, vi } from 'vitest';
import { SandboxHost, type Outcome } from '../../src/sandbox/host.js';
import type { Bridge, UnitSpec } from '../../src/sandbox/protocol.js';
import { WorkerProcess } from '../../src/sandbox/worker-process.js';
import { delay, hookInput, hookUnit, render } from './helpers.js';

/** Its calls share a count, `count`. */
const unit = (id: string, preRequest: string) => hookUnit(id, 'preRequest', preRequest, 'let count = 0;');

/** Each call busy for `ms`, then answers how many calls of the unit have run, itself included. */
const busyCounter = (id: string, ms: number) =>
  unit(
    id,
    `({ struct }) => { const end = Date.now() + ${ms}; while (Date.now() < end); count += 1; return { struct: { ...struct, count } }; }`,
  );
const HANGS = unit('hangs', '() => { for (;;); }');

const countOf = (outcome: Outcome<unknown>): unknown =>
  outcome.ok ? (outcome.value as { struct: { count: number } }).struct.count : outcome.failure.code;

let sandbox: SandboxHost | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await sandbox?.close();
});

async function loaded(host: SandboxHost, ...units: UnitSpec[]): Promise<void> {
  for (const spec of units) expect(await host.load(spec), spec.id).toMatchObject({ ok: true });
}

/** What the host sends to its worker processes (`sent <unit> <id>`) and hears back (`answered <id>`), in order. */
function watchWorkers(): string[] {
  const heard: string[] = [];
  const send = WorkerProcess.prototype.send;
  vi.spyOn(WorkerProcess.prototype, 'send').mockImplementation(function (this: WorkerProcess, request) {
    if (request.kind === 'call') heard.push(`sent ${request.unit} ${request.id}`);
    send.call(this, request);
  });
  const start = WorkerProcess.start.bind(WorkerProcess);
  vi.spyOn(WorkerProcess, 'start').mockImplementation((memoryMb, events) =>
    start(memoryMb, {
      ...events,
      message: (worker, message) => {
        if ('id' in message && 'ok' in message) heard.push(`answered ${message.id}`);
        events.message(worker, message);
      },
    }),
  );
  return heard;
}

/** The request ids of `unit`'s calls, in the order they were sent. */
const sentOf = (heard: string[], unit: string): string[] =>
  heard.filter((entry) => entry.startsWith(`sent ${unit} `)).map((entry) => entry.split(' ')[2] as string);

describe('calls sent to a worker process together', () => {
  it('calls queued while another runs, none sent ahead yet, go to the worker before the running one answers', async () => {
    const heard = watchWorkers();
    sandbox = new SandboxHost({ size: 1, deadlineMs: 5000, memoryMb: 64 });
    const slow = busyCounter('slow-first', 500);
    await loaded(sandbox, slow);
    const host = sandbox;
    heard.length = 0;
    const first = host.runHook(slow.id, 'getThing', 'preRequest', hookInput('preRequest'));
    // Queued in the host's next turn after the first call was sent, while it runs 500 ms in the
    // worker: with nothing queued then, nothing was sent ahead of it.
    const behind = await new Promise<Array<Promise<Outcome<unknown>>>>((queued) =>
      setImmediate(() =>
        queued(
          Array.from({ length: 4 }, () => host.runHook(slow.id, 'getThing', 'preRequest', hookInput('preRequest'))),
        ),
      ),
    );
    expect((await Promise.all([first, ...behind])).map(countOf)).toEqual([1, 2, 3, 4, 5]);
    const ids = sentOf(heard, slow.id);
    // On a build that sends a queued call only once the running one has answered, and one at a
    // time: [sent 1, answered 1, sent 2, sent 3, answered 2, ...].
    expect(heard).toEqual([...ids.map((id) => `sent ${slow.id} ${id}`), ...ids.map((id) => `answered ${id}`)]);
  }, 20_000);

  it('while a call is parked, one call at most waits in the worker behind the one running', async () => {
    const heard = watchWorkers();
    sandbox = new SandboxHost({ size: 1, deadlineMs: 5000, memoryMb: 64 });
    const slow = busyCounter('slow-parked', 300);
    const waits = hookUnit(
      'waits',
      'executeRequest',
      `async () => ({ response: (await fetch('https://api.waits.test/')).status })`,
    );
    await loaded(sandbox, slow, waits);
    const host = sandbox;
    let answer: (() => void) | undefined;
    const held: Bridge = () =>
      new Promise((done) => {
        answer = () => done({ ok: true, status: 200, url: 'https://api.waits.test/', headers: {}, body: '' });
      });
    const waiting = host.runHook(waits.id, 'getThing', 'executeRequest', hookInput('preRequest'), held);
    for (let tries = 0; answer === undefined && tries < 1000; tries += 1) await delay(5);
    // The call waits on the core's request: the calls queued now park it and run beside it.
    const calls = Array.from({ length: 4 }, () =>
      host.runHook(slow.id, 'getThing', 'preRequest', hookInput('preRequest')),
    );
    expect(countOf(await (calls[0] as Promise<Outcome<unknown>>))).toBe(1);
    answer?.();
    expect(await waiting).toEqual({ ok: true, value: { response: 200 } });
    expect((await Promise.all(calls)).map(countOf)).toEqual([1, 2, 3, 4]);
    const firstAnswered = heard.indexOf(`answered ${sentOf(heard, slow.id)[0]}`);
    // The running call and one behind it; with no call parked, all four would have been sent.
    expect(sentOf(heard.slice(0, firstAnswered), slow.id)).toHaveLength(2);
  }, 20_000);

  it('a call that waits past its start bound behind slow calls fails (SEC105) and never runs', async () => {
    // Start bound: deadline + 2000 ms = 3500 ms. Calls of 1000 ms each run back to back: the
    // fifth cannot start before 4000 ms, and at 3500 ms one call runs and the next waits in the
    // worker's inbox (sent ahead when that one started), past its bound.
    const deadlineMs = 1500;
    sandbox = new SandboxHost({ size: 1, deadlineMs, memoryMb: 64 });
    const slow = busyCounter('slow', 1000);
    await loaded(sandbox, slow);
    const host = sandbox;
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () => host.runHook(slow.id, 'getThing', 'preRequest', hookInput('preRequest'))),
    );
    const ran = outcomes.filter((outcome) => outcome.ok).length;
    expect(ran, render(outcomes)).toBeLessThanOrEqual(4);
    expect(outcomes.map(countOf)).toEqual([
      ...Array.from({ length: ran }, (_, index) => index + 1),
      ...Array.from({ length: 6 - ran }, () => 'SEC105'),
    ]);
    for (const late of outcomes.slice(ran)) {
      expect(late).toEqual({
        ok: false,
        failure: {
          code: 'SEC105',
          message: `the handler could not start within ${deadlineMs + 2000} ms: the sandbox process was busy with the calls before it`,
        },
      });
    }
    // Those that failed never ran, the one sent ahead included: the next call is the next the unit runs.
    expect(countOf(await host.runHook(slow.id, 'getThing', 'preRequest', hookInput('preRequest')))).toBe(ran + 1);
  }, 20_000);

  it('behind a call that misses its deadline, the calls sent with it run once each, in order, in the new process', async () => {
    sandbox = new SandboxHost({ size: 1, deadlineMs: 500, memoryMb: 64 });
    const counter = busyCounter('counter', 0);
    await loaded(sandbox, HANGS, counter);
    const host = sandbox;
    const hang = host.runHook(HANGS.id, 'getThing', 'preRequest', hookInput('preRequest'));
    const behind = Array.from({ length: 5 }, () =>
      host.runHook(counter.id, 'getThing', 'preRequest', hookInput('preRequest')),
    );
    expect(await hang).toMatchObject({ ok: false, failure: { code: 'SEC105' } });
    // A new process loaded the unit again: its count starts over, and no call ran twice.
    expect((await Promise.all(behind)).map(countOf)).toEqual([1, 2, 3, 4, 5]);
  }, 20_000);
});
