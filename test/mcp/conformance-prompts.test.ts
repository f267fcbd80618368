// The official MCP conformance scenarios for prompts (@modelcontextprotocol/conformance 0.1.13)
// against a real `flowguard serve --transport http` on loopback, serving the FlowMCP prompt files
// of test/fixtures/conformance/ that express what each scenario asks for. Every check of every
// scenario must pass; the results are read from the CLI's own `-o` output.

import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait.js';
import { BIN, ROOT, spawnServe, type Spawned } from './helpers.js';

const CONFORMANCE = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'conformance');
const SCENARIOS = [
  'prompts-list',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
];

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

let server: Spawned;
let url: string;
let project: string;
let results: string;
beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'flowguard-conformance-'));
  results = mkdtempSync(join(tmpdir(), 'flowguard-conformance-results-'));
  server = spawnServe([
    BIN,
    'serve',
    '--schemas',
    FIXTURES,
    '--project',
    project,
    '--transport',
    'http',
    '--port',
    '0',
  ]);
  const listening = /serving \d+ tools? at (http:\/\/127\.0\.0\.1:\d+\/mcp)/;
  expect(await waitFor(() => listening.test(server.stderr()), 20_000), server.stderr()).toBe(true);
  url = listening.exec(server.stderr())?.[1] as string;
});
afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  rmSync(project, { recursive: true, force: true });
  rmSync(results, { recursive: true, force: true });
});

describe('MCP conformance, prompts scenarios', () => {
  it.each(SCENARIOS)(
    '%s: every check passes',
    async (scenario) => {
      const output = join(results, scenario);
      const run = await promisify(execFile)(
        process.execPath,
        [CONFORMANCE, 'server', '--url', url, '--scenario', scenario, '-o', output],
        { cwd: ROOT, timeout: 60_000 },
      ).catch((error: { code?: number; stdout?: string; stderr?: string }) => error);
      const [folder] = readdirSync(output);
      const checks = JSON.parse(readFileSync(join(output, folder as string, 'checks.json'), 'utf8')) as Check[];
      expect(checks.length).toBeGreaterThan(0);
      expect(
        checks.filter((check) => check.status !== 'SUCCESS'),
        `${run.stdout ?? ''}${run.stderr ?? ''}`,
      ).toEqual([]);
      expect('code' in run ? run.code : 0).toBe(0);
    },
    90_000,
  );
});
