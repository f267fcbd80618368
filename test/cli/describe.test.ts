// `flowguard describe <tool>` (issue 27, point 8: no command showed one tool's input schema): the
// command (run in-process, test/kit/cli.ts) prints exactly the definition a client gets from `tools/list` of a server in
// `--tools all` mode, names a tool whose key is missing, and refuses an unknown tool.

import { join } from 'node:path';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFlowguard } from '../kit/cli.js';
import { tempProject } from '../support/project.js';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { BIN, connectStdio, ROOT } from '../mcp/helpers.js';

const SCHEMAS = join(ROOT, 'test', 'fixtures', 'discovery', 'schemas');
const project = tempProject({ audit: { enabled: false } });
let upstream: Upstream;
let listed: McpTool[];

beforeAll(async () => {
  upstream = await startUpstream((_req, res) => res.end('{}'));
  const server = await connectStdio(upstream as never, [
    BIN,
    'serve',
    '--schemas',
    SCHEMAS,
    '--project',
    project.dir,
    '--upstream',
    `*=${upstream.origin}`,
    '--tools',
    'all',
    '--transport',
    'stdio',
  ]);
  try {
    listed = (await server.client.listTools()).tools;
  } finally {
    await server.close();
  }
}, 30_000);

afterAll(async () => {
  project.remove();
  await upstream?.close();
});

/** `flowguard describe <name>` in-process (test/kit/cli.ts). */
function describeTool(name: string) {
  return runFlowguard(['describe', name, '--schemas', SCHEMAS, '--project', project.dir]);
}

describe('flowguard describe', () => {
  it("prints a served tool's definition exactly as tools/list gives it, by name or by reference", async () => {
    const tool = listed.find((entry) => entry.name === 'skyline_getSevereWarnings');
    expect(tool?.inputSchema.properties).toBeDefined();
    const byName = await describeTool('skyline_getSevereWarnings');
    expect(byName.code, byName.stderr).toBe(0);
    expect(JSON.parse(byName.stdout)).toEqual(tool);
    const byReference = await describeTool(tool?.title ?? '');
    expect(JSON.parse(byReference.stdout)).toEqual(tool);
  });

  it('describes a tool whose key is not granted, and says on stderr that it is not served', async () => {
    const hidden = await describeTool('goldvault_getBullionPrice');
    expect(hidden.code).toBe(0);
    expect((JSON.parse(hidden.stdout) as McpTool).name).toBe('goldvault_getBullionPrice');
    expect(hidden.stderr).toMatch(/goldvault_getBullionPrice is not served: \S+ not granted or held back/);
  });

  it('refuses an unknown tool (exit 2), naming it', async () => {
    const unknown = await describeTool('nothing_here');
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain("no tool named 'nothing_here'");
  });
});
