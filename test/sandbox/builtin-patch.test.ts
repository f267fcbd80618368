// Issue 14, point 4: a library that changes a built-in when it is imported (vega-lite adds
// Set.prototype.toJSON) cannot load in the locked-down sandbox; the schema is refused with a
// SEC103 that says why. The library is written into a temporary project's node_modules.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { tempProject } from '../kit/project.js';

const SCHEMA = `export const main = {
    namespace: 'patcher', name: 'Patcher', description: 'Needs a library that patches Set.prototype.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.patcher.test',
    requiredLibraries: ['set-patcher'],
    routes: { probe: { method: 'GET', path: '/x', description: 'probe', parameters: [], tests: [{ _description: 'a' }] } }
};
export const handlers = ({ sharedLists, libraries }) => ({ probe: { executeRequest: async ({ struct }) => ({ response: libraries['set-patcher'].patched }) } });
`;

describe('a library that patches a built-in at import', () => {
  it('is SEC103 naming the reason', async () => {
    const project = tempProject({ config: { security: { allowedLibraries: ['set-patcher'] } } });
    const library = join(project.dir, 'node_modules', 'set-patcher');
    mkdirSync(library, { recursive: true });
    writeFileSync(
      join(library, 'package.json'),
      JSON.stringify({ name: 'set-patcher', version: '1.0.0', type: 'module', main: 'index.js' }),
    );
    writeFileSync(
      join(library, 'index.js'),
      "Set.prototype['toJSON'] = function () { return [...this]; };\nexport const patched = true;\n",
    );
    mkdirSync(join(project.dir, 'schemas'));
    writeFileSync(join(project.dir, 'schemas', 'patcher.mjs'), SCHEMA);
    const catalog = await Catalog.load({
      schemas: join(project.dir, 'schemas'),
      project: project.dir,
      env: {},
      sandbox: { size: 1 },
      handlers: 'at-load',
    });
    try {
      const finding = catalog.findings().find((f) => f.code === 'SEC103');
      expect(finding?.message).toMatch(
        /library 'set-patcher' failed to load: TypeError: .*\(the library changes a shared built-in, such as a prototype, when it is imported; the sandbox freezes them/,
      );
      expect(catalog.tools).toEqual([]);
    } finally {
      await catalog.close();
      project.remove();
    }
  });
});
