// 4.x selections as focused endpoints (issue 25, point 4): the `selections/` folder beside the
// schema folder, each selection verified as `serve --group` verifies a group, served at
// `/mcp/<name>` and by `serve --group <name>`. Attacked with the official SDK client over
// Streamable HTTP and stdio against spawned servers on a copy of the mcp fixture catalog: a
// selection endpoint lists and calls only its tools; a selection with an unknown tool id is
// refused (404 naming SEL003, the summary pointing at the id's line); a selection that takes a
// group's name leaves the group's endpoint as it is and says so (SEL001).

import { spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, toolNames } from '../kit/mcp.js';
import { LIST_BODY, MCP_HEADERS, rawRequest } from '../edge/helpers.js';
import { waitFor } from '../support/wait.js';
import {
  BIN,
  connectStdio,
  PROJECT,
  ROOT,
  SCHEMAS,
  spawnServe,
  startCatalogUpstream,
  type CatalogUpstream,
  type Spawned,
} from '../mcp/helpers.js';

const selection = (name: string, tools: string[]) => `// A selection of the test catalog.
export const selection = {
    namespace: 'test',
    name: '${name}',
    version: 'flowmcp/4.0.0',
    description: 'Tools for ${name}',
    whenToUse: 'When the user asks about ${name}.',
    tools: [
${tools.map((id) => `        '${id}'`).join(',\n')}
    ],
    skills: [],
    resources: [],
    prompts: []
}
`;

let upstream: CatalogUpstream;
let root: string;
let schemas: string;
beforeAll(async () => {
  upstream = await startCatalogUpstream();
  // A copy: the selections folder sits beside the schema folder, and the shared fixture must keep none.
  root = mkdtempSync(join(tmpdir(), 'flowguard-selections-'));
  schemas = join(root, 'schemas');
  cpSync(SCHEMAS, schemas, { recursive: true });
  mkdirSync(join(root, '.flowmcp'));
  copyFileSync(join(PROJECT, '.flowmcp', 'config.json'), join(root, '.flowmcp', 'config.json'));
  mkdirSync(join(root, 'selections', 'test'), { recursive: true });
  // By the 4.x id (namespace/tool/name) and by flowguard's reference.
  writeFileSync(
    join(root, 'selections', 'test', 'widget-desk.mjs'),
    selection('widget-desk', ['widgets/tool/getWidget', 'widgets/catalog.mjs::listWidgets']),
  );
  writeFileSync(
    join(root, 'selections', 'test', 'broken.mjs'),
    selection('broken', ['widgets/tool/getWidget', 'widgets/tool/getGadget']),
  );
  writeFileSync(join(root, 'selections', 'test', 'media.mjs'), selection('media', ['widgets/tool/getWidget']));
  const created = spawnSync(
    process.execPath,
    [BIN, 'group', 'create', 'media', '--tools', 'media/files.mjs::getReadme', '--schemas', schemas, '--project', root],
    { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } },
  );
  expect(created.status, created.stdout + created.stderr).toBe(0);
});
afterAll(async () => {
  await upstream?.close();
  rmSync(root, { recursive: true, force: true });
});

async function connect(url: string): Promise<Client> {
  return (await connectHttp(url)).client;
}

const names = toolNames;

