// One worker process as the host sees it, messages counted (issue 29): a request is answered with
// one message, sent once the worker's event loop has turned after it (it was a reply and then a
// turn marker), and the returned note says whether a request whose answer never came had returned
// (a process without one, where no temporary file can be made, serves all the same).

import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Request, UnitSpec } from '../../src/sandbox/protocol.js';
import { WorkerProcess, type WorkerMessage } from '../../src/sandbox/worker-process.js';
import { delay, FLOWGUARD_DIR, hookInput } from './helpers.js';

const UNIT: UnitSpec = {
  id: 'counted',
  source: `() => ({
    getThing: { preRequest: ({ struct }) => ({ struct }) },
    leavesWork: { preRequest: ({ struct }) => { const spin = () => Promise.resolve().then(spin); spin(); return { struct }; } },
  })`,
  routes: ['getThing', 'leavesWork'],
  libraries: [],
  sharedLists: {},
};

let worker: WorkerProcess | undefined;
afterEach(() => worker?.stop());

/** A worker process that is ready, and every message it sends from then on. */
async function started(): Promise<{ worker: WorkerProcess; messages: WorkerMessage[]; next: () => Promise<void> }> {
  const messages: WorkerMessage[] = [];
  let heard: (() => void) | null = null;
  const ready = new Promise<WorkerProcess>((resolve, reject) => {
    worker = WorkerProcess.start(64, {
      ready: resolve,
      message: (_, message) => {
        messages.push(message);
        heard?.();
      },
      stopped: (_, cause) => reject(new Error(`the worker process stopped: ${cause}`)),
    });
  });
  const next = () => new Promise<void>((resolve) => (heard = resolve));
  return { worker: await ready, messages, next };
}

const call = (id: number, route: string): Request => ({
  kind: 'call',
  id,
  unit: UNIT.id,
  route,
  hook: 'preRequest',
  input: hookInput('preRequest'),
});

describe('a sandbox worker process', () => {
  it('answers each request with one message, once its event loop has turned', async () => {
    const { worker, messages, next } = await started();
    worker.send({ kind: 'load', id: 1, unit: UNIT });
    worker.send(call(2, 'getThing'));
    worker.send(call(3, 'getThing'));
    // The worker answers in order: a second message about request 2 would come before request 3's.
    while (!messages.some((message) => 'id' in message && message.id === 3)) await next();
    expect(messages.map((message) => ('id' in message ? message.id : message))).toEqual([1, 2, 3]);
    expect(messages.slice(1)).toEqual([
      { id: 2, ok: true, json: JSON.stringify({ struct: hookInput('preRequest').struct }) },
      { id: 3, ok: true, json: JSON.stringify({ struct: hookInput('preRequest').struct }) },
    ]);
  });

  it('notes a request that returned, though code it left running holds its answer back', async () => {
    const { worker, messages, next } = await started();
    worker.send({ kind: 'load', id: 1, unit: UNIT });
    await next();
    expect(worker.returned(2)).toBe(false);
    worker.send(call(2, 'leavesWork'));
    for (let waited = 0; !worker.returned(2) && waited < 10_000; waited += 10) await delay(10);
    expect(worker.returned(2)).toBe(true);
    // The load's note too; no note for a request not sent.
    expect([worker.returned(1), worker.returned(3)]).toEqual([true, false]);
    expect(messages.map((message) => ('id' in message ? message.id : message))).toEqual([1]);
  });

  it('serves without a note where no temporary file can be made', async () => {
    const tmpdir = process.env.TMPDIR;
    process.env.TMPDIR = join(FLOWGUARD_DIR, 'no-such-folder', 'tmp');
    try {
      const { worker, messages, next } = await started();
      worker.send({ kind: 'load', id: 1, unit: UNIT });
      worker.send(call(2, 'getThing'));
      while (messages.length < 2) await next();
      expect(messages.map((message) => ('id' in message ? message.id : message))).toEqual([1, 2]);
      expect(worker.returned(2)).toBe(false);
    } finally {
      if (tmpdir === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmpdir;
    }
  });
});
