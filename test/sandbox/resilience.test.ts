// The sandbox never wedges or takes the host down (issue 13, points 5 and 6): a handler that
// returns but leaves work running fails alone and the next schema's call succeeds; input and
// results nested too deep fail their own call; worker processes killed from outside, their
// replacements before they are ready included, leave every queued call settled within a bound,
// restarts back off, each death is one line on stderr, and the sandbox serves again.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog, runSchemaHook } from '../../src/runtime/catalog.js';
import type { SandboxEvent } from '../../src/sandbox/events.js';
import { SandboxHost, type Outcome } from '../../src/sandbox/host.js';
import type { UnitSpec } from '../../src/sandbox/protocol.js';
import { delay, FLOWGUARD_DIR, hookInput, LIMITS, render, STRUCT, thingUnit } from './helpers.js';

/** An endless microtask loop that holds no memory (each step is garbage once it has run). */
const SPIN = 'const spin = () => { Promise.resolve().then(spin); }; spin();';
/** The form: each promise resolves to the next, so the chain also grows until the heap is full. */
const SPIN_GROWING = 'const spin = () => Promise.resolve().then(spin); spin();';

const unit = thingUnit;

/** Returns in time, but leaves an endless promise chain running in its worker process. */
const LEAVES_WORK = unit(
  'leaves-work',
  `() => ({ getThing: {
    preRequest: async ({ struct }) => { ${SPIN} return { struct }; },
    postRequest: async ({ response }) => { ${SPIN} return { response }; },
  } })`,
);
const LEAVES_GROWING_WORK = unit(
  'leaves-growing-work',
  `() => ({ getThing: { postRequest: async ({ response }) => { ${SPIN_GROWING} return { response }; } } })`,
);
/** Leaves a promise chain running that ends after a while: nothing to fail. */
const LEAVES_FINITE_WORK = unit(
  'leaves-finite-work',
  `() => ({ getThing: {
    postRequest: async ({ response }) => { let left = 10000; const step = () => { if ((left -= 1) > 0) Promise.resolve().then(step); }; step(); return { response }; },
  } })`,
);
const FACTORY_LEAVES_WORK = unit(
  'factory-leaves-work',
  `() => { ${SPIN} return { getThing: { preRequest: ({ struct }) => ({ struct }) } }; }`,
);
const BENIGN = unit(
  'benign',
  `() => ({ getThing: {
    preRequest: ({ struct }) => ({ struct: { ...struct, benign: true } }),
    postRequest: ({ response }) => ({ response: { benign: true } }),
  } })`,
);
/** Busy for a tenth of a second per call, well within the deadline. */
const SLOW = unit(
  'slow',
  `() => ({ getThing: { preRequest: ({ struct }) => { const end = Date.now() + 100; while (Date.now() < end); return { struct: { ...struct, slow: true } }; } } })`,
);
/** A result nested deeper than JSON.stringify can go in the worker; one the worker can write but the host's reviver cannot read. */
const DEEP_RESULTS = unit(
  'deep-results',
  `() => ({ getThing: {
    preRequest: ({ struct }) => { let value = { leaf: true }; for (let i = 0; i < 100000; i += 1) value = { next: value }; return { struct: { ...struct, value } }; },
    postRequest: ({ response }) => { let value = { ['__proto__']: 1 }; for (let i = 0; i < 3500; i += 1) value = { next: value }; return { response: value }; },
  } })`,
);

const BENIGN_PRE = { ok: true, value: { struct: { ...STRUCT, benign: true } } };
const BENIGN_POST = { ok: true, value: { response: { benign: true } } };

function nested(depth: number): unknown {
  let value: unknown = { leaf: true };
  for (let i = 0; i < depth; i += 1) value = { a: value };
  return value;
}

function codeOf(outcome: Outcome<unknown>): string {
  return outcome.ok ? 'ok' : outcome.failure.code;
}

async function loaded(sandbox: SandboxHost, ...units: UnitSpec[]): Promise<void> {
  for (const spec of units) {
    const outcome = await sandbox.load(spec);
    expect(outcome.ok, render(outcome)).toBe(true);
  }
}

