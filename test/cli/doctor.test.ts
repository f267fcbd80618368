// `flowguard doctor` as an operator runs it: the command run in-process (test/kit/cli.ts), in a
// temporary project folder with copies of bundled schemas, lists and fixtures.

import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runFlowguard } from '../kit/cli.js';
import { nodeVerdict } from '../../src/cli/doctor.js';
import { minimumNode } from '../../src/shared/version.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CODES = join(ROOT, 'test', 'fixtures', 'codes');
const work = mkdtempSync(join(tmpdir(), 'flowguard-doctor-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ENV_VALUE = 'env-value-7f3a9c1e55';
const DOTENV_VALUE = 'dotenv-value-b82d04aa19';

function flowguard(args: string[], cwd: string, env: Record<string, string> = {}) {
  return runFlowguard(args, { cwd: cwd, env });
}

/** etherscan (a key, handlers, the ethers library, a shared list) and wttr (keyless) with the bundled lists. */
function project(name: string, keys?: Record<string, string[]>): string {
  const dir = join(work, name);
  for (const folder of ['etherscan', 'wttr'])
    cpSync(join(ROOT, 'schemas', folder), join(dir, 'schemas', folder), { recursive: true });
  cpSync(join(ROOT, 'shared-lists'), join(dir, 'shared-lists'), { recursive: true });
  mkdirSync(join(dir, '.flowmcp'));
  writeFileSync(
    join(dir, '.flowmcp', 'config.json'),
    JSON.stringify({
      security: { allowedLibraries: ['trading-signals'], ...(keys ? { keys } : {}) },
      sandbox: { deadlineMs: 3000 },
      upstreams: { 'https://api.etherscan.io': 'http://127.0.0.1:9' },
    }),
  );
  return dir;
}

// doctor once judged by the major alone, so 20.10 passed where npm's engines (>=20.18.1, undici's
// floor) refuse it: the minimum is package.json's, compared part by part.
it("judges Node.js by package.json's engines, part by part", () => {
  const { engines } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  expect(engines.node).toBe(`>=${minimumNode()}`);
  expect(nodeVerdict('20.18.1', '20.18.1')).toEqual({
    ok: true,
    text: 'v20.18.1 (ok: flowguard needs 20.18.1 or later)',
  });
  for (const newer of ['20.18.2', '20.19.0', '22.0.0', '24.21.0'])
    expect(nodeVerdict(newer, '20.18.1').ok, newer).toBe(true);
  for (const older of ['20.18.0', '20.10.5', '19.99.99', '18.20.0'])
    expect(nodeVerdict(older, '20.18.1').ok, older).toBe(false);
  expect(nodeVerdict('20.10.0', '20.18.1').text).toBe('v20.10.0 (too old: flowguard needs 20.18.1 or later)');
});

describe('flowguard doctor', () => {
  it('reports node, project, config with sources, keys, libraries and files, and exits 0 when every file loads', async () => {
    const dir = project('healthy', { ETHERSCAN_API_KEY: ['etherscan'] });
    writeFileSync(join(dir, '.env'), `ETHERSCAN_API_KEY=${DOTENV_VALUE}\nUNRELATED=${DOTENV_VALUE}\n`);
    const { code, stdout, stderr } = await flowguard(['doctor'], dir, { ETHERSCAN_API_KEY: ENV_VALUE });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^node {6}v\d+\.\d+\.\d+ \(ok: flowguard needs 20\.18\.1 or later\)$/m);
    expect(stdout).toContain(`project   ${dir}`);
    expect(stdout).toContain('config    .flowmcp/config.json found');
    expect(stdout).toMatch(/^ {4}ethers +default +installed$/m);
    expect(stdout).toMatch(
      /^ {4}trading-signals +from \.flowmcp\/config\.json +not installed \(npm install trading-signals\)$/m,
    );
    expect(stdout).toContain('deadlineMs 3000 (from .flowmcp/config.json), memoryMb 128 (default)');
    expect(stdout).toContain('maxRedirects 5 (default)');
    expect(stdout).toContain('https://api.etherscan.io -> http://127.0.0.1:9 (from .flowmcp/config.json)');
    expect(stdout).toContain('schemas   schemas: 2 files, 2 loaded, 6 tools');
    expect(stdout).toContain('lists     shared-lists: 3 files, 1 read (reached by a schema), 1 loaded');
    expect(stdout).toContain(
      'network   private addresses refused (loopback, private, link-local and other non-public addresses; upstream overrides excepted)',
    );
    expect(stdout).toContain('keys      .env present; security.keys grants ETHERSCAN_API_KEY → etherscan');
    expect(stdout).toMatch(
      /^ {2}ETHERSCAN_API_KEY +etherscan +granted \(environment\) +schemas\/etherscan\/accounts\.mjs$/m,
    );
    expect(stdout).toMatch(/^ {2}ethers +resolves \(.*node_modules\/ethers\/.*\) +schemas\/etherscan\/accounts\.mjs$/m);
    expect(stdout).toContain('groups    .flowmcp/groups.json not present');
    expect(stdout).toMatch(/^ {2}VAL096 info schemas\/etherscan\/accounts\.mjs:\d+:\d+ /m);
    expect(stdout).toMatch(/^ {2}3 files checked: 0 errors, 0 warnings, \d+ info \(all files can be loaded\)$/m);
    expect(stdout).toMatch(/\nverdict: ok, every file loads \(6 tools, 6 served, 0 hidden\)\n$/);
    // Key names, never key values; undeclared variables are not mentioned at all.
    for (const text of [stdout, stderr]) {
      expect(text).not.toContain(ENV_VALUE);
      expect(text).not.toContain(DOTENV_VALUE);
      expect(text).not.toContain('UNRELATED');
    }
  });

  it('says where a key comes from, or why it is refused, the line that grants it and which tools it hides, without its value', async () => {
    const dir = project('keys');
    writeFileSync(join(dir, '.env'), `ETHERSCAN_API_KEY=${DOTENV_VALUE}\n`);
    const fromDotenv = await flowguard(['doctor'], dir);
    expect(fromDotenv.stdout).toMatch(
      /^ {2}ETHERSCAN_API_KEY +etherscan +granted \(\.env\) +schemas\/etherscan\/accounts\.mjs$/m,
    );
    expect(fromDotenv.stdout + fromDotenv.stderr).not.toContain(DOTENV_VALUE);

    rmSync(join(dir, '.env'));
    const missing = await flowguard(['doctor'], dir, { ETHERSCAN_API_KEY: '' });
    expect(missing.code).toBe(0);
    expect(missing.stdout).toContain(
      'keys      .env not present; security.keys grants none (environment variables are not used)',
    );
    expect(missing.stdout).toMatch(
      /^ {2}ETHERSCAN_API_KEY +etherscan +REFUSED: not set; grant with ETHERSCAN_API_KEY=\.\.\. in \.env +schemas\/etherscan\/accounts\.mjs +4 tools hidden$/m,
    );
    expect(missing.stdout).toContain('verdict: ok, every file loads (6 tools, 2 served, 4 hidden)');

    const ungranted = await flowguard(['doctor'], dir, { ETHERSCAN_API_KEY: ENV_VALUE });
    expect(ungranted.stdout).toMatch(
      /^ {2}ETHERSCAN_API_KEY +etherscan +REFUSED: in the environment but not granted; grant with security\.keys: "ETHERSCAN_API_KEY": \["etherscan"\] +schemas\/etherscan\/accounts\.mjs +4 tools hidden$/m,
    );
    expect(ungranted.stdout + ungranted.stderr).not.toContain(ENV_VALUE);
  });

  it('exits 1 and names the files that cannot be loaded, a missing library and a failing group', async () => {
    const dir = project('broken');
    // Before issue 14 this was VAL051's trigger; a body parameter on GET is now a warning, so a root on http stands in.
    cpSync(join(CODES, 'VAL017', 'trigger.mjs'), join(dir, 'schemas', 'broken', 'search.mjs'));
    cpSync(join(CODES, 'SEC103', 'trigger.mjs'), join(dir, 'schemas', 'indicators', 'signals.mjs'));
    const groups = JSON.parse(readFileSync(join(CODES, 'GRP006', 'trigger.groups.json'), 'utf8')) as unknown;
    writeFileSync(join(dir, '.flowmcp', 'groups.json'), `${JSON.stringify(groups, null, 2)}\n`);
    const { code, stdout } = await flowguard(['doctor'], dir);
    expect(code).toBe(1);
    // SEC103's trigger names ccxt, which flowguard does not install (indicatorts is a dev dependency since issue 14).
    expect(stdout).toMatch(/^ {2}ccxt +NOT FOUND: npm install ccxt +schemas\/indicators\/signals\.mjs$/m);
    // The allowlist says which of its libraries are installed, and how to add one that is not.
    expect(stdout).toMatch(/^ {4}ethers +default +installed$/m);
    expect(stdout).toMatch(/^ {4}ccxt +default +not installed \(npm install ccxt\)$/m);
    expect(stdout).toContain('groups    .flowmcp/groups.json: 1 group, failing: things');
    expect(stdout).toMatch(/^ {2}VAL017 error schemas\/broken\/search\.mjs:9:11 /m);
    expect(stdout).toMatch(/^ {2}SEC103 error schemas\/indicators\/signals\.mjs /m);
    expect(stdout).toMatch(
      /^ {2}GRP004 error \.flowmcp\/groups\.json:\d+:\d+ groups\.things\.tools\[0\]: 'example\/things\.mjs::searchThings' resolves to no loaded tool$/m,
    );
    expect(stdout).toMatch(
      /\nverdict: NOT OK: 3 files cannot be loaded: schemas\/broken\/search\.mjs, schemas\/indicators\/signals\.mjs, \.flowmcp\/groups\.json\n$/,
    );
  });

  it('shows a route without tests as a warning, names a dropped route in the verdict, and lists the terms the schemas state', async () => {
    const dir = project('partial');
    mkdirSync(join(dir, 'schemas', 'partial'));
    writeFileSync(
      join(dir, 'schemas', 'partial', 'partial.mjs'),
      `export const main = {
    namespace: 'partial-api',
    name: 'PartialApi',
    description: 'An API with one broken route.',
    version: '4.0.0',
    termsOfService: 'https://partial.example/terms',
    dataLicenseName: 'CC-BY-4.0',
    root: 'https://api.partial.example',
    tools: {
        listThings: { method: 'GET', path: '/things', description: 'Every thing.', parameters: [] },
        updateThing: { method: 'PATCH', path: '/things', description: 'Rename a thing.', parameters: [], tests: [ { _description: 'rename' } ] },
    },
};
`,
    );
    const { code, stdout } = await flowguard(['doctor'], dir);
    expect(code).toBe(1);
    // TST001 is an authoring error: validate fails on it, the route is served and doctor shows a warning.
    expect(stdout).toMatch(
      /^ {2}TST001 warning schemas\/partial\/partial\.mjs:\d+:\d+ main\.tools\.listThings\.tests: /m,
    );
    expect(stdout).toMatch(
      /^ {2}VAL032 error schemas\/partial\/partial\.mjs:\d+:\d+ main\.tools\.updateThing\.method: /m,
    );
    expect(stdout).toMatch(/^schemas   schemas: 3 files, 3 loaded, 7 tools, 1 route dropped$/m);
    expect(stdout).toMatch(
      /^ {2}partial-api +schemas\/partial\/partial\.mjs +termsOfService https:\/\/partial\.example\/terms; dataLicenseName CC-BY-4\.0$/m,
    );
    expect(stdout).toMatch(/\nverdict: NOT OK: 1 route cannot be served: partial-api\/partial\.mjs::updateThing\n$/);
  });

  it('reports a malformed config instead of stopping, and exits 1', async () => {
    const dir = project('config');
    writeFileSync(join(dir, '.flowmcp', 'config.json'), '{ "sandbox": { "deadlineMs": 1 }, "colour": "blue" }');
    const { code, stdout } = await flowguard(['doctor'], dir);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^ {2}CFG002 error \.flowmcp\/config\.json:1:\d+ colour: unknown key 'colour'$/m);
    expect(stdout).toMatch(/^ {2}CFG003 error \.flowmcp\/config\.json:1:\d+ sandbox\.deadlineMs: must be >= 50$/m);
    expect(stdout).toMatch(/\nverdict: NOT OK: \.flowmcp\/config\.json cannot be used\n$/);
  });

  it('exits 1 when the schema folder is missing', async () => {
    const { code, stdout } = await flowguard(['doctor', '--schemas', 'nowhere'], project('empty'));
    expect(code).toBe(1);
    expect(stdout).toContain('verdict: NOT OK: no schema folder nowhere');
  });

  it('passes on the bundled catalog in the repository', async () => {
    const { code, stdout } = await flowguard(['doctor'], ROOT);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^groups {4}\.flowmcp\/groups\.json: \d+ groups?, all verify$/m);
  });
});
