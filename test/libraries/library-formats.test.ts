// Issue 24: libraries reach handlers the way Node (and the FlowMCP reference) loads them. A
// native addon (talib's entry point is a `.node` file, which `import()` refuses) loads by
// `require`; an ES module with a default export is handed over as that default (erc725's
// class); an allowlisted built-in that only computes (zlib) is handed over, one with host
// authority (fs) never is; `Buffer` is a global. Each library is written into a temporary
// project's node_modules and called through a real catalog and sandbox.

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { tempProject } from '../kit/project.js';

const LIBRARIES = ['native-adder', 'class-default', 'zlib'];

function schema(namespace: string, libraries: string[], handler: string): string {
  return `export const main = {
    namespace: '${namespace}', name: 'Lib', description: 'A library in a handler.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.example.com',
    requiredLibraries: ${JSON.stringify(libraries)},
    routes: { compute: { method: 'GET', path: '/x', description: 'Computes.', parameters: [{ position: { key: 'input', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: [] } }], tests: [{ _description: 'a', input: 'a' }] } }
};
export const handlers = ({ sharedLists, libraries }) => ({
    compute: { executeRequest: async ({ struct, payload }) => ({ response: ${handler} }) }
});
`;
}

/** An N-API addon exporting add(a, b), compiled against the headers of the Node running the tests. */
const ADDON_SOURCE = `#include <node_api.h>
static napi_value Add(napi_env env, napi_callback_info info) {
  size_t argc = 2; napi_value args[2]; double a = 0, b = 0; napi_value sum;
  napi_get_cb_info(env, info, &argc, args, NULL, NULL);
  napi_get_value_double(env, args[0], &a); napi_get_value_double(env, args[1], &b);
  napi_create_double(env, a + b, &sum);
  return sum;
}
NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "add", NAPI_AUTO_LENGTH, Add, NULL, &fn);
  napi_set_named_property(env, exports, "add", fn);
  return exports;
}
`;

let project: { dir: string; remove: () => void };
let catalog: Catalog;

beforeAll(async () => {
  project = tempProject({ config: { security: { allowedLibraries: [...LIBRARIES, 'fs'] } } });
  const adder = join(project.dir, 'node_modules', 'native-adder');
  mkdirSync(adder, { recursive: true });
  // As talib's: the package's main is the compiled addon itself.
  writeFileSync(
    join(adder, 'package.json'),
    JSON.stringify({ name: 'native-adder', version: '1.0.0', main: 'adder.node' }),
  );
  writeFileSync(join(adder, 'adder.c'), ADDON_SOURCE);
  execFileSync('cc', [
    '-shared',
    '-fPIC',
    '-I',
    join(dirname(dirname(process.execPath)), 'include', 'node'),
    '-o',
    join(adder, 'adder.node'),
    join(adder, 'adder.c'),
  ]);
  const classDefault = join(project.dir, 'node_modules', 'class-default');
  mkdirSync(classDefault, { recursive: true });
  writeFileSync(
    join(classDefault, 'package.json'),
    JSON.stringify({ name: 'class-default', version: '1.0.0', type: 'module', main: 'index.js' }),
  );
  // A default class beside named exports, as @erc725/erc725.js has.
  writeFileSync(
    join(classDefault, 'index.js'),
    'export const VERSION = "1";\nexport default class Profile { constructor(name) { this.name = name; } read() { return `profile of ${this.name}`; } }\n',
  );
  const schemas = join(project.dir, 'schemas');
  mkdirSync(schemas);
  writeFileSync(
    join(schemas, 'native.mjs'),
    schema('native', ['native-adder'], "libraries['native-adder'].add(2, 40.5)"),
  );
  writeFileSync(
    join(schemas, 'classy.mjs'),
    schema('classy', ['class-default'], "new libraries['class-default']('alice').read()"),
  );
  writeFileSync(
    join(schemas, 'zipped.mjs'),
    schema(
      'zipped',
      ['zlib'],
      "libraries.zlib.gunzipSync(Buffer.from(payload.userParams.input, 'base64')).toString('utf8')",
    ),
  );
  writeFileSync(
    join(schemas, 'files.mjs'),
    schema('files', ['fs'], "libraries.fs.readFileSync('/etc/passwd', 'utf8')"),
  );
  catalog = await Catalog.load({ schemas, project: project.dir, env: {}, sandbox: { size: 1 } });
}, 60_000);

afterAll(async () => {
  await catalog?.close();
  project?.remove();
});

describe('libraries in the shape Node loads them', () => {
  it('a native addon whose entry point is a .node file loads by require and computes', async () => {
    expect(await catalog.call('native_compute', { input: 'a' })).toMatchObject({ ok: true, content: { value: 42.5 } });
  });

  it('an ES module with a default export beside named ones is handed over as the default', async () => {
    expect(await catalog.call('classy_compute', { input: 'a' })).toMatchObject({
      ok: true,
      content: { value: 'profile of alice' },
    });
  });

  it('an allowlisted built-in that only computes is handed over, and Buffer is a global', async () => {
    const input = gzipSync('hello from zlib').toString('base64');
    const zipped = await catalog.call('zipped_compute', { input });
    expect(zipped).toMatchObject({ ok: true, content: { value: 'hello from zlib' } });
  });

  it('a built-in with host authority is never handed over, allowlisted or not: SEC103 names why', () => {
    const finding = catalog.findings().find((f) => f.code === 'SEC103' && f.file.endsWith('files.mjs'));
    expect(finding?.message).toContain("'fs' is a Node built-in that handlers never get");
    expect(catalog.tools.map((tool) => tool.name)).not.toContain('files_compute');
  });
});