describe('a spawned flowguard serve --transport http with a selections folder', () => {
  let server: Spawned;
  let url: string;
  beforeAll(async () => {
    server = spawnServe([
      BIN,
      'serve',
      '--schemas',
      schemas,
      '--project',
      root,
      '--upstream',
      `*=${upstream.origin}`,
      '--transport',
      'http',
      '--port',
      '0',
    ]);
    expect(await waitFor(() => /serving \d+ tools? at (\S+)/.test(server.stderr()), 20_000), server.stderr()).toBe(
      true,
    );
    url = (/serving \d+ tools? at (\S+)/.exec(server.stderr()) as RegExpExecArray)[1] as string;
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  it('lists each selection in the summary and the connect lines, with the findings of those refused at their line', () => {
    const stderr = server.stderr();
    expect(stderr).toContain(
      `flowguard: selection endpoints (${join(root, 'selections')}, each verified as serve --group verifies):`,
    );
    expect(stderr).toContain('  /mcp/widget-desk: 2 of its 2 tools served');
    // The unknown id is named where it stands: line 10 of broken.mjs.
    expect(stderr).toMatch(
      / {2}\/mcp\/broken: NOT served, the selection .*broken\.mjs does not verify:\n {4}SEL003 error .*broken\.mjs:10:9.*'widgets\/tool\/getGadget' resolves to no loaded tool/,
    );
    expect(stderr).toMatch(
      / {2}\/mcp\/media: NOT served, the selection .*media\.mjs does not verify:\n {4}SEL001 error .*media\.mjs:4:\d+.*the name 'media' is taken by a group of groups\.json/,
    );
    expect(stderr).toContain(`    ${url}/widget-desk  (selection widget-desk: only its tools)`);
    expect(stderr).toContain(`    ${url}/media  (group media: only its tools)`);
    expect(stderr).not.toContain(`${url}/broken `);
  });

  it('serves at a selection endpoint only its tools, and refuses the others', async () => {
    const desk = await connect(`${url}/widget-desk`);
    try {
      expect(await names(desk)).toEqual(['widgets_getWidget', 'widgets_listWidgets']);
      const answer = await desk.callTool({ name: 'widgets_getWidget', arguments: { id: 'w-5' } });
      expect(answer.isError).toBeFalsy();
      expect(JSON.stringify(answer.content)).toContain('w-5');
      await expect(desk.callTool({ name: 'media_getReadme', arguments: {} })).rejects.toThrow(
        /Unknown tool: media_getReadme/,
      );
    } finally {
      await desk.close();
    }
  });

  it('refuses the unverifiable selection with a 404 naming the finding, and keeps the group that has the name a selection wanted', async () => {
    const broken = await rawRequest(`${url}/broken`, { method: 'POST', headers: MCP_HEADERS, body: LIST_BODY });
    expect(broken.status).toBe(404);
    expect(broken.body).toMatch(
      /selection 'broken' is not served: .*broken\.mjs does not verify \(SEL003: 'widgets\/tool\/getGadget' resolves to no loaded tool\)/,
    );
    const media = await connect(`${url}/media`);
    try {
      expect(await names(media)).toEqual(['media_getReadme']);
    } finally {
      await media.close();
    }
  });
  // Paths a client writes to reach another endpoint than it names, sent exactly as written (a
  // URL object would tidy them first). Each reaches the endpoint the server's URL parser makes of
  // it, or none: never a group's tools at a path that does not name that group.
  const NONE = 'no endpoint (404)';
  it.each([
    ['/mcp/widget-desk/', NONE],
    ['/mcp//widget-desk', NONE],
    ['/mcp/Widget-Desk', NONE],
    ['/mcp/widget-desk%2F..%2Fmedia', NONE],
    ['/mcp/%2e%2e/mcp/media', 'media, whose first tool is media_getReadme'],
    ['/mcp/media/..', NONE],
    ['/mcp/media/%2e%2e/widget-desk', 'widget-desk, whose first tool is widgets_getWidget'],
    ['/mcp/widgets_getWidget', NONE],
    ['/mcp/widget-desk%00', NONE],
    ['/mcp/media%20', NONE],
    ['/mcp/broken', NONE],
    [`/mcp/${'a'.repeat(10_000)}`, NONE],
  ])('the path %s reaches %s', async (path, firstTool) => {
    const answer = await rawPathRequest(url, path);
    if (firstTool === NONE) {
      expect(answer.status, answer.body.slice(0, 300)).toBe(404);
      // No listing, and the path is cut where the message names it.
      expect(answer.body).not.toContain('"tools"');
      expect(answer.body.length).toBeLessThan(2000);
    } else {
      expect(answer.status, answer.body.slice(0, 300)).toBe(200);
      expect(firstTool).toContain(`first tool is ${/"name":"(\w+)"/.exec(answer.body)?.[1]}`);
    }
  });
});

/** A tools/list POSTed to `path` exactly as written, on the server at `base`. */
function rawPathRequest(base: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method: 'POST', headers: MCP_HEADERS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(LIST_BODY);
  });
}

describe('serve --group with a selection name', () => {
  it("serves the selection's tools over stdio, as a group", async () => {
    const connection = await connectStdio(upstream, [
      BIN,
      'serve',
      '--schemas',
      schemas,
      '--project',
      root,
      '--upstream',
      `*=${upstream.origin}`,
      '--transport',
      'stdio',
      '--group',
      'widget-desk',
    ]);
    try {
      expect(await names(connection.client)).toEqual(['widgets_getWidget', 'widgets_listWidgets']);
      expect(connection.stderr()).toContain('flowguard: group widget-desk: 2 of its 2 tools served');
    } finally {
      await connection.close();
    }
  });

  it('refuses an unverifiable selection, saying why, and serves nothing', () => {
    const run = spawnSync(
      process.execPath,
      [BIN, 'serve', '--schemas', schemas, '--project', root, '--transport', 'stdio', '--group', 'broken'],
      { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' }, input: '' },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/group 'broken' cannot be served/);
    expect(run.stderr).toMatch(
      /SEL003 error .*broken\.mjs:10:9.*'widgets\/tool\/getGadget' resolves to no loaded tool/,
    );
  });
});
