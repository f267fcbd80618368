// List files that try to run code (issue 3): a list is data, read from the syntax tree and never
// executed. Each hostile list file under test/fixtures/hostile/list-file-* would write the canary
// file (or read the environment secret) the moment it ran; its benign twin is the same list as
// plain data. Both are loaded through the list registry and through Catalog.load, and the test
// proves from outside that nothing ran and that the hostile list is refused as a whole.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog, runSchemaHook } from '../../src/runtime/catalog.js';
import type { Code } from '../../src/report/codes.js';
import { loadListRegistry } from '../../src/lists/registry.js';
import { benignResult, FLOWGUARD_DIR, hookInput, LIMITS, render, World } from './helpers.js';

/** The codes each hostile list file must get (at least). */
const LIST_CASES: Record<string, readonly Code[]> = {
  'list-file-getter': ['SEC200'],
  'list-file-function': ['SEC200'],
  'list-file-arrow-iife': ['SEC201'],
  'list-file-template': ['SEC203'],
  'list-file-process-env': ['SEC204'],
  'list-file-top-level-code': ['SEC205'],
  'list-file-import': ['SEC204'],
};

/** A schema that declares one list and hands its entry count back from preRequest. */
function schemaUsing(list: string): string {
  return `export const main = {
  namespace: 'listuser',
  name: 'ListUser',
  description: 'Reads a shared list in its handler.',
  version: '2.0.0',
  root: 'https://api.example.com',
  sharedLists: [{ ref: '${list}', version: '1.0.0' }],
  routes: {
    getThing: {
      method: 'GET',
      path: '/things',
      description: 'Lists things.',
      parameters: [],
      output: { mimeType: 'application/json', schema: { type: 'object' } },
      tests: [{ _description: 'all things' }],
    },
  },
};

export const handlers = ({ sharedLists, libraries }) => ({
  getThing: {
    preRequest: async ({ struct }) => ({ struct: { ...struct, benign: sharedLists.${list}.length } }),
  },
});
`;
}

let world: World;
beforeAll(async () => {
  world = await World.create();
});
afterAll(async () => {
  await world?.close();
});

describe.concurrent('hostile list files', () => {
  for (const [name, codes] of Object.entries(LIST_CASES)) {
    it(`${name}: refused with ${codes.join(', ')}, never executed, its benign twin loads`, async () => {
      const { dir } = world.materialize(name);
      const registry = loadListRegistry(dir);
      const hostileCodes = registry.findings.filter((f) => f.file.endsWith('hostile.mjs')).map((f) => f.code);
      for (const code of codes) expect(hostileCodes, render(registry.findings)).toContain(code);
      expect([...registry.lists.keys()]).toEqual(['benignList']);
      expect(registry.findings.filter((f) => f.file.endsWith('benign.mjs') && f.severity === 'error')).toEqual([]);
      const outputs: unknown[] = [registry.findings, [...registry.lists.values()]];

      // Through the catalog: a schema using the benign list works, one using the hostile list is refused.
      const schemas = join(dir, '..', `${name}-schemas`);
      mkdirSync(schemas);
      writeFileSync(join(schemas, 'uses-benign.mjs'), schemaUsing('benignList'));
      writeFileSync(join(schemas, 'uses-hostile.mjs'), schemaUsing('hostileList'));
      const catalog = await Catalog.load({ schemas, lists: dir, project: FLOWGUARD_DIR, sandbox: LIMITS });
      try {
        const findings = catalog.findings();
        outputs.push(findings);
        for (const code of codes)
          expect(findings.filter((f) => f.file.endsWith('hostile.mjs')).map((f) => f.code)).toContain(code);
        expect(
          findings.filter((f) => f.file.endsWith('uses-hostile.mjs')).map((f) => f.code),
          render(findings),
        ).toContain('VAL072');
        expect(catalog.schemas.map((s) => s.file.split('/').pop())).toEqual(['uses-benign.mjs']);
        const outcome = await runSchemaHook(
          catalog,
          catalog.schemas[0]?.file as string,
          'getThing',
          'preRequest',
          hookInput('preRequest'),
        );
        outputs.push(outcome);
        expect(outcome).toEqual({ ok: true, value: benignResult('preRequest', 2) });
      } finally {
        await catalog.close();
      }
      await world.expectUntouched(outputs);
    });
  }
});
