// `flowguard serve` as an operator runs it, in child processes: calls over stdio (the SDK client
// starting the server) and over Streamable HTTP leave one audit line each, in files rotated by
// size; structured logs at info on stderr (one line per call), a sandbox worker replaced at
// warn; stdout carries the protocol and nothing else; no key value in any audit or log line,
// though the caller and the upstream both echo it. `flowguard audit` reads the lines back.

import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { connectHttp, connectStdio, spawnHttpServer } from '../kit/mcp.js';
import { BIN, ROOT, runFlowguard, type CliRun } from '../kit/spawn.js';
import { waitFor } from '../support/wait.js';
import { keyLeaks, KEY, observedProject, SCHEMA_FILE, type ObservedProject } from './fixture.js';

/** Small files, so that a few calls rotate; enough of them that none is removed. */
const CONFIG = { audit: { maxBytes: 1024, files: 50 }, sandbox: { deadlineMs: 300 } };

let project: ObservedProject | undefined;
afterEach(async () => {
  await project?.close();
  project = undefined;
});

/** Every audit line of the project, parsed, oldest file first. */
function auditLines(dir: string): Array<Record<string, unknown>> {
  const folder = join(dir, '.flowmcp', 'audit');
  let files: string[];
  try {
    files = readdirSync(folder).sort();
  } catch {
    return [];
  }
  return files.flatMap((file) =>
    readFileSync(join(folder, file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>),
  );
}

function auditText(dir: string): string {
  const folder = join(dir, '.flowmcp', 'audit');
  return readdirSync(folder)
    .map((file) => readFileSync(join(folder, file), 'utf8'))
    .join('');
}

/** The calls every transport makes: the key echoed in an argument, a failure whose body holds the key, a handler's two requests. */
async function makeCalls(client: Client): Promise<void> {
  await client.callTool({ name: 'audited_lookup', arguments: { mode: 'echo', q: KEY } });
  await client.callTool({ name: 'audited_lookup', arguments: { mode: 'fail' } });
  await client.callTool({ name: 'audited_twice', arguments: {} });
  await client.callTool({ name: 'audited_lookup', arguments: { mode: 'echo', q: 'eth' } });
}

function expectAudited(dir: string): void {
  const lines = auditLines(dir);
  expect(lines.map((line) => [line.tool, line.outcome])).toEqual([
    ['audited_lookup', 'ok'],
    ['audited_lookup', 'upstream-status'],
    ['audited_twice', 'ok'],
    ['audited_lookup', 'ok'],
  ]);
  expect(lines[0]).toMatchObject({
    reference: `audited/${SCHEMA_FILE}::lookup`,
    arguments: { mode: 'echo', q: '[redacted AUDIT_KEY]' },
    requests: [{ origin: 'https://api.audited.test', method: 'GET', status: 200 }],
  });
  expect((lines[2]?.requests as unknown[]).length).toBe(2);
  // Four lines of 300 to 500 bytes in files of at most 1024: rotated.
  expect(readdirSync(join(dir, '.flowmcp', 'audit')).length).toBeGreaterThan(1);
  expect(keyLeaks(auditText(dir))).toEqual([]);
}

/** The JSON log lines among what the server wrote to stderr (the start-up summary is plain text). */
function logLines(stderr: string): Array<Record<string, unknown>> {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('serve over stdio', () => {
  it('writes an audit line per call, rotated by size, and a log line per call on stderr, with no key in either', async () => {
    project = await observedProject(CONFIG);
    const {
      client,
      errors,
      stderr: written,
      close,
    } = await connectStdio(['--schemas', project.schemas, '--project', project.dir]);
    await makeCalls(client);
    await close();
    // The server writes what it queued while it shuts down (stdin closed).
    const { dir } = project;
    expect(await waitFor(() => auditLines(dir).length >= 4 && written().includes('shutting down'), 15_000)).toBe(true);
    const stderr = written();
    expectAudited(dir);
    const calls = logLines(stderr).filter((line) => line.msg === 'call');
    expect(calls.map((line) => [line.level, line.tool, line.outcome, typeof line.ms])).toEqual([
      [30, 'audited_lookup', 'ok', 'number'],
      [30, 'audited_lookup', 'upstream-status', 'number'],
      [30, 'audited_twice', 'ok', 'number'],
      [30, 'audited_lookup', 'ok', 'number'],
    ]);
    expect(keyLeaks(stderr)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('logs a file it does not serve and a key it does not grant at warn, without the key value', async () => {
    project = await observedProject(CONFIG);
    writeFileSync(join(project.schemas, 'broken.mjs'), "export const main = { namespace: 'broken', routes: 'none' }\n");
    writeFileSync(
      join(project.schemas, 'keyed.mjs'),
      readFileSync(join(project.schemas, SCHEMA_FILE), 'utf8')
        .replace("namespace: 'audited'", "namespace: 'keyed'")
        .replaceAll('AUDIT_KEY', 'KEYED_KEY'),
    );
    const child = spawn(process.execPath, [BIN, 'serve', '--schemas', project.schemas, '--project', project.dir], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', KEYED_KEY: 'in-the-environment-only' },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(await waitFor(() => stderr.includes('serving '), 15_000), stderr).toBe(true);
    child.stdin.end();
    expect(await exited).toBe(0);
    const warnings = logLines(stderr).filter((line) => line.level === 40);
    expect(warnings).toContainEqual(
      expect.objectContaining({
        msg: 'file not served',
        file: expect.stringMatching(/broken\.mjs$/),
        finding: expect.stringContaining('error'),
      }),
    );
    expect(warnings).toContainEqual(
      expect.objectContaining({
        msg: 'key not granted; its tools are hidden',
        key: 'KEYED_KEY',
        namespace: 'keyed',
        reason: 'in the environment but not granted',
        grant: expect.stringContaining('KEYED_KEY'),
      }),
    );
    expect(stderr).not.toContain('in-the-environment-only');
  });

  it('keeps stdout to the protocol with logs at debug, and logs a replaced sandbox worker at warn', async () => {
    project = await observedProject(CONFIG);
    // A route whose handler never returns: the host replaces its worker at the deadline.
    writeFileSync(join(project.schemas, 'spin.mjs'), SPIN_SCHEMA);
    const child = spawn(
      process.execPath,
      [BIN, 'serve', '--schemas', project.schemas, '--project', project.dir, '--log-level', 'debug'],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '' }, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(await waitFor(() => stdout.includes('"id":1'), 15_000)).toBe(true);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'audited_lookup', arguments: { mode: 'echo', q: KEY } },
    });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'spin_forever', arguments: {} } });
    expect(await waitFor(() => stdout.includes('"id":2') && stdout.includes('"id":3'), 15_000)).toBe(true);
    child.stdin.end();
    expect(await exited).toBe(0);
    for (const line of stdout.split('\n').filter(Boolean)) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    const logs = logLines(stderr);
    expect(logs.filter((line) => line.msg === 'call').map((line) => [line.tool, line.outcome])).toEqual([
      ['audited_lookup', 'ok'],
      ['spin_forever', 'handler'],
    ]);
    expect(logs.filter((line) => line.level === 40 && line.sandbox === 'worker-replaced')).toHaveLength(1);
    expect(keyLeaks(stdout + stderr)).toEqual([]);
  });
});

