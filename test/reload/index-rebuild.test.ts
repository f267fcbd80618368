// The search index after a hot reload (issue 25): `serve --watch --tools search` builds the index
// of the new tools as soon as a reload changes them, before anyone searches, and says so; the
// first search after the change finds the new tool in an index already built. A real server
// process over stdio with the SDK client, a schema file rewritten on disk.

import type { PassThrough } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BIN, makeProject, ORIGIN, shopSchema, startHeldUpstream, type HeldUpstream, type Project } from './helpers.js';
import { waitFor } from '../support/wait.js';

let upstream: HeldUpstream;
let project: Project;
let client: Client;
let stderr = '';

beforeAll(async () => {
  upstream = await startHeldUpstream();
  project = makeProject({ 'items.mjs': shopSchema([{ name: 'getItem', path: '/items' }]) });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      BIN,
      'serve',
      '--watch',
      '--tools',
      'search',
      '--schemas',
      project.schemas,
      '--project',
      project.dir,
      '--upstream',
      `${ORIGIN}=${upstream.url}`,
    ],
    cwd: project.dir,
    stderr: 'pipe',
  });
  (transport.stderr as PassThrough).on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  client = new Client({ name: 'index-rebuild-test', version: '1.0.0' });
  await client.connect(transport);
  expect(await waitFor(() => stderr.includes('watching '), 10_000)).toBe(true);
}, 30_000);

afterAll(async () => {
  await client?.close();
  await upstream?.close();
  project?.remove();
});

/** The `search index ready` log entries so far. */
function readyEntries(): Array<{ tools: number; cached: boolean }> {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg: string; tools: number; cached: boolean })
    .filter((entry) => entry.msg === 'search index ready');
}

it('builds the index of the reloaded tools before any search, and the first search finds the new tool in it', async () => {
  // The start's build, a second after the server is up.
  expect(await waitFor(() => readyEntries().length === 1, 15_000), stderr).toBe(true);
  expect(readyEntries()[0]?.tools).toBe(1);

  project.write(
    'items.mjs',
    shopSchema([
      { name: 'getItem', path: '/items' },
      { name: 'getZeppelinFleet', path: '/zeppelins' },
    ]),
  );
  // Nobody has searched: the rebuild follows the reload by itself.
  expect(await waitFor(() => readyEntries().length >= 2, 15_000), stderr).toBe(true);
  expect(readyEntries()[1]).toMatchObject({ tools: 2, cached: false });

  const found = (await client.callTool({
    name: 'search_tools',
    arguments: { query: 'zeppelin fleet' },
  })) as CallToolResult;
  expect((found.structuredContent as { tools: Array<{ name: string }> }).tools[0]?.name).toBe('shop_getZeppelinFleet');
}, 40_000);
