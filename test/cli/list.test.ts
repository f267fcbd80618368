// `flowguard list` as an operator runs it: the command run in-process (test/kit/cli.ts), in a
// temporary project folder with a served schema, one whose key is missing, a rejected file and
// a 4.x file that loads without its broken route.

import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFlowguard } from '../kit/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CODES = join(ROOT, 'test', 'fixtures', 'codes');
const work = mkdtempSync(join(tmpdir(), 'flowguard-list-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A schema whose one route needs two keys, one in a header and one in the query. */
const KEYED = `export const main = {
    namespace: 'keyed',
    name: 'KeyedApi',
    description: 'An API that needs two keys.',
    version: '2.0.0',
    root: 'https://api.keyed.example',
    requiredServerParams: ['KEYED_TOKEN', 'KEYED_SECRET'],
    headers: { 'x-token': '{{SERVER_PARAM:KEYED_TOKEN}}' },
    routes: {
        getStatus: {
            method: 'GET',
            path: '/status',
            description: 'The service status.',
            parameters: [
                { position: { key: 'secret', value: '{{SERVER_PARAM:KEYED_SECRET}}', location: 'query' }, z: { primitive: 'string()', options: [] } },
            ],
            output: { mimeType: 'application/json', schema: { type: 'object' } },
            tests: [ { _description: 'the status' } ],
        },
    },
};
`;

function flowguard(args: string[], cwd: string, env: Record<string, string> = {}) {
  return runFlowguard(args, { cwd: cwd, env });
}

let dir: string;

/** Writes the project's `security.keys` (none when undefined). */
function grantKeys(keys: Record<string, string[]> | undefined): void {
  mkdirSync(join(dir, '.flowmcp'), { recursive: true });
  writeFileSync(join(dir, '.flowmcp', 'config.json'), JSON.stringify(keys ? { security: { keys } } : {}));
}

/** A 4.x file with informational fields: one route loads, the other (method PATCH) is dropped on its own (R1). */
const PARTIAL = `export const main = {
    namespace: 'partial-api',
    name: 'PartialApi',
    description: 'An API with one broken route.',
    version: '4.0.0',
    schemaVersion: '1.2.0',
    termsOfService: 'https://partial.example/terms',
    dataLicense: null,
    root: 'https://api.partial.example',
    tools: {
        listThings: {
            method: 'GET',
            path: '/things',
            description: 'Every thing.',
            parameters: [],
            tests: [ { _description: 'all things' } ],
        },
        updateThing: {
            method: 'PATCH',
            path: '/things',
            description: 'Rename a thing.',
            parameters: [],
            tests: [ { _description: 'rename' } ],
        },
    },
};
`;

beforeAll(async () => {
  dir = join(work, 'project');
  cpSync(join(CODES, 'GRP006', 'schemas'), join(dir, 'schemas'), { recursive: true });
  mkdirSync(join(dir, 'schemas', 'keyed'));
  writeFileSync(join(dir, 'schemas', 'keyed', 'keyed.mjs'), KEYED);
  mkdirSync(join(dir, 'schemas', 'broken'));
  // A root on http concerns the whole file: it is rejected (before issue 14 this was VAL051's trigger, now a warning).
  cpSync(join(CODES, 'VAL017', 'trigger.mjs'), join(dir, 'schemas', 'broken', 'search.mjs'));
  mkdirSync(join(dir, 'schemas', 'partial'));
  writeFileSync(join(dir, 'schemas', 'partial', 'partial.mjs'), PARTIAL);
});

interface ListJson {
  tools: Array<{
    name: string;
    reference: string;
    method: string;
    requiredKeys: string[];
    missingKeys: string[];
    keyProblems: Array<{ key: string; reason: string; fix: string }>;
    status: string;
  }>;
  rejected: Array<{ file: string; status: string; error: { code: string; message: string; line: number } }>;
  dropped: Array<{
    file: string;
    route: string;
    reference: string;
    status: string;
    error: { code: string; line: number };
  }>;
  schemas: Array<{
    file: string;
    namespace: string;
    version: string;
    routes: { declared: number; served: number };
    info: Record<string, string | null>;
  }>;
  summary: { tools: number; served: number; hidden: number; rejected: number; dropped: number };
}

describe('flowguard list', () => {
  it('--json gives every tool with name, reference, method, keys and status, and every rejected file with its first error', async () => {
    grantKeys({ KEYED_TOKEN: ['keyed'] });
    const { code, stdout } = await flowguard(['list', '--json'], dir, { KEYED_TOKEN: 't0ken-value' });
    expect(code).toBe(0);
    const list = JSON.parse(stdout) as ListJson;
    expect(list.tools).toEqual([
      {
        name: 'example_getThing',
        reference: 'example/things.mjs::getThing',
        method: 'GET',
        requiredKeys: [],
        missingKeys: [],
        keyProblems: [],
        status: 'served',
      },
      {
        name: 'example_searchThings',
        reference: 'example/things.mjs::searchThings',
        method: 'GET',
        requiredKeys: [],
        missingKeys: [],
        keyProblems: [],
        status: 'served',
      },
      {
        name: 'keyed_getStatus',
        reference: 'keyed/keyed.mjs::getStatus',
        method: 'GET',
        requiredKeys: ['KEYED_TOKEN', 'KEYED_SECRET'],
        missingKeys: ['KEYED_SECRET'],
        keyProblems: [{ key: 'KEYED_SECRET', reason: 'not set', fix: 'KEYED_SECRET=... in .env' }],
        status: 'hidden',
      },
      {
        name: 'partial-api_listThings',
        reference: 'partial-api/partial.mjs::listThings',
        method: 'GET',
        requiredKeys: [],
        missingKeys: [],
        keyProblems: [],
        status: 'served',
      },
    ]);
    expect(list.rejected).toHaveLength(1);
    expect(list.rejected[0]).toMatchObject({
      file: 'schemas/broken/search.mjs',
      status: 'rejected',
      error: { code: 'VAL017', line: 9, message: 'root uses http, not https' },
    });
    expect(list.dropped).toEqual([
      expect.objectContaining({
        file: 'schemas/partial/partial.mjs',
        route: 'updateThing',
        reference: 'partial-api/partial.mjs::updateThing',
        status: 'dropped',
        error: expect.objectContaining({ code: 'VAL032', line: 19, path: 'main.tools.updateThing.method' }),
      }),
    ]);
    expect(list.schemas.find((row) => row.namespace === 'partial-api')).toEqual({
      file: 'schemas/partial/partial.mjs',
      namespace: 'partial-api',
      version: '4.0.0',
      routes: { declared: 2, served: 1 },
      info: { termsOfService: 'https://partial.example/terms', dataLicense: null, schemaVersion: '1.2.0' },
      // Issue 14, point 3: the root's origin and every https origin written in the file.
      reach: {
        origins: [
          { origin: 'https://api.partial.example', source: 'root' },
          { origin: 'https://partial.example', source: 'file' },
        ],
        denied: [],
      },
    });
    expect(list.summary).toEqual({ tools: 4, served: 3, hidden: 1, rejected: 1, dropped: 1 });
    expect(stdout).not.toContain('t0ken-value');
  });

  it('prints a table with why each hidden key is refused and the line that grants it, and the rejected files', async () => {
    grantKeys(undefined);
    const { code, stdout } = await flowguard(['list'], dir, { KEYED_TOKEN: 'in-the-environment' });
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^NAME\s+REFERENCE\s+METHOD\s+KEYS\s+STATUS$/);
    expect(lines[1]).toMatch(/^example_getThing\s+example\/things\.mjs::getThing\s+GET\s+-\s+served$/);
    expect(lines[3]).toMatch(
      /^keyed_getStatus\s+keyed\/keyed\.mjs::getStatus\s+GET\s+KEYED_TOKEN, KEYED_SECRET\s+hidden: KEYED_TOKEN in the environment but not granted \(grant: security\.keys: "KEYED_TOKEN": \["keyed"\]\); KEYED_SECRET not set \(grant: KEYED_SECRET=\.\.\. in \.env\)$/,
    );
    expect(stdout).toMatch(/^ {2}schemas\/broken\/search\.mjs {2}rejected: VAL017 root uses http, not https$/m);
    expect(stdout).toMatch(
      /^ {2}partial-api\/partial\.mjs::updateThing {2}dropped: VAL032 `method` must be one of GET, POST, PUT, DELETE$/m,
    );
    expect(stdout).toMatch(/^4 tools: 3 served, 1 hidden; 1 file rejected; 1 route dropped$/m);
  });

  it('counts a key from the project .env as set, and an empty value as missing', async () => {
    grantKeys({ KEYED_SECRET: ['keyed'] });
    writeFileSync(join(dir, '.env'), 'KEYED_TOKEN=from-dotenv\nKEYED_SECRET=\n');
    try {
      const list = JSON.parse((await flowguard(['list', '--json'], dir)).stdout) as ListJson;
      expect(list.tools.find((tool) => tool.name === 'keyed_getStatus')?.missingKeys).toEqual(['KEYED_SECRET']);
      const both = JSON.parse(
        (await flowguard(['list', '--json'], dir, { KEYED_SECRET: 's3cret' })).stdout,
      ) as ListJson;
      expect(both.tools.find((tool) => tool.name === 'keyed_getStatus')?.status).toBe('served');
    } finally {
      rmSync(join(dir, '.env'));
    }
  });

  it('gives a schema no environment variable it merely declares, and a bound key only to its namespaces', async () => {
    // The schema `keyed` declares the two keys; the environment holds them, the config grants
    // one to another namespace only.
    grantKeys({ KEYED_TOKEN: ['elsewhere'] });
    const list = JSON.parse(
      (await flowguard(['list', '--json'], dir, { KEYED_TOKEN: 'bound-value', KEYED_SECRET: 'ungranted-value' }))
        .stdout,
    ) as ListJson;
    expect(list.tools.find((tool) => tool.name === 'keyed_getStatus')).toMatchObject({
      status: 'hidden',
      missingKeys: ['KEYED_TOKEN', 'KEYED_SECRET'],
      keyProblems: [
        {
          key: 'KEYED_TOKEN',
          reason: 'granted to other namespaces only',
          fix: 'security.keys: "KEYED_TOKEN": ["elsewhere","keyed"]',
        },
        {
          key: 'KEYED_SECRET',
          reason: 'in the environment but not granted',
          fix: 'security.keys: "KEYED_SECRET": ["keyed"]',
        },
      ],
    });
  });

  it('lists the bundled catalog from the repository', async () => {
    const { code, stdout } = await flowguard(['list', '--json'], ROOT);
    expect(code).toBe(0);
    const list = JSON.parse(stdout) as ListJson;
    expect(list.rejected).toEqual([]);
    expect(list.tools.find((tool) => tool.reference === 'etherscan/accounts.mjs::getBalance')).toMatchObject({
      requiredKeys: ['ETHERSCAN_API_KEY'],
    });
  });

  it('exits 2 for a schema folder that does not exist', async () => {
    expect(await flowguard(['list', '--schemas', 'nowhere'], dir)).toMatchObject({
      code: 2,
      stderr: 'flowguard: ERR001 no such schema file or folder: nowhere\n',
    });
  });
});
