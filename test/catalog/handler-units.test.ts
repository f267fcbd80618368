// Handlers factories run on their first use (handler-units.ts): a catalog is callable before any
// sandbox process exists, the first call that needs a handler starts it and loads only its own
// schema, and a factory that fails then withdraws only its own schema's tools, says why in the
// call's error and the file's report, and tells MCP clients to list the tools again.
// `handlers: 'at-load'` keeps the earlier behaviour: factories run while loading.

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { waitFor } from '../support/wait.js';

const ROOT = join(import.meta.dirname, '..', '..');
const LIMITS = { size: 1, deadlineMs: 2000, memoryMb: 64 };

function schema(namespace: string, handlers: string | null): string {
  return `export const main = {
    namespace: '${namespace}',
    name: '${namespace}',
    description: 'handler units test',
    version: '2.0.0',
    docs: [],
    tags: [],
    root: 'https://api.example.test',
    routes: {
        getThing: { method: 'GET', path: '/thing', description: 'a thing', parameters: [] }
    }
};
${handlers === null ? '' : `export const handlers = ${handlers};`}
`;
}

const ADDS_HEADER = `( { sharedLists, libraries } ) => ( {
    getThing: { preRequest: async ( { struct, payload } ) => { struct.headers[ 'x-added' ] = 'by-handler'; return { struct } } }
} )`;
const THROWS = `( { sharedLists, libraries } ) => { throw new Error( 'factory fails on purpose' ) }`;
const LOOPS = `( { sharedLists, libraries } ) => { for ( ;; ) {} }`;

/** Node processes started by this process (Linux: /proc), to see whether a sandbox runs. */
function childProcesses(): number[] {
  try {
    return readdirSync(`/proc/${process.pid}/task`).flatMap((task) => {
      const text = readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8').trim();
      return text === '' ? [] : text.split(/\s+/).map(Number);
    });
  } catch {
    return [];
  }
}

