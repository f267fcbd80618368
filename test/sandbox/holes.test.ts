// Attacks that once worked against the sandbox, kept as regression tests of how each was closed:
//
// 1. One allocation bigger than a worker thread's heap limit aborted the whole host process
//    (nodejs/node#47224): handler code now runs in child processes.
// 2. Memory outside the V8 heap (ArrayBuffer backing stores) was not bounded: the worker and the
//    host now watch each process's resident memory.
// 3. Libraries keep state in closures that harden() cannot freeze: one schema changed what another
//    schema's calls computed and observed its private data. ethers and moment are now locked.
// 4. The R7 shape check ran on the live result while the host received what JSON.stringify made
//    of it (a non-enumerable toJSON, a getter): the check now runs on the serialised copy.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog, runSchemaHook } from '../../src/runtime/catalog.js';
import type { Outcome } from '../../src/sandbox/host.js';
import { SandboxHost } from '../../src/sandbox/host.js';
import type { UnitSpec } from '../../src/sandbox/protocol.js';
import {
  FLOWGUARD_DIR,
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
} from './helpers.js';

let world: World;
beforeAll(async () => {
  world = await World.create();
});
afterAll(async () => {
  await world?.close();
});

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

const codeOf = (outcome: Outcome<unknown>) => (outcome.ok ? null : outcome.failure.code);

describe('hole 1: one allocation larger than the heap limit aborts the host process', () => {
  // Run in a child process: when the hole is open the process dies (SIGABRT, "FATAL ERROR: Reached
  // heap limit"), and it must not be this test runner that dies.
  const child = (mode: 'sandbox' | 'catalog', source: string, dir: string) => {
    const script = `
      const [mode, source, dir] = process.argv.slice(1);
      const results = [];
      if (mode === 'sandbox') {
        const { SandboxHost } = await import(${JSON.stringify(join(FLOWGUARD_DIR, 'dist/src/sandbox/host.js'))});
        const sandbox = new SandboxHost(${JSON.stringify(LIMITS)});
        const unit = (id, src) => ({ id, source: src, routes: ['bigArray'], libraries: [], sharedLists: {} });
        results.push(await sandbox.load(unit('hostile', source)));
        results.push(await sandbox.load(unit('benign', "() => ({ bigArray: { preRequest: async ({ struct }) => ({ struct }) } })")));
        results.push(await sandbox.runHook('hostile', 'bigArray', 'preRequest', { struct: {}, payload: {} }));
        results.push(await sandbox.runHook('benign', 'bigArray', 'preRequest', { struct: { after: true }, payload: {} }));
        await sandbox.close();
      } else {
        const { Catalog, runSchemaHook } = await import(${JSON.stringify(join(FLOWGUARD_DIR, 'dist/src/runtime/catalog.js'))});
        const catalog = await Catalog.load({ schemas: dir, project: ${JSON.stringify(FLOWGUARD_DIR)}, sandbox: ${JSON.stringify(LIMITS)} });
        const file = (name) => catalog.schemas.find((s) => s.file.endsWith(name)).file;
        results.push(await runSchemaHook(catalog, file('hostile.mjs'), 'bigArray', 'preRequest', { struct: {}, payload: {} }));
        results.push(await runSchemaHook(catalog, file('benign.mjs'), 'bigArray', 'preRequest', { struct: { after: true }, payload: {} }));
        await catalog.close();
      }
      console.log(JSON.stringify(results));
    `;
    return spawnSync(process.execPath, ['--input-type=module', '-e', script, mode, source, dir], {
      encoding: 'utf8',
      timeout: 20_000,
      env: { PATH: process.env.PATH ?? '' },
    });
  };

  for (const mode of ['sandbox', 'catalog'] as const) {
    it(`${mode}: new Array(1e7).fill(1.5) with a 64 MiB limit fails its call (SEC106) and the process lives on`, () => {
      const { dir } = world.materialize('memory-one-allocation');
      const run = child(mode, unitOf('memory-one-allocation', 'hostile.mjs').source, dir);
      const reason = `exit ${run.status} signal ${run.signal}\n${run.stderr.split('\n').slice(0, 6).join('\n')}`;
      expect(run.signal, reason).toBeNull();
      expect(run.status, reason).toBe(0);
      const results = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '[]') as Array<Outcome<unknown>>;
      const [hostileCall, benignCall] = results.slice(-2) as [Outcome<unknown>, Outcome<unknown>];
      expect(codeOf(hostileCall)).toBe('SEC106');
      // The catalog's benign twin adds its own field; the sandbox's inline benign unit does not.
      expect(benignCall).toMatchObject({ ok: true, value: { struct: { after: true } } });
    });
  }
});