describe('serve that cannot start', () => {
  it('says a taken port before the catalog loads (issue 27, point 8), and stops with nothing loaded', async () => {
    project = await observedProject(CONFIG);
    writeFileSync(join(project.schemas, 'broken.mjs'), "export const main = { namespace: 'broken', routes: 'none' }\n");
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const { code, stderr } = await runFlowguard([
        'serve',
        '--transport',
        'http',
        '--port',
        String(port),
        '--schemas',
        project.schemas,
        '--project',
        project.dir,
      ]);
      expect(code, stderr).toBe(2);
      expect(stderr).toContain(`port ${port} on 127.0.0.1 is in use`);
      // Nothing was loaded: no file was judged, no summary printed.
      expect(logLines(stderr).filter((line) => line.msg === 'file not served')).toEqual([]);
      expect(stderr).not.toMatch(/tools? served|schema files?/);
    } finally {
      taken.close();
    }
  });
});

describe('serve over Streamable HTTP, and flowguard audit', () => {
  it('writes an audit line per call, which flowguard audit reads back by tool and time', async () => {
    project = await observedProject(CONFIG);
    const { dir } = project;
    const server = await spawnHttpServer(['--schemas', project.schemas, '--project', dir], { readyMs: 15_000 });
    const { client, close } = await connectHttp(server.url);
    await makeCalls(client);
    await close();
    expect(await server.stop()).toBe(0);
    const stderr = server.stderr();
    expectAudited(dir);
    expect(logLines(stderr).filter((line) => line.msg === 'call')).toHaveLength(4);
    expect(keyLeaks(stderr)).toEqual([]);

    const twice = await flowguard(['audit', '--project', dir, '--tool', 'audited_twice']);
    expect(twice.code).toBe(0);
    expect(twice.stdout).toMatch(
      /audited_twice +ok +[\d.]+ ms +GET https:\/\/api\.audited\.test 200, GET https:\/\/api\.audited\.test 500\n1 call matched\n$/,
    );
    const json = await flowguard(['audit', '--project', dir, '--json', '--since', '1h']);
    expect(
      json.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { tool: string }).tool),
    ).toEqual(['audited_lookup', 'audited_lookup', 'audited_twice', 'audited_lookup']);
    const future = await flowguard([
      'audit',
      '--project',
      dir,
      '--since',
      new Date(Date.now() + 3_600_000).toISOString(),
    ]);
    expect(future.stdout).toBe('0 calls matched\n');
    const reference = await flowguard([
      'audit',
      '--project',
      dir,
      '--tool',
      `audited/${SCHEMA_FILE}::lookup`,
      '--json',
    ]);
    expect(reference.stdout.trim().split('\n')).toHaveLength(3);
    const bad = await flowguard(['audit', '--project', dir, '--since', 'last week']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      "--since must be an ISO time (2026-05-01T12:00:00Z) or a span back from now (30s, 10m, 2h, 1d), not 'last week'",
    );
  });
});

function flowguard(args: string[]): Promise<CliRun> {
  return runFlowguard(args);
}

const SPIN_SCHEMA = `export const main = {
    namespace: 'spin',
    name: 'Spin',
    description: 'A handler that never returns.',
    version: '2.0.0',
    docs: [],
    tags: [],
    root: 'https://api.spin.test',
    routes: {
        forever: { method: 'GET', path: '/x', description: 'Spins.', parameters: [], tests: [{ _description: 'a' }] }
    }
};

export const handlers = ({ sharedLists, libraries }) => ({
    forever: {
        executeRequest: async ({ struct, payload }) => { for (;;) {} }
    }
});
`;