/** Resolves with the promises' values, or rejects once `ms` have passed: a hang fails the test instead of stalling it. */
async function settledWithin<T>(promises: Array<Promise<T>>, ms: number): Promise<T[]> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`calls still pending after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([Promise.all(promises), hung]);
  } finally {
    clearTimeout(timer);
  }
}

/** The pid of the worker process started after `old`, as soon as it exists. */
async function nextPid(sandbox: SandboxHost, old: number | undefined): Promise<number> {
  for (let waited = 0; waited < 10_000; waited += 2) {
    const pid = sandbox.pids()[0];
    if (pid !== undefined && pid !== old) return pid;
    await delay(2);
  }
  throw new Error(`no worker process replaced ${old}`);
}

describe('a handler cannot starve other schemas', () => {
  let sandbox: SandboxHost;
  const events: SandboxEvent[] = [];
  beforeAll(() => {
    sandbox = new SandboxHost({ ...LIMITS, onEvent: (event) => events.push(event) });
  });
  afterAll(() => sandbox.close());

  for (const hook of ['preRequest', 'postRequest'] as const) {
    it(`a ${hook} that returns but leaves an endless promise chain fails alone; the next schema's call succeeds`, async () => {
      await loaded(sandbox, LEAVES_WORK, BENIGN);
      const replacedBefore = events.filter((event) => event.kind === 'worker-replaced').length;
      const offending = await sandbox.runHook(LEAVES_WORK.id, 'getThing', hook, hookInput(hook));
      expect(offending.ok, render(offending)).toBe(false);
      if (!offending.ok) {
        expect(offending.failure.code).toBe('SEC105');
        expect(offending.failure.message).toMatch(/^the handler returned but left work running after it returned/);
      }
      expect(await sandbox.runHook(BENIGN.id, 'getThing', hook, hookInput(hook))).toEqual(
        hook === 'preRequest' ? BENIGN_PRE : BENIGN_POST,
      );
      const replaced = events.filter((event) => event.kind === 'worker-replaced');
      expect(replaced.length).toBe(replacedBefore + 1);
      expect(render(replaced.at(-1))).toContain('left work running');
    });
  }

  it("a postRequest that leaves a growing endless promise chain fails alone (deadline or memory); the next schema's call succeeds", async () => {
    await loaded(sandbox, LEAVES_GROWING_WORK);
    const offending = await sandbox.runHook(
      LEAVES_GROWING_WORK.id,
      'getThing',
      'postRequest',
      hookInput('postRequest'),
    );
    expect(['SEC105', 'SEC106'], render(offending)).toContain(codeOf(offending));
    expect(await sandbox.runHook(BENIGN.id, 'getThing', 'postRequest', hookInput('postRequest'))).toEqual(BENIGN_POST);
  });

  it('a handlers factory that leaves an endless promise chain fails its load alone; the next load and call succeed', async () => {
    const outcome = await sandbox.load(FACTORY_LEAVES_WORK);
    expect(outcome.ok ? null : outcome.failure).toMatchObject({
      code: 'SEC105',
      message: expect.stringMatching(/^the handlers factory returned but left work running/),
    });
    const after = unit('benign-after-factory', BENIGN.source);
    await loaded(sandbox, after);
    expect(await sandbox.runHook(after.id, 'getThing', 'preRequest', hookInput('preRequest'))).toEqual(BENIGN_PRE);
  });

  it('a promise chain that ends after the handler returned is no failure', async () => {
    await loaded(sandbox, LEAVES_FINITE_WORK);
    const replacedBefore = events.length;
    expect(await sandbox.runHook(LEAVES_FINITE_WORK.id, 'getThing', 'postRequest', hookInput('postRequest'))).toEqual({
      ok: true,
      value: { response: hookInput('postRequest').response },
    });
    expect(await sandbox.runHook(BENIGN.id, 'getThing', 'postRequest', hookInput('postRequest'))).toEqual(BENIGN_POST);
    expect(events.length).toBe(replacedBefore);
  });
});

