// The adversarial suite of issue 3, first way: every hostile schema under test/fixtures/hostile,
// with its benign twin beside it, loaded through Catalog.load. Where the static scan refuses the
// hostile file, the test asserts the refusing codes and that nothing of it ran; otherwise every
// route is attacked through the catalog's sandbox. Each test proves from outside that nothing
// happened (helpers.ts, World.expectUntouched) and that the same catalog still serves the twin.
//
// The quick cases share one catalog, the cases using libraries another (one folder each, one
// sandbox worker each): their factories run at load (`handlers: 'at-load'`), so their load-time
// attacks run in beforeAll, which the first test checks.
// Hangs, memory attacks and cases needing another project folder get a catalog of their own.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog, runSchemaHook } from '../../src/runtime/catalog.js';
import type { Finding } from '../../src/report/findings.js';
import type { Hook } from '../../src/sandbox/protocol.js';
import { CASES, groupOf, limitsOf, routesOf, type HostileCase } from './cases.js';
import {
  expectBenign,
  expectCall,
  FLOWGUARD_DIR,
  LIBRARY_DEADLINE_MS,
  LIMITS,
  render,
  World,
  type Caller,
} from './helpers.js';

let world: World;
const shared: Partial<Record<'plain' | 'library', Catalog>> = {};
let loadOutputs: unknown[];
beforeAll(async () => {
  world = await World.create();
  const groups = { plain: LIMITS, library: { ...LIMITS, deadlineMs: LIBRARY_DEADLINE_MS } };
  await Promise.all(
    (['plain', 'library'] as const).map(async (group) => {
      const root = join(world.root, `shared-${group}`);
      for (const [name, c] of Object.entries(CASES)) if (groupOf(name, c) === group) world.materialize(name, root);
      shared[group] = await Catalog.load({
        schemas: root,
        project: FLOWGUARD_DIR,
        sandbox: groups[group],
        handlers: 'at-load',
      });
    }),
  );
  loadOutputs = [shared.plain?.findings(), shared.library?.findings()];
}, 30_000);
afterAll(async () => {
  await shared.plain?.close();
  await shared.library?.close();
  await world?.close();
});

/** Checks one case on a catalog that holds its folder `<...>/<name>/{hostile,benign}.mjs`. */
async function attack(name: string, c: HostileCase, catalog: Catalog, deadlineMs: number): Promise<void> {
  const hook: Hook = c.hook ?? 'preRequest';
  const caller: Caller = { call: (file, route, h, input) => runSchemaHook(catalog, file, route, h, input) };
  const mine = (file: string, which: string) => file.endsWith(join(name, which));
  const findings: Finding[] = catalog
    .findings()
    .filter((f) => mine(f.file, 'hostile.mjs') || mine(f.file, 'benign.mjs'));
  const outputs: unknown[] = [findings];
  const hostileFindings = findings.filter((f) => mine(f.file, 'hostile.mjs'));
  const hostileCodes = hostileFindings.map((f) => f.code);
  const hostile = catalog.schemas.find((s) => mine(s.file, 'hostile.mjs'))?.file;
  const benign = catalog.schemas.find((s) => mine(s.file, 'benign.mjs'))?.file;
  expect(benign, `the benign twin loads: ${render(findings)}`).toBeDefined();
  expect(findings.filter((f) => mine(f.file, 'benign.mjs') && f.severity === 'error')).toEqual([]);

  if (c.scan || c.load) {
    // Refused by the scan, or its factory failed at load: the file is not in the catalog.
    for (const code of c.scan ?? []) expect(hostileCodes, render(findings)).toContain(code);
    if (!c.scan)
      expect(
        hostileCodes.some((code) => (c.load as readonly string[]).includes(code)),
        render(findings),
      ).toBe(true);
    expect(hostile).toBeUndefined();
    // Refused means not served: no tool comes from the hostile file, while its twin, which
    // declares the same routes, serves each of them.
    const routesFrom = (which: string) =>
      catalog.tools.filter((tool) => mine(tool.schema.file, which)).map((tool) => tool.routeName);
    expect(routesFrom('hostile.mjs')).toEqual([]);
    expect(routesFrom('benign.mjs')).toEqual(expect.arrayContaining(routesOf(c)));
    for (const route of routesOf(c))
      await expectBenign(caller, benign as string, route, hook, c.benign[route], outputs);
  } else {
    expect(hostile, `the hostile file passes the scan and loads: ${render(findings)}`).toBeDefined();
    for (const [route, expected] of Object.entries(c.calls ?? {})) {
      await expectCall(caller, hostile as string, route, hook, expected, outputs, deadlineMs);
      await expectBenign(caller, benign as string, route, hook, c.benign[route], outputs);
    }
  }
  await world.expectUntouched(outputs);
}

describe('hostile schemas through Catalog.load', () => {
  it('loading the hostile schemas (factories included) changed nothing', async () => {
    expect(shared.plain?.schemas.length).toBeGreaterThan(0);
    expect(shared.library?.schemas.length).toBeGreaterThan(0);
    await world.expectUntouched(loadOutputs);
  });

  // Concurrent: each case's calls queue on its catalog's worker, and the waits for late effects overlap.
  describe.concurrent('each case', () => {
    for (const [name, c] of Object.entries(CASES)) {
      it(name, async () => {
        const group = groupOf(name, c);
        const limits = limitsOf(name, c);
        if (group !== 'own') {
          await attack(name, c, shared[group] as Catalog, limits.deadlineMs);
          return;
        }
        const { dir } = world.materialize(name);
        const catalog = await Catalog.load({
          schemas: dir,
          project: c.trapProject ? world.trapProject : FLOWGUARD_DIR,
          sandbox: limits,
          handlers: 'at-load',
        });
        try {
          await attack(name, c, catalog, limits.deadlineMs);
        } finally {
          await catalog.close();
        }
      });
    }
  });
});