let dir: string;
let upstream: Upstream;
const seenHeaders: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flowguard-units-'));
  writeFileSync(join(dir, 'plain.mjs'), schema('plain', null));
  writeFileSync(join(dir, 'good.mjs'), schema('good', ADDS_HEADER));
  writeFileSync(join(dir, 'broken.mjs'), schema('broken', THROWS));
  upstream = await startUpstream((req, res) => {
    seenHeaders.push(String(req.headers['x-added'] ?? ''));
    res.setHeader('content-type', 'application/json');
    res.end('{"ok":true}');
  });
});
afterAll(async () => {
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

const load = (extra: Partial<Parameters<typeof Catalog.load>[0]> = {}) =>
  Catalog.load({
    schemas: dir,
    project: ROOT,
    env: {},
    sandbox: LIMITS,
    upstreams: { '*': upstream.origin },
    ...extra,
  });

describe('handlers loaded on first use (the default)', () => {
  it.runIf(process.platform === 'linux')(
    'starts no sandbox process until a call needs a handler, then one',
    async () => {
      const before = childProcesses();
      const catalog = await load();
      try {
        expect(catalog.tools.map((tool) => tool.name).sort()).toEqual([
          'broken_getThing',
          'good_getThing',
          'plain_getThing',
        ]);
        expect(childProcesses()).toEqual(before);
        // A tool without handlers never needs the sandbox.
        expect((await catalog.call('plain_getThing', {})).ok).toBe(true);
        expect(childProcesses()).toEqual(before);
        const result = await catalog.call('good_getThing', {});
        expect(result.ok, JSON.stringify(result)).toBe(true);
        expect(seenHeaders.at(-1)).toBe('by-handler');
        expect(childProcesses().filter((pid) => !before.includes(pid))).toHaveLength(1);
      } finally {
        await catalog.close();
      }
    },
  );

  it('a factory that fails on first use fails that call, withdraws only its own tools, reports it once and tells listeners', async () => {
    const catalog = await load();
    try {
      let changes = 0;
      catalog.onToolsChanged(() => (changes += 1));
      expect(catalog.visibleTools().map((tool) => tool.name)).toContain('broken_getThing');
      const first = await catalog.call('broken_getThing', {});
      expect(first.ok).toBe(false);
      if (first.ok) return;
      expect(first.error).toMatchObject({ kind: 'handler', code: 'SEC104' });
      expect(first.error.message).toMatch(/broken_getThing could not be loaded \(SEC104\).*factory fails on purpose/);
      expect(changes).toBe(1);
      expect(
        catalog
          .visibleTools()
          .map((tool) => tool.name)
          .sort(),
      ).toEqual(['good_getThing', 'plain_getThing']);
      const reported = catalog
        .findings()
        .filter((finding) => finding.file.endsWith('broken.mjs') && finding.code === 'SEC104');
      expect(reported).toHaveLength(1);
      // The same answer again, without running the factory or reporting twice.
      const again = await catalog.call('broken_getThing', {});
      expect(again.ok ? null : again.error.code).toBe('SEC104');
      expect(changes).toBe(1);
      expect(catalog.findings().filter((finding) => finding.code === 'SEC104')).toHaveLength(1);
      // The other schemas are untouched.
      expect((await catalog.call('good_getThing', {})).ok).toBe(true);
      expect((await catalog.call('plain_getThing', {})).ok).toBe(true);
    } finally {
      await catalog.close();
    }
  });

  it('two first calls at once run the factory once', async () => {
    const catalog = await load();
    try {
      const results = await Promise.all([
        catalog.call('good_getThing', {}),
        catalog.call('good_getThing', {}),
        catalog.call('broken_getThing', {}),
        catalog.call('broken_getThing', {}),
      ]);
      expect(results.map((result) => result.ok)).toEqual([true, true, false, false]);
      expect(catalog.findings().filter((finding) => finding.code === 'SEC104')).toHaveLength(1);
    } finally {
      await catalog.close();
    }
  });

  it('a factory that never returns fails its first call at the deadline; the sandbox goes on serving the others', async () => {
    const looping = mkdtempSync(join(tmpdir(), 'flowguard-units-loop-'));
    writeFileSync(join(looping, 'loops.mjs'), schema('loops', LOOPS));
    writeFileSync(join(looping, 'good.mjs'), schema('good', ADDS_HEADER));
    const catalog = await Catalog.load({
      schemas: looping,
      project: ROOT,
      env: {},
      sandbox: { ...LIMITS, deadlineMs: 500 },
      upstreams: { '*': upstream.origin },
    });
    try {
      const stuck = await catalog.call('loops_getThing', {});
      expect(stuck.ok ? null : stuck.error.code).toBe('SEC105');
      expect(catalog.visibleTools().map((tool) => tool.name)).toEqual(['good_getThing']);
      const result = await catalog.call('good_getThing', {});
      expect(result.ok, JSON.stringify(result)).toBe(true);
    } finally {
      await catalog.close();
      rmSync(looping, { recursive: true, force: true });
    }
  });
});

describe('closing', () => {
  it('a second close (a server shutting down twice, a reload and an exit) waits for the first and does not fail', async () => {
    const catalog = await load();
    expect((await catalog.call('good_getThing', {})).ok).toBe(true);
    await Promise.all([catalog.close(), catalog.close()]);
    await expect(catalog.close()).resolves.toBeUndefined();
  });
});

describe("handlers: 'at-load'", () => {
  it('runs every factory while loading: a failing one keeps its file out of the catalog, as before', async () => {
    const catalog = await load({ handlers: 'at-load' });
    try {
      expect(catalog.tools.map((tool) => tool.name).sort()).toEqual(['good_getThing', 'plain_getThing']);
      expect(
        catalog
          .findings()
          .filter((finding) => finding.file.endsWith('broken.mjs'))
          .map((finding) => finding.code),
      ).toContain('SEC104');
      expect(catalog.tool('good_getThing')?.hooks).toEqual(['preRequest']);
      expect((await catalog.call('good_getThing', {})).ok).toBe(true);
    } finally {
      await catalog.close();
    }
  });
});

describe('over MCP', () => {
  it('a client is told to list the tools again when a factory fails on first use, and the tool is gone from the list', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        join(ROOT, 'bin', 'flowguard.js'),
        'serve',
        '--schemas',
        dir,
        '--project',
        dir,
        '--no-cache',
        '--upstream',
        `*=${upstream.origin}`,
      ],
      stderr: 'ignore',
      env: { PATH: process.env.PATH ?? '' },
    });
    const client = new Client({ name: 'units-test', version: '1' });
    let listChanged = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      listChanged += 1;
    });
    await client.connect(transport);
    try {
      expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
      const before = (await client.listTools()).tools.map((tool) => tool.name);
      expect(before).toContain('broken_getThing');
      const result = await client.callTool({ name: 'broken_getThing', arguments: {} });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain('SEC104');
      expect(await waitFor(() => listChanged === 1, 5_000)).toBe(true);
      const after = (await client.listTools()).tools.map((tool) => tool.name);
      expect(after.sort()).toEqual(['good_getThing', 'plain_getThing']);
    } finally {
      await client.close();
    }
  }, 30_000);
});
