// `flowguard serve --watch` as a client meets it: a real server process over stdio with an SDK
// client connected, schema files rewritten on disk, and a loopback upstream behind `--upstream`.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { makeProject, ORIGIN, shopSchema, startHeldUpstream, type HeldUpstream, type Project } from './helpers.js';
import { connectStdio, type McpConnection } from '../kit/mcp.js';
import { runFlowguardSync } from '../kit/spawn.js';
import { waitFor } from '../support/wait.js';

const ITEM = { name: 'getItem', path: '/items' };
const HELD = { name: 'getHeld', path: '/held' };

let upstream: HeldUpstream;
let project: Project;
let connection: McpConnection;
let client: Client;
/** What the server wrote to stderr so far. */
const stderr = () => connection.stderr();
let listChanged = 0;

beforeAll(async () => {
  upstream = await startHeldUpstream();
  project = makeProject({ 'items.mjs': shopSchema([ITEM, HELD]) });
  connection = await connectStdio(
    ['--watch', '--schemas', project.schemas, '--project', project.dir, '--upstream', `${ORIGIN}=${upstream.url}`],
    { cwd: project.dir },
  );
  client = connection.client;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    listChanged += 1;
  });
  // The watcher starts once the server is up; it says so.
  expect(await waitFor(() => stderr().includes('watching '), 10_000)).toBe(true);
}, 30_000);

afterAll(async () => {
  await client?.close();
  if (process.env.RELOAD_DEBUG) process.stderr.write(stderr());
  await upstream?.close();
  project?.remove();
});

async function toolNames(): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name).sort();
}

/** Rewrites a file and waits for the reload it causes (its tools/list_changed, or its log line). */
async function edit(file: string, text: string, until?: () => boolean): Promise<void> {
  const before = listChanged;
  project.write(file, text);
  expect(await waitFor(until ?? (() => listChanged > before), 15_000)).toBe(true);
}

/** The JSON log entries among stderr's lines (the start-up summary is plain text). */
function logEntries(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function text(result: unknown): string {
  return ((result as CallToolResult).content[0] as { text: string }).text;
}

describe('serve --watch', () => {
  it('sends tools/list_changed when a file changes, and lists the new tool', async () => {
    expect(await toolNames()).toEqual(['shop_getHeld', 'shop_getItem']);
    await edit('items.mjs', shopSchema([ITEM, HELD, { name: 'getNew', path: '/new' }]));
    expect(await toolNames()).toEqual(['shop_getHeld', 'shop_getItem', 'shop_getNew']);
    const result = await client.callTool({ name: 'shop_getNew', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain('/new');
  }, 30_000);

  it('keeps the last good version serving when an edit breaks the file, and logs its findings', async () => {
    const logged = stderr().length;
    // Waits for the warning itself: log lines arrive in batches, so a 'reloaded' line of the edit
    // before can still arrive after `logged` was taken.
    await edit('items.mjs', shopSchema([ITEM, HELD, { name: 'getNewer', path: '/newer' }], { broken: true }), () =>
      logEntries(stderr().slice(logged)).some((entry) => entry.level === 40),
    );
    // One structured entry at warn (pino's 40) for the file, with its findings.
    const warning = logEntries(stderr().slice(logged)).find((entry) => entry.level === 40);
    expect(warning).toMatchObject({
      msg: 'schema file has errors; the version served before stays served',
      file: expect.stringMatching(/items\.mjs$/),
    });
    expect(warning?.findings).toEqual([expect.stringMatching(/\S+ error .*items\.mjs/)]);
    expect(await toolNames()).toEqual(['shop_getHeld', 'shop_getItem', 'shop_getNew']);
    const result = await client.callTool({ name: 'shop_getNew', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain('/new');

    // Fixed, the file serves its new version.
    await edit('items.mjs', shopSchema([ITEM, HELD, { name: 'getNewer', path: '/newer' }]));
    expect(await toolNames()).toEqual(['shop_getHeld', 'shop_getItem', 'shop_getNewer']);
  }, 30_000);

  it('finishes a call in flight during a swap on the version it started with', async () => {
    const call = client.callTool({ name: 'shop_getHeld', arguments: {} });
    expect(await waitFor(() => upstream.held() === 1, 10_000)).toBe(true);
    // The held route goes away in the new version.
    await edit('items.mjs', shopSchema([ITEM]));
    expect(await toolNames()).toEqual(['shop_getItem']);
    upstream.release();
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain('/held');
    // A new call meets the new catalog.
    const gone = await client.callTool({ name: 'shop_getHeld', arguments: {} }).catch((error: Error) => error);
    expect(String(gone)).toContain('Unknown tool: shop_getHeld');
  }, 30_000);
});

it('refuses --watch with --group: a group serves its files as recorded', () => {
  const run = runFlowguardSync(
    ['serve', '--watch', '--group', 'any', '--schemas', project.schemas, '--project', project.dir],
    { timeoutMs: 15_000 },
  );
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('--watch cannot serve a --group');
});
