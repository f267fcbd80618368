// `flowguard serve --transport http --oauth-issuer` (issue 28, points 2 and 3) as an operator runs
// it: a spawned server whose config maps callers to identities, a real OpenID provider on loopback
// issuing the tokens, the official SDK client. An identity matched by its OAuth client sees and
// calls only the tools of its group (groups.json, verified as `serve --group` verifies); one named
// by a static token only the read-only tools of its namespace; the audit line and the log line
// of each call name the identity, subject and client, and never hold the token; the start-up
// lines say how to connect each common client with OAuth.

import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, toolNames } from '../kit/mcp.js';
import { waitFor } from '../support/wait.js';
import {
  BIN,
  PROJECT,
  ROOT,
  SCHEMAS,
  spawnServe,
  startCatalogUpstream,
  type CatalogUpstream,
  type Spawned,
} from '../mcp/helpers.js';
import { startProvider, type TestClient, type TestProvider } from './provider.js';

const ALICE: TestClient = { id: 'alice', secret: 'alice-secret-0123456789abcdef', scope: 'tools:call' };
const STATIC_TOKEN = 'ops-static-token-0123456789abcdef';
const SHOP = ['widgets/catalog.mjs::getWidget', 'widgets/catalog.mjs::listWidgets'];

let provider: TestProvider;
let upstream: CatalogUpstream;
let project: string;
let server: Spawned;
let url: string;

beforeAll(async () => {
  provider = await startProvider([ALICE]);
  upstream = await startCatalogUpstream();
  project = mkdtempSync(join(tmpdir(), 'flowguard-oauth-'));
  mkdirSync(join(project, '.flowmcp'));
  copyFileSync(join(PROJECT, '.flowmcp', 'config.json'), join(project, '.flowmcp', 'config.json'));
  const created = spawnSync(
    process.execPath,
    [BIN, 'group', 'create', 'shop', '--tools', SHOP.join(','), '--schemas', SCHEMAS, '--project', project],
    { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } },
  );
  expect(created.status, created.stdout + created.stderr).toBe(0);
  const config = JSON.parse(readFileSync(join(project, '.flowmcp', 'config.json'), 'utf8')) as Record<string, unknown>;
  config.oauth = { requiredScopes: ['tools:call'] };
  config.identities = {
    shop: { match: { clients: ['alice'] }, groups: ['shop'] },
    ops: {
      tokens: [`sha256:${createHash('sha256').update(STATIC_TOKEN).digest('hex')}`],
      namespaces: ['media'],
      readOnly: true,
    },
  };
  writeFileSync(join(project, '.flowmcp', 'config.json'), JSON.stringify(config));
  server = spawnServe([
    BIN,
    'serve',
    '--schemas',
    SCHEMAS,
    '--project',
    project,
    '--upstream',
    `*=${upstream.origin}`,
    '--transport',
    'http',
    '--port',
    '0',
    '--oauth-issuer',
    provider.issuer,
  ]);
  expect(await waitFor(() => /serving \d+ tools? at (\S+)/.test(server.stderr()), 20_000), server.stderr()).toBe(true);
  url = (/serving \d+ tools? at (\S+)/.exec(server.stderr()) as RegExpExecArray)[1] as string;
  // Three processes start here (group create, serve and its sandbox): on a loaded machine that takes more than the default 10 s.
}, 60_000);
afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  await upstream?.close();
  await provider?.close();
  rmSync(project, { recursive: true, force: true });
});

async function connect(token: string): Promise<Client> {
  return (await connectHttp(url, { authorization: `Bearer ${token}` })).client;
}

const names = toolNames;

function auditText(): string {
  const folder = join(project, '.flowmcp', 'audit');
  return readdirSync(folder)
    .map((file) => readFileSync(join(folder, file), 'utf8'))
    .join('');
}

describe('a spawned serve with --oauth-issuer and identities', () => {
  it('says how to connect each common client with OAuth', () => {
    const stderr = server.stderr();
    expect(stderr).toContain(
      `every request needs an OAuth access token from ${provider.issuer} for the resource ${url}`,
    );
    expect(stderr).toContain(`${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`);
    expect(stderr).toMatch(/npx -y mcp-remote \S+ 3334 --static-oauth-client-info '\{"client_id":"<client id>"\}'/);
    expect(stderr).toContain('npx @modelcontextprotocol/inspector');
    expect(stderr).toContain('Add custom connector');
    expect(stderr).toContain(
      `new StreamableHTTPClientTransport(new URL('${url}'), { authProvider: new ClientCredentialsProvider({ clientId, clientSecret }) })`,
    );
  });

  it('serves the identity matched by its OAuth client only the tools of its group', async () => {
    const token = await provider.token(ALICE, url);
    const client = await connect(token);
    expect(await names(client)).toEqual(['widgets_getWidget', 'widgets_listWidgets']);
    const answer = await client.callTool({ name: 'widgets_getWidget', arguments: { id: 'w-5' } });
    expect(answer.isError).toBeFalsy();
    await expect(client.callTool({ name: 'media_getReadme', arguments: {} })).rejects.toThrow(
      /Unknown tool: media_getReadme/,
    );
    await client.close();

    // The audit line and the log line name the caller; neither holds the token.
    expect(await waitFor(() => auditText().includes('widgets_getWidget'), 5_000)).toBe(true);
    const line = auditText()
      .split('\n')
      .find((entry) => entry.includes('"widgets_getWidget"')) as string;
    expect(JSON.parse(line).caller).toEqual({ identity: 'shop', subject: 'alice', client: 'alice' });
    expect(
      await waitFor(
        () =>
          /"msg":"call".*"caller":\{"identity":"shop","subject":"alice","client":"alice"\}|"caller":\{"identity":"shop","subject":"alice","client":"alice"\}.*"msg":"call"/.test(
            server.stderr(),
          ),
        5_000,
      ),
      server.stderr().slice(-2000),
    ).toBe(true);
    const signature = token.split('.')[2] as string;
    expect(auditText()).not.toContain(signature);
    expect(server.stderr()).not.toContain(signature);
  });

  it('serves the identity a static token names only the read-only tools of its namespace', async () => {
    const client = await connect(STATIC_TOKEN);
    const listed = await names(client);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((name) => name.startsWith('media_'))).toBe(true);
    // media_clearCache writes (not a GET): it is not this identity's.
    expect(listed).not.toContain('media_clearCache');
    expect(listed).toContain('media_getReadme');
    await client.close();
  });

  it('refuses a request without a token with the OAuth challenge', async () => {
    const answer = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource/mcp"`,
    );
  });
});
