// The connect instructions `serve --transport http` prints, for a server that requires a token:
// every line that reaches the URL carries the Authorization header, with the token left to the
// shell or to the reader (never the token itself), and the header those lines make is the one the
// real server accepts. A server without a token prints no header.

import { execFileSync, spawn } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BIN, makeProject, shopSchema } from '../reload/helpers.js';
import { waitFor } from '../support/wait.js';

const TOKEN = 'connect-help-token-0123456789abcdef';
const project = makeProject({ 'items.mjs': shopSchema([{ name: 'getItem', path: '/items' }]) });
afterAll(() => project.remove());

/** Starts the server, returns what it printed up to its last connect line and a stop function. */
async function serve(env: NodeJS.ProcessEnv): Promise<{ stderr: string; url: string; stop: () => void }> {
  const args = [
    BIN,
    'serve',
    '--transport',
    'http',
    '--port',
    '0',
    '--schemas',
    project.schemas,
    '--project',
    project.dir,
  ];
  const server = spawn(process.execPath, args, { cwd: project.dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  server.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  // The last connect line, whole: the Claude Desktop entry that starts its own server with this Node.
  const ready = await waitFor(
    () =>
      stderr
        .split('\n')
        .slice(0, -1)
        .some(
          (line) => line.includes('"mcpServers"') && line.includes(`"command":${JSON.stringify(process.execPath)}`),
        ),
    20_000,
  );
  if (!ready) server.kill('SIGTERM');
  expect(ready, stderr).toBe(true);
  const url = /serving \d+ tools? at (http:\/\/\S+) \(/.exec(stderr)?.[1] as string;
  return { stderr, url, stop: () => server.kill('SIGTERM') };
}

async function toolNames(url: string, headers: Record<string, string>): Promise<string[]> {
  const client = new Client({ name: 'connect-help-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}

it('with a token: the Inspector, mcp-remote and Claude Desktop lines carry the header, never the token, and that header is accepted', async () => {
  const { stderr, url, stop } = await serve({ ...process.env, FLOWGUARD_AUTH_TOKEN: TOKEN });
  try {
    expect(stderr).not.toContain(TOKEN);
    const lines = stderr.split('\n');
    const inspector = lines.find((line) => line.includes('@modelcontextprotocol/inspector --cli'));
    const remote = lines.find((line) => line.trim().startsWith('npx -y mcp-remote'));
    expect(inspector).toContain(`--header "Authorization: Bearer $FLOWGUARD_AUTH_TOKEN"`);
    expect(remote).toBe(`    npx -y mcp-remote ${url} --header "Authorization: Bearer $FLOWGUARD_AUTH_TOKEN"`);

    // The shell line as a shell expands it, with the operator's variable set: the header the server accepts.
    const quoted = /--header "([^"]+)"/.exec(remote as string)?.[1] as string;
    const expanded = execFileSync('sh', ['-c', `printf %s "${quoted}"`], {
      env: { PATH: process.env.PATH, FLOWGUARD_AUTH_TOKEN: TOKEN },
      encoding: 'utf8',
    });
    const [name, value] = [expanded.slice(0, expanded.indexOf(':')), expanded.slice(expanded.indexOf(':') + 1).trim()];
    expect(await toolNames(url, { [name]: value })).toEqual(['shop_getItem']);

    // Claude Desktop through mcp-remote: its header argument, with the env value's placeholder filled in.
    const entries = lines
      .filter((line) => line.includes('"mcpServers"'))
      .map(
        (line) =>
          JSON.parse(line) as {
            mcpServers: { flowguard: { command: string; args: string[]; env?: Record<string, string> } };
          },
      );
    const desktop = entries.find((entry) => entry.mcpServers.flowguard.args.includes('mcp-remote'))?.mcpServers
      .flowguard;
    expect(desktop?.args).toEqual(['-y', 'mcp-remote', url, '--header', 'Authorization:${AUTH_HEADER}']);
    expect(desktop?.env?.AUTH_HEADER).toBe('Bearer <token>');
    const header = (desktop?.args[4] as string).replace(
      '${AUTH_HEADER}',
      (desktop?.env?.AUTH_HEADER as string).replace('<token>', TOKEN),
    );
    expect(
      await toolNames(url, { [header.slice(0, header.indexOf(':'))]: header.slice(header.indexOf(':') + 1) }),
    ).toEqual(['shop_getItem']);

    // Without the header the same server refuses: the lines above are what a client needs.
    await expect(toolNames(url, {})).rejects.toThrow(/Unauthorized/);
  } finally {
    stop();
  }
}, 60_000);

it('without a token: no header in any line', async () => {
  const env = { ...process.env };
  delete env.FLOWGUARD_AUTH_TOKEN;
  const { stderr, url, stop } = await serve(env);
  try {
    expect(stderr).not.toContain('Authorization');
    expect(stderr).toContain(`npx @modelcontextprotocol/inspector --cli ${url} --transport http --method tools/list\n`);
    expect(await toolNames(url, {})).toEqual(['shop_getItem']);
  } finally {
    stop();
  }
}, 60_000);
