// Issue 26, point 3: a tool is compiled at load, and no module reads a schema file (or a list
// file) after the load. Attacked with the real catalog, sandbox and bridge: the project's files
// are deleted once the catalog is loaded, before any tool was called (handlers factories run on
// first use, reaches are compiled on first need), and every `node:fs` call the core makes during
// the calls is watched; the calls must still answer exactly as before, and no path of the project
// may be touched.

import * as fs from 'node:fs';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { tempProject } from '../support/project.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

/** The paths the core's `node:fs` calls named while `watching.on`. */
const watching = vi.hoisted(() => ({ on: false, paths: [] as string[] }));

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const watched = <F extends (...args: never[]) => unknown>(name: string, original: F): F =>
    ((...args: Parameters<F>) => {
      const path: unknown = args[0];
      if (watching.on && (typeof path === 'string' || path instanceof URL))
        watching.paths.push(`${name} ${String(path)}`);
      return original(...args);
    }) as F;
  const names = [
    'readFileSync',
    'readFile',
    'openSync',
    'open',
    'statSync',
    'stat',
    'lstatSync',
    'existsSync',
    'readdirSync',
    'readdir',
    'createReadStream',
    'accessSync',
  ] as const;
  const wrapped = Object.fromEntries(names.map((name) => [name, watched(name, real[name] as never)]));
  const promises = Object.fromEntries(
    ['readFile', 'open', 'stat', 'readdir', 'access'].map((name) => [
      name,
      watched(`promises.${name}`, real.promises[name as 'readFile'] as never),
    ]),
  );
  const module = { ...real, ...wrapped, promises: { ...real.promises, ...promises } };
  return { ...module, default: module };
});

const KEY = 'exec-key-value-7788990011';

const files: Record<string, string> = {
  'shared-lists/colours.mjs': `export const list = {
    meta: { name: 'colours', version: '1.0.0', description: 'Colours.', fields: [{ key: 'name', type: 'string', description: 'A colour.' }] },
    entries: [{ name: 'red' }, { name: 'green' }]
};
`,
  // The core's own request, an argument from a shared list.
  'schemas/plain.mjs': `export const main = {
    namespace: 'plain', name: 'Plain', description: 'Plain requests.', version: '2.0.0',
    root: 'https://api.plain.test',
    sharedLists: [{ ref: 'colours', version: '1.0.0' }],
    routes: {
        things: { method: 'GET', path: '/things', description: 'Things of a colour.', parameters: [{ position: { key: 'colour', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'enum({{colours:name}})', options: [] } }], tests: [{ _description: 'red', colour: 'red' }] }
    }
};
`,
  // preRequest and postRequest, whose factory runs at the first call.
  'schemas/hooked.mjs': `export const main = {
    namespace: 'hooked', name: 'Hooked', description: 'Reshaped requests.', version: '2.0.0',
    root: 'https://api.hooked.test',
    routes: {
        wrapped: { method: 'GET', path: '/wrapped', description: 'A wrapped answer.', parameters: [], tests: [{ _description: 'a' }] }
    }
};
export const handlers = () => ({
    wrapped: {
        preRequest: async ({ struct, payload }) => ({ struct: { ...struct, url: struct.url + '?pre=1' }, payload }),
        postRequest: async ({ response }) => ({ response: { wrapped: response } })
    }
});
`,
  // executeRequest, whose requests go through the bridge and its reach: the root, where the key
  // is bound, and an origin only the file's text writes.
  'schemas/exec.mjs': `export const main = {
    namespace: 'exec', name: 'Exec', description: 'Its own requests.', version: '2.0.0',
    root: 'https://api.exec.test',
    requiredServerParams: ['EXEC_KEY'],
    headers: { 'x-key': '{{EXEC_KEY}}' },
    routes: {
        both: { method: 'GET', path: '/first', description: 'Two requests.', parameters: [], tests: [{ _description: 'a' }] }
    }
};
// the mirror: https://mirror.exec.test/second
export const handlers = () => ({
    both: {
        executeRequest: async ({ struct, payload }) => {
            const first = await (await fetch(payload.url, { headers: payload.headers })).json();
            const second = await (await fetch('https://mirror.exec.test/second')).json();
            return { response: { first: first.url, second: second.url } };
        }
    }
});
`,
};

