// `flowguard call` as an operator runs it: the command run in-process (test/kit/cli.ts), real
// files. A tool whose key is missing fails before anything is sent, and the operator, who is the
// one running the command, is told the line that grants the key, the same line `list` shows.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runFlowguard } from '../kit/cli.js';

const work = mkdtempSync(join(tmpdir(), 'flowguard-call-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const KEYED = `export const main = {
    namespace: 'keyed',
    name: 'KeyedApi',
    description: 'An API that needs a key.',
    version: '2.0.0',
    root: 'https://api.keyed.example',
    requiredServerParams: ['KEYED_TOKEN'],
    headers: { 'x-token': '{{SERVER_PARAM:KEYED_TOKEN}}' },
    routes: {
        getStatus: {
            method: 'GET',
            path: '/status',
            description: 'The service status.',
            parameters: [],
            output: { mimeType: 'application/json', schema: { type: 'object' } },
            tests: [ { _description: 'the status' } ],
        },
    },
};
`;

it('names the line that grants a missing key, as list does, and exits 1', async () => {
  mkdirSync(join(work, 'schemas', 'keyed'), { recursive: true });
  writeFileSync(join(work, 'schemas', 'keyed', 'keyed.mjs'), KEYED);
  const call = await runFlowguard(['call', 'keyed_getStatus'], { cwd: work });
  expect(call.code).toBe(1);
  expect(call.stdout).toContain('error (missing-keys): keyed_getStatus needs KEYED_TOKEN');
  expect(call.stderr).toBe('  KEYED_TOKEN not set (grant: KEYED_TOKEN=... in .env)\n');
  const list = await runFlowguard(['list'], { cwd: work });
  expect(list.stdout).toContain('hidden: KEYED_TOKEN not set (grant: KEYED_TOKEN=... in .env)');

  // Granted, the same call gets past the key (a dry run sends nothing) and says nothing of it.
  writeFileSync(join(work, '.env'), 'KEYED_TOKEN=secret-value\n');
  const granted = await runFlowguard(['call', 'keyed_getStatus', '--dry-run'], { cwd: work });
  expect(granted).toMatchObject({ code: 0, stderr: '' });
  expect(granted.stdout).toContain('GET https://api.keyed.example/status');
});