describe('nothing sent from outside crashes the host', () => {
  let sandbox: SandboxHost;
  beforeAll(async () => {
    sandbox = new SandboxHost(LIMITS);
    await loaded(sandbox, BENIGN, DEEP_RESULTS);
  });
  afterAll(() => sandbox.close());

  it('an input nested 5,000 deep (about 30 kB as JSON) fails its own call with a clear message; the sandbox serves on', async () => {
    const input = { struct: { ...STRUCT }, payload: { deep: nested(5000) } };
    const outcome = await sandbox.runHook(BENIGN.id, 'getThing', 'preRequest', input);
    expect(outcome.ok ? null : outcome.failure).toEqual({
      code: 'SEC107',
      message: 'could not send the handler its input (nested too deep)',
    });
    expect(await sandbox.runHook(BENIGN.id, 'getThing', 'preRequest', hookInput('preRequest'))).toEqual(BENIGN_PRE);
  });

  it('deep inputs sent at once: each fails alone and the calls queued among them succeed', async () => {
    const calls = Array.from({ length: 6 }, (_, i) =>
      sandbox.runHook(
        BENIGN.id,
        'getThing',
        'preRequest',
        i % 2 === 0 ? { struct: { ...STRUCT }, payload: nested(5000) } : hookInput('preRequest'),
      ),
    );
    const outcomes = await settledWithin(calls, 10_000);
    expect(outcomes.map(codeOf)).toEqual(['SEC107', 'ok', 'SEC107', 'ok', 'SEC107', 'ok']);
  });

  it('a result nested too deep to serialise in the worker fails its own call', async () => {
    const outcome = await sandbox.runHook(DEEP_RESULTS.id, 'getThing', 'preRequest', hookInput('preRequest'));
    expect(outcome.ok ? null : outcome.failure).toMatchObject({
      code: 'SEC101',
      message: expect.stringContaining('preRequest returned something that is not JSON data'),
    });
    expect(await sandbox.runHook(BENIGN.id, 'getThing', 'preRequest', hookInput('preRequest'))).toEqual(BENIGN_PRE);
  });

  it('a result too deep for the host to read fails its own call instead of throwing', async () => {
    const outcome = await sandbox.runHook(DEEP_RESULTS.id, 'getThing', 'postRequest', hookInput('postRequest'));
    expect(outcome.ok ? null : outcome.failure).toEqual({
      code: 'SEC101',
      message: "the handler's result could not be read (nested too deep)",
    });
    expect(await sandbox.runHook(BENIGN.id, 'getThing', 'postRequest', hookInput('postRequest'))).toEqual(BENIGN_POST);
  });

  it('a fault on the host side of a job (a malformed unit) fails that job, not the host; the jobs around it run', async () => {
    const malformed = { ...unit('malformed', BENIGN.source), libraries: null } as unknown as UnitSpec;
    // A factory that takes a moment keeps the process busy while the other loads queue up and are sent together.
    const slowFactory = unit(
      'slow-factory',
      `() => { const end = Date.now() + 100; while (Date.now() < end); return (${BENIGN.source})(); }`,
    );
    const loads = [
      slowFactory,
      unit('before-malformed', BENIGN.source),
      malformed,
      unit('after-malformed', BENIGN.source),
    ].map((spec) => sandbox.load(spec));
    const outcomes = await settledWithin(loads, 10_000);
    expect(outcomes.map(codeOf)).toEqual(['ok', 'ok', 'SEC107', 'ok']);
    const broken = outcomes[2] as Outcome<unknown>;
    expect(broken.ok ? null : broken.failure.message).toMatch(/^the sandbox could not run the handlers factory: /);
    expect(await sandbox.runHook('after-malformed', 'getThing', 'preRequest', hookInput('preRequest'))).toEqual(
      BENIGN_PRE,
    );
  });

  it('a listener of sandbox events that throws changes nothing: the event goes to stderr instead', async () => {
    const own = new SandboxHost({
      ...LIMITS,
      onEvent: () => {
        throw new Error('a broken logging layer');
      },
    });
    try {
      await loaded(own, BENIGN);
      const pid = own.pids()[0] as number;
      process.kill(pid, 'SIGKILL');
      await nextPid(own, pid);
      expect(await own.runHook(BENIGN.id, 'getThing', 'preRequest', hookInput('preRequest'))).toEqual(BENIGN_PRE);
    } finally {
      await own.close();
    }
  });

  it('through a catalog: a preRequest route given an input nested 5,000 deep', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowguard-deep-'));
    const file = join(dir, 'deep.mjs');
    writeFileSync(
      file,
      `export const main = {
  namespace: 'deep', name: 'Deep', description: 'A schema with a preRequest.', version: '2.0.0', root: 'https://api.example.com', requiredLibraries: [],
  routes: { getThing: { method: 'GET', path: '/things', description: 'Lists things.', parameters: [], output: { mimeType: 'application/json', schema: { type: 'object' } }, tests: [{ _description: 'all things' }] } },
};
export const handlers = ({ sharedLists, libraries }) => ({ getThing: { preRequest: async ({ struct, payload }) => ({ struct: { ...struct, seen: typeof payload } }) } });
`,
    );
    const catalog = await Catalog.load({ schemas: dir, project: FLOWGUARD_DIR, sandbox: LIMITS });
    try {
      const deep = await runSchemaHook(catalog, file, 'getThing', 'preRequest', {
        struct: { ...STRUCT },
        payload: nested(5000),
      });
      expect(deep.ok ? null : deep.failure).toEqual({
        code: 'SEC107',
        message: 'could not send the handler its input (nested too deep)',
      });
      expect(await runSchemaHook(catalog, file, 'getThing', 'preRequest', hookInput('preRequest'))).toEqual({
        ok: true,
        value: { struct: { ...STRUCT, seen: 'object' } },
      });
    } finally {
      await catalog.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('killing worker processes never wedges the sandbox', () => {
  it('kill -9 of the worker, then of each replacement before it is ready: every queued call settles, restarts back off, later calls succeed', async () => {
    const events: SandboxEvent[] = [];
    const sandbox = new SandboxHost({
      size: 1,
      deadlineMs: 1000,
      memoryMb: 64,
      onEvent: (event) => events.push(event),
    });
    try {
      await loaded(sandbox, SLOW, BENIGN);
      const first = sandbox.pids()[0] as number;
      // Slow calls queued, the benign schema's calls among them.
      const calls = Array.from({ length: 8 }, (_, i) =>
        i % 4 === 3
          ? sandbox.runHook(BENIGN.id, 'getThing', 'preRequest', hookInput('preRequest'))
          : sandbox.runHook(SLOW.id, 'getThing', 'preRequest', hookInput('preRequest')),
      );
      await delay(50);
      process.kill(first, 'SIGKILL');
      const second = await nextPid(sandbox, first);
      process.kill(second, 'SIGKILL');
      const third = await nextPid(sandbox, second);
      process.kill(third, 'SIGKILL');
      // Each call waits at most its deadline plus a process start for its turn, then runs within its deadline.
      const outcomes = await settledWithin(calls, 10_000);
      for (const outcome of outcomes) expect(['ok', 'SEC105', 'SEC107'], render(outcome)).toContain(codeOf(outcome));
      // The call running in the first process failed with it.
      expect(outcomes[0]).toEqual({
        ok: false,
        failure: { code: 'SEC107', message: 'the sandbox process stopped (SIGKILL)' },
      });

      expect(events.slice(0, 3)).toEqual([
        { kind: 'worker-stopped', pid: first, cause: 'SIGKILL', beforeReady: false, restartInMs: 0 },
        { kind: 'worker-stopped', pid: second, cause: 'SIGKILL', beforeReady: true, restartInMs: 50 },
        { kind: 'worker-stopped', pid: third, cause: 'SIGKILL', beforeReady: true, restartInMs: 100 },
      ]);
      expect(await sandbox.runHook(SLOW.id, 'getThing', 'preRequest', hookInput('preRequest'))).toEqual({
        ok: true,
        value: { struct: { ...STRUCT, slow: true } },
      });
      expect(await sandbox.runHook(BENIGN.id, 'getThing', 'preRequest', hookInput('preRequest'))).toEqual(BENIGN_PRE);

      // A process that was ready resets the backoff: the next death restarts at once.
      const fourth = sandbox.pids()[0] as number;
      process.kill(fourth, 'SIGKILL');
      await nextPid(sandbox, fourth);
      expect(events.at(-1)).toEqual({
        kind: 'worker-stopped',
        pid: fourth,
        cause: 'SIGKILL',
        beforeReady: false,
        restartInMs: 0,
      });
      expect(await sandbox.runHook(BENIGN.id, 'getThing', 'preRequest', hookInput('preRequest'))).toEqual(BENIGN_PRE);
    } finally {
      await sandbox.close();
    }
  });

  it('a sandbox that keeps dying before it is ready fails waiting calls saying it is restarting, and serves once a process starts', async () => {
    const events: SandboxEvent[] = [];
    const deadlineMs = 300;
    const sandbox = new SandboxHost({ size: 1, deadlineMs, memoryMb: 64, onEvent: (event) => events.push(event) });
    try {
      await loaded(sandbox, BENIGN);
      let pid = sandbox.pids()[0] as number;
      process.kill(pid, 'SIGKILL');
      pid = await nextPid(sandbox, pid);
      process.kill(pid, 'SIGKILL');
      const waiting = sandbox.runHook(BENIGN.id, 'getThing', 'preRequest', hookInput('preRequest'));
      let settled: Outcome<unknown> | null = null;
      void waiting.then((outcome) => (settled = outcome));
      // Every new process is killed as soon as it exists, until the waiting call has given up (bounded).
      for (let kills = 0; kills < 12; kills += 1) {
        pid = await nextPid(sandbox, pid);
        if (settled !== null) break;
        process.kill(pid, 'SIGKILL');
      }
      expect(await settledWithin([waiting], 10_000)).toEqual([
        {
          ok: false,
          failure: {
            code: 'SEC107',
            message: `the handler could not start within ${deadlineMs + 2000} ms: the sandbox process was restarting`,
          },
        },
      ]);
      const delays = events.map((event) => (event.kind === 'worker-stopped' ? event.restartInMs : null));
      expect(delays.slice(0, 6)).toEqual([0, 50, 100, 200, 400, 800]);
      // Left alone, the next process starts and serves.
      expect(
        await settledWithin([sandbox.runHook(BENIGN.id, 'getThing', 'preRequest', hookInput('preRequest'))], 10_000),
      ).toEqual([BENIGN_PRE]);
    } finally {
      await sandbox.close();
    }
  });

  it('by default each worker death is one line on stderr, and nothing reaches stdout', () => {
    // A host process of its own, so that its real stdout and stderr are what is checked.
    const script = `
      import { SandboxHost } from ${JSON.stringify(join(FLOWGUARD_DIR, 'dist/src/sandbox/host.js'))};
      const sandbox = new SandboxHost({ size: 1, deadlineMs: 1000 });
      const unit = { id: 'u', source: ${JSON.stringify(BENIGN.source)}, routes: ['getThing'], libraries: [], sharedLists: {} };
      await sandbox.load(unit);
      const first = sandbox.pids()[0];
      process.kill(first, 'SIGKILL');
      while (sandbox.pids()[0] === first) await new Promise((done) => setTimeout(done, 5));
      process.kill(sandbox.pids()[0], 'SIGKILL');
      const outcome = await sandbox.runHook('u', 'getThing', 'preRequest', { struct: {}, payload: {} });
      await sandbox.close();
      process.exitCode = outcome.ok ? 0 : 3;
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('');
    const lines = run.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^flowguard: sandbox process \d+ stopped \(SIGKILL\); starting another$/);
    expect(lines[1]).toMatch(
      /^flowguard: sandbox process \d+ stopped \(SIGKILL\) before it was ready; starting another in 50 ms$/,
    );
  });
});
