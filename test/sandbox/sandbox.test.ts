// The adversarial suite of issue 3, second way: the handlers factory of every hostile fixture
// goes straight into a Sandbox, bypassing the static scan, so the isolation layer is tested
// alone. One sandbox serves all cases (size 1: hostile and benign units share a worker); each
// test proves from outside that nothing happened and that the same sandbox serves the twin.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxHost } from '../../src/sandbox/host.js';
import type { Hook, UnitSpec } from '../../src/sandbox/protocol.js';
import { CASES, groupOf, limitsOf, routesOf, type HostileCase } from './cases.js';
import {
  benignResult,
  DEADLINE_MARGIN_MS,
  delay,
  expectBenign,
  expectCall,
  handlersSource,
  hookInput,
  LIBRARY_DEADLINE_MS,
  libraryModules,
  LIMITS,
  render,
  requiredLibraries,
  routeNames,
  SHARED_LISTS,
  World,
  type Caller,
} from './helpers.js';

let world: World;
/** Shared by the quick cases; `library` by the cases that use libraries (longer deadline, imported once). */
let shared: SandboxHost;
let library: SandboxHost;
beforeAll(async () => {
  world = await World.create();
  shared = new SandboxHost(LIMITS);
  library = new SandboxHost({ ...LIMITS, deadlineMs: LIBRARY_DEADLINE_MS });
});
afterAll(async () => {
  await shared?.close();
  await library?.close();
  await world?.close();
});

/** A case's fixture as a sandbox unit, the way the catalog builds one, with a frozen shared list. */
function unitOf(name: string, file: 'hostile.mjs' | 'benign.mjs', id = `${name}/${file}`): UnitSpec {
  const text = world.fixtureText(name, file);
  return {
    id,
    source: handlersSource(text),
    routes: routeNames(text),
    libraries: libraryModules(requiredLibraries(text)),
    sharedLists: structuredClone(SHARED_LISTS),
  };
}

/** Loads the hostile and benign units of a case, runs every attack, and the benign twin after each. */
async function attack(name: string, c: HostileCase, sandbox: SandboxHost, deadlineMs: number): Promise<void> {
  const hook: Hook = c.hook ?? 'preRequest';
  const caller: Caller = { call: (unit, route, h, input) => sandbox.runHook(unit, route, h, input) };
  const outputs: unknown[] = [];
  const hostile = unitOf(name, 'hostile.mjs');
  const started = performance.now();
  const loaded = await sandbox.load(hostile);
  const elapsed = performance.now() - started;
  outputs.push(loaded);
  const benign = unitOf(name, 'benign.mjs');
  const benignLoaded = await sandbox.load(benign);
  outputs.push(benignLoaded);
  expect(benignLoaded.ok, render(benignLoaded)).toBe(true);

  if (c.load) {
    expect(loaded.ok, render(loaded)).toBe(false);
    if (!loaded.ok) {
      expect(c.load).toContain(loaded.failure.code);
      if (loaded.failure.code === 'SEC105') expect(elapsed).toBeLessThan(deadlineMs + DEADLINE_MARGIN_MS);
    }
    // A unit whose factory failed stays failed; it never runs again.
    const again = await sandbox.runHook(hostile.id, routesOf(c)[0] as string, hook, hookInput(hook));
    outputs.push(again);
    expect(again.ok).toBe(false);
    for (const route of routesOf(c)) await expectBenign(caller, benign.id, route, hook, c.benign[route], outputs);
  } else {
    expect(loaded.ok, render(loaded)).toBe(true);
    for (const [route, expected] of Object.entries(c.calls ?? {})) {
      await expectCall(caller, hostile.id, route, hook, expected, outputs, deadlineMs);
      await expectBenign(caller, benign.id, route, hook, c.benign[route], outputs);
    }
  }
  await world.expectUntouched(outputs);
}