describe('hole 2: memory outside the V8 heap is not bounded', () => {
  it('256 MiB of typed arrays per call, kept across calls, with a 64 MiB limit, fails (SEC106) instead of growing the host', async () => {
    const sandbox = new SandboxHost({ ...LIMITS, deadlineMs: LIBRARY_DEADLINE_MS });
    try {
      const hostile = unitOf('memory-outside-heap', 'hostile.mjs');
      expect((await sandbox.load(hostile)).ok).toBe(true);
      const rss = [process.memoryUsage.rss()];
      const codes: Array<string | null> = [];
      for (let i = 0; i < 2; i += 1) {
        codes.push(codeOf(await sandbox.runHook(hostile.id, 'arrayBuffers', 'preRequest', hookInput('preRequest'))));
        rss.push(process.memoryUsage.rss());
      }
      const grownMb = Math.round((Math.max(...rss) - (rss[0] as number)) / 2 ** 20);
      // Each call keeps 256 MiB; the first one already exceeds the limit four times over.
      expect(
        codes[0],
        `calls ended ${JSON.stringify(codes)} (null: success); the host process grew by ${grownMb} MiB`,
      ).toBe('SEC106');
    } finally {
      await sandbox.close();
    }
  });
});

describe('hole 3: one schema changes and observes library state another schema uses', () => {
  const routes = ['momentLocale', 'momentRounding', 'keccak', 'getUrl', 'wordlist', 'prototype', 'singleton'] as const;
  const privatePayload = { privateMs: 123_456_789, privateText: 'private-text-of-schema-b' };

  /**
   * Schema B's outcomes with nobody tampering, then again after schema A armed each route, and
   * what A's own later calls saw of B (A returns its `seen` log).
   */
  async function scenario(
    run: (who: 'a' | 'b', route: string, payload: Record<string, unknown>) => Promise<Outcome<unknown>>,
  ) {
    const before: Record<string, Outcome<unknown>> = {};
    for (const route of routes) before[route] = await run('b', route, privatePayload);
    const after: Record<string, Outcome<unknown>> = {};
    for (const route of routes) {
      await run('a', route, {});
      after[route] = await run('b', route, privatePayload);
    }
    const seenByA = await run('a', 'momentRounding', {});
    return { before, after, seenByA };
  }

  function expectUnaffected({ before, after, seenByA }: Awaited<ReturnType<typeof scenario>>): void {
    const problems: string[] = [];
    for (const route of routes) {
      if (!isDeepStrictEqual(after[route], before[route]))
        problems.push(`schema B's ${route} changed from ${render(before[route])} to ${render(after[route])}`);
    }
    const leaked = seenByA.ok ? (seenByA.value as { struct: { seen?: unknown[] } }).struct.seen : undefined;
    if (leaked && leaked.length > 0) problems.push(`schema A recorded schema B's private data: ${render(leaked)}`);
    expect(problems).toEqual([]);
  }

  it('straight through one Sandbox (size 1)', async () => {
    const sandbox = new SandboxHost({ ...LIMITS, deadlineMs: LIBRARY_DEADLINE_MS });
    try {
      const a = unitOf('cross-schema-state', 'hostile.mjs');
      const b = unitOf('cross-schema-state', 'benign.mjs');
      expect((await sandbox.load(a)).ok).toBe(true);
      expect((await sandbox.load(b)).ok).toBe(true);
      const result = await scenario((who, route, payload) =>
        sandbox.runHook(who === 'a' ? a.id : b.id, route, 'preRequest', hookInput('preRequest', payload)),
      );
      expectUnaffected(result);
    } finally {
      await sandbox.close();
    }
  });

  it('through Catalog.load (size 1)', async () => {
    const { dir } = world.materialize('cross-schema-state');
    const catalog = await Catalog.load({
      schemas: dir,
      project: FLOWGUARD_DIR,
      sandbox: { ...LIMITS, deadlineMs: LIBRARY_DEADLINE_MS },
    });
    try {
      const file = (name: string) => catalog.schemas.find((s) => s.file.endsWith(name))?.file as string;
      expect(catalog.schemas).toHaveLength(2);
      const result = await scenario((who, route, payload) =>
        runSchemaHook(
          catalog,
          file(who === 'a' ? 'hostile.mjs' : 'benign.mjs'),
          route,
          'preRequest',
          hookInput('preRequest', payload),
        ),
      );
      expectUnaffected(result);
    } finally {
      await catalog.close();
    }
  });
});