let upstream: Upstream;
let project: ReturnType<typeof tempProject>;
let catalog: Catalog;

beforeAll(async () => {
  // Answers with what it was asked, so a result shows which request was sent.
  upstream = await startUpstream((_req, res, entry) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ url: entry.url, key: entry.headers['x-key'] ?? null }));
  });
  project = tempProject();
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(project.dir, name, '..'), { recursive: true });
    writeFileSync(join(project.dir, name), text);
  }
  const upstreams = Object.fromEntries(
    ['https://api.plain.test', 'https://api.hooked.test', 'https://api.exec.test', 'https://mirror.exec.test'].map(
      (origin) => [origin, upstream.origin],
    ),
  );
  catalog = await Catalog.load({
    schemas: join(project.dir, 'schemas'),
    project: project.dir,
    env: {},
    keys: { EXEC_KEY: KEY },
    upstreams,
    sandbox: { size: 1 },
  });
  // The load is over: from here on, nothing of the project is on disk.
  rmSync(join(project.dir, 'schemas'), { recursive: true, force: true });
  rmSync(join(project.dir, 'shared-lists'), { recursive: true, force: true });
  watching.on = true;
}, 60_000);

afterAll(async () => {
  watching.on = false;
  await catalog?.close();
  project?.remove();
  await upstream?.close();
});

describe('after the load, with the schema and list files deleted', () => {
  it('loaded every file without a finding that would drop a tool', () => {
    expect(catalog.findings().filter((finding) => finding.severity === 'error')).toEqual([]);
    expect(
      catalog
        .visibleTools()
        .map((tool) => tool.name)
        .sort(),
    ).toEqual(['exec_both', 'hooked_wrapped', 'plain_things']);
  });

  it('a plain call checks its list-bound argument and sends its request', async () => {
    expect(await catalog.call('plain_things', { colour: 'green' })).toMatchObject({
      ok: true,
      content: { kind: 'json', value: { url: '/things?colour=green' } },
    });
    expect(await catalog.call('plain_things', { colour: 'blue' })).toMatchObject({
      ok: false,
      error: { kind: 'arguments' },
    });
  });

  it('a handler schema runs its factory at its first call, preRequest and postRequest included', async () => {
    expect(await catalog.call('hooked_wrapped', {})).toMatchObject({
      ok: true,
      content: { kind: 'json', value: { wrapped: { url: '/wrapped?pre=1' } } },
    });
  });

  it('executeRequest reaches its root with the key and the origin its file writes, and nothing else', async () => {
    const result = await catalog.call('exec_both', {});
    expect(result).toMatchObject({
      ok: true,
      content: { kind: 'json', value: { first: '/first', second: '/second' } },
    });
    const first = upstream.records.find((record) => record.url === '/first');
    expect(first?.headers['x-key']).toBe(KEY);
    expect(catalog.reach(catalog.tool('exec_both')?.schema.file ?? '')?.origins.map((entry) => entry.origin)).toEqual([
      'https://api.exec.test',
      'https://mirror.exec.test',
    ]);
  });

  it('every tool is a frozen record: its factory ran at the first call without writing into it', () => {
    for (const tool of catalog.tools) expect(Object.isFrozen(tool), tool.name).toBe(true);
    expect(catalog.tool('hooked_wrapped')?.hooks).toEqual(['preRequest', 'postRequest']);
    expect(catalog.hooksOf(catalog.tool('hooked_wrapped')?.schema.file ?? '')).toEqual({
      wrapped: ['preRequest', 'postRequest'],
    });
  });

  it('no call touched a path of the project through node:fs', () => {
    expect(watching.paths.filter((path) => path.includes(project.dir))).toEqual([]);
  });

  it('the watch sees what the core reads (control: reading the project folder is caught)', () => {
    const before = watching.paths.length;
    fs.existsSync(join(project.dir, 'schemas', 'plain.mjs'));
    expect(watching.paths.slice(before)).toEqual([`existsSync ${join(project.dir, 'schemas', 'plain.mjs')}`]);
    watching.paths.length = before;
  });
});