describe('hostile factories straight through Sandbox (no scan)', () => {
  // Concurrent: each case's calls queue on its sandbox's worker, and the waits for late effects overlap.
  describe.concurrent('each case', () => {
    for (const [name, c] of Object.entries(CASES)) {
      // Library names are checked before anything reaches a sandbox (the catalog's cases).
      if (c.catalogOnly) continue;
      it(name, async () => {
        const group = groupOf(name, c);
        const limits = limitsOf(name, c);
        const own = group === 'own' ? new SandboxHost(limits) : null;
        try {
          await attack(name, c, own ?? (group === 'library' ? library : shared), limits.deadlineMs);
        } finally {
          await own?.close();
        }
      });
    }
  });

  it('a worker stuck in a catastrophic regex is stopped, not left spinning beside its replacement', async () => {
    const hostile = unitOf('call-hangs', 'hostile.mjs', 'regex-spin/hostile');
    const benign = unitOf('call-hangs', 'benign.mjs', 'regex-spin/benign');
    expect((await shared.load(hostile)).ok).toBe(true);
    expect((await shared.load(benign)).ok).toBe(true);
    const outcome = await shared.runHook(hostile.id, 'catastrophicRegex', 'preRequest', hookInput('preRequest'));
    expect(outcome.ok ? null : outcome.failure.code).toBe('SEC105');
    // The replacement serves (so it has finished starting), then the process goes quiet: a
    // thread still backtracking would burn a whole core through the window.
    expect(await shared.runHook(benign.id, 'busyLoop', 'preRequest', hookInput('preRequest'))).toEqual({
      ok: true,
      value: benignResult('preRequest', 'busyLoop'),
    });
    await delay(100);
    const before = process.cpuUsage();
    const window = performance.now();
    await delay(500);
    const used = process.cpuUsage(before);
    const wall = performance.now() - window;
    expect((used.user + used.system) / 1000).toBeLessThan(wall * 0.5);
  });

  it('loads sent together: each hung factory fails alone, and the loads queued behind it land in the replacement', async () => {
    const own = new SandboxHost(LIMITS);
    try {
      const benign = ['first', 'second', 'third'].map((name) => unitOf('process-bare', 'benign.mjs', `batch/${name}`));
      const units = [
        benign[0],
        unitOf('load-busy-loop', 'hostile.mjs', 'batch/busy'),
        benign[1],
        unitOf('load-regex', 'hostile.mjs', 'batch/regex'),
        benign[2],
      ] as UnitSpec[];
      const loads = await Promise.all(units.map((unit) => own.load(unit)));
      expect(loads.map((outcome) => (outcome.ok ? 'ok' : outcome.failure.code))).toEqual([
        'ok',
        'SEC105',
        'ok',
        'SEC105',
        'ok',
      ]);
      for (const unit of benign as UnitSpec[]) {
        expect(await own.runHook(unit.id, 'getThing', 'preRequest', hookInput('preRequest'))).toEqual({
          ok: true,
          value: benignResult('preRequest', 'object'),
        });
      }
    } finally {
      await own.close();
    }
  });

  it('a unit whose factory hung is reported failed on every later call, and its neighbours reload', async () => {
    const benign = unitOf('process-bare', 'benign.mjs', 'reload/benign');
    expect((await shared.load(benign)).ok).toBe(true);
    const hung = unitOf('load-busy-loop', 'hostile.mjs', 'reload/hung');
    const loaded = await shared.load(hung);
    expect(loaded.ok ? null : loaded.failure.code).toBe('SEC105');
    // The benign unit was loaded on the worker that was replaced: it is loaded again, transparently.
    expect(await shared.runHook(benign.id, 'getThing', 'preRequest', hookInput('preRequest'))).toEqual({
      ok: true,
      value: benignResult('preRequest', 'object'),
    });
    for (let i = 0; i < 2; i += 1) {
      const outcome = await shared.runHook(hung.id, 'getThing', 'preRequest', hookInput('preRequest'));
      expect(outcome.ok ? null : outcome.failure.code).toBe('SEC105');
    }
  });
});