describe('hole 3b: a schema that reaches a library first', () => {
  it("cannot take the chain id of one of ethers' common networks before they are registered", async () => {
    const sandbox = new SandboxHost({ ...LIMITS, deadlineMs: LIBRARY_DEADLINE_MS });
    try {
      const a = unitOf('cross-schema-state', 'hostile.mjs');
      const b = unitOf('cross-schema-state', 'benign.mjs');
      expect((await sandbox.load(a)).ok).toBe(true);
      expect((await sandbox.load(b)).ok).toBe(true);
      // A runs first in a fresh process: no schema has asked ethers for a network yet.
      const armed = await sandbox.runHook(a.id, 'network', 'preRequest', hookInput('preRequest'));
      const asked = await sandbox.runHook(b.id, 'network', 'preRequest', hookInput('preRequest'));
      expect(armed.ok).toBe(false);
      expect(asked).toMatchObject({ ok: true, value: { struct: { benign: 'mainnet' } } });
    } finally {
      await sandbox.close();
    }
  });
});

describe('hole 4: the result shape is checked on the live object, not on what the host receives', () => {
  const routes = ['toJsonExtraKeys', 'toJsonUndefined', 'changingGetter'] as const;

  /** R7: preRequest gives the host `{ struct }` or `{ struct, payload }` with struct an object, or fails SEC101. */
  function expectR7(outcome: Outcome<unknown>, route: string): void {
    if (!outcome.ok) {
      expect(outcome.failure.code, route).toBe('SEC101');
      return;
    }
    const value = outcome.value as Record<string, unknown> | undefined;
    expect(typeof value === 'object' && value !== null, `${route}: the host received ${render(value)}`).toBe(true);
    expect(
      Object.keys(value ?? {}).every((key) => key === 'struct' || key === 'payload'),
      `${route}: the host received ${render(value)}`,
    ).toBe(true);
    expect(
      typeof value?.struct === 'object' && value.struct !== null,
      `${route}: the host received ${render(value)}`,
    ).toBe(true);
  }

  it('straight through Sandbox: SEC101, not another shape', async () => {
    const sandbox = new SandboxHost(LIMITS);
    try {
      const hostile = unitOf('result-shape-tojson', 'hostile.mjs');
      expect((await sandbox.load(hostile)).ok).toBe(true);
      for (const route of routes)
        expectR7(await sandbox.runHook(hostile.id, route, 'preRequest', hookInput('preRequest')), route);
    } finally {
      await sandbox.close();
    }
  });

  it('through the catalog call pipeline: a handler failure SEC101, never an exception in the host', async () => {
    const { dir } = world.materialize('result-shape-tojson');
    // Nothing may leave even if preRequest were accepted: a dry run, and every origin sent nowhere.
    const catalog = await Catalog.load({
      schemas: dir,
      project: FLOWGUARD_DIR,
      sandbox: LIMITS,
      upstreams: { '*': 'http://127.0.0.1:9' },
    });
    try {
      for (const route of routes) {
        const tool = catalog.tools.find((t) => t.unit.endsWith('hostile.mjs') && t.routeName === route);
        expect(tool, route).toBeDefined();
        let result: unknown;
        try {
          result = await catalog.call(tool?.name as string, {}, { dryRun: true });
        } catch (error) {
          result = { thrown: String(error) };
        }
        // Either the handler failed its call (SEC101), or the host got one consistent, valid
        // request (a getter read once while serialising) that stays on the schema's origin.
        if ((result as { ok?: boolean }).ok)
          expect(result, route).toMatchObject({ ok: true, dryRun: { url: 'http://127.0.0.1:9/things' } });
        else expect(result, route).toMatchObject({ ok: false, error: { kind: 'handler', code: 'SEC101' } });
      }
    } finally {
      await catalog.close();
    }
  });
});
