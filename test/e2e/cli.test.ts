// Issue 4, `flowguard call` as a user runs it: the compiled CLI in a child process (spawned
// asynchronously: the recording server lives in this process), the fixture schemas, the key in
// the child's environment and `--upstream '*=http://127.0.0.1:PORT'`. Also the CLI half of the
// canary test: the key appears nowhere in stdout or stderr.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempProject } from '../kit/project.js';
import type { Recorded } from '../support/upstream.js';
import {
  CANARY_GRANT,
  flowguard,
  KEY,
  KEY_URL,
  keyLeaks,
  REDACTED,
  SCHEMAS,
  startBehaving,
  type BehavingUpstream,
  type CliRun,
} from './helpers.js';

let main: BehavingUpstream;
let other: BehavingUpstream;
const project = tempProject({ config: CANARY_GRANT });
const ENV = { CANARY_KEY: KEY };
/** Every run of this file, checked for the key at the end. */
const runs: Array<{ args: string[]; run: CliRun }> = [];

beforeAll(async () => {
  [main, other] = await Promise.all([startBehaving(), startBehaving()]);
  main.otherOrigin = other.origin;
  // The key lock records the whole fixture folder's key holders at once (the operator's word),
  // so that runs over a narrower folder, at the same time, meet the same record.
  expect((await flowguard(['keys', 'accept', '--schemas', SCHEMAS, '--project', project.dir], ENV)).code).toBe(0);
});

afterAll(async () => {
  await Promise.all([main?.close(), other?.close()]);
  project.remove();
});

/**
 * `flowguard call <tool> ...` against the fixtures and the recording server. `folder` narrows the
 * schema folder (fewer files to check, no sandbox work where no schema has handlers).
 */
async function cli(tool: string, ...flags: string[]): Promise<CliRun> {
  return cliIn(SCHEMAS, tool, ...flags);
}

async function cliIn(folder: string, tool: string, ...flags: string[]): Promise<CliRun> {
  const args = [
    'call',
    tool,
    '--schemas',
    folder,
    '--project',
    project.dir,
    '--upstream',
    `*=${main.origin}`,
    ...flags,
  ];
  const run = await flowguard(args, ENV);
  runs.push({ args, run });
  return run;
}

const PARAMS = join(SCHEMAS, 'params');
const KEYS = join(SCHEMAS, 'keys');

function base(): Record<string, string> {
  return { host: `127.0.0.1:${main.port}`, connection: 'keep-alive', 'accept-encoding': 'gzip, deflate, br' };
}

function get(url: string, headers: Record<string, string> = {}): Recorded {
  return { method: 'GET', url, headers: { ...base(), ...headers }, body: '' };
}

function withBody(method: 'POST' | 'PUT', url: string, body: string, headers: Record<string, string> = {}): Recorded {
  return {
    method,
    url,
    headers: {
      ...base(),
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      ...headers,
    },
    body,
  };
}

/** The requests whose URL contains `marker` (runs are concurrent, so each test marks its own). */
function sentWith(marker: string): Recorded[] {
  return main.since(0).filter((request) => request.url.includes(marker) || request.body.includes(marker));
}

describe('flowguard call --dry-run', () => {
  it('prints method, URL, headers and body with the key redacted, and sends nothing', async () => {
    const before = main.records.length;
    const [header, body, root] = await Promise.all([
      cliIn(KEYS, 'keyheader_headerKey', '--arg', 'mode=dry-header', '--dry-run'),
      cliIn(KEYS, 'keys_bodyKey', '--arg', 'mode=dry-body', '--arg', 'name=n', '--dry-run'),
      cliIn(KEYS, 'keyroot_rootKey', '--arg', 'mode=dry-root', '--dry-run'),
    ]);
    expect(header).toEqual({
      code: 0,
      stderr: '',
      stdout: `GET ${main.origin}/behave/dry-header\nx-api-key: ${REDACTED}\naccept: application/json\n`,
    });
    expect(body).toEqual({
      code: 0,
      stderr: '',
      stdout: `POST ${main.origin}/behave/dry-body\ncontent-type: application/json\n\n{"name":"n","token":"${REDACTED}"}\n`,
    });
    expect(root).toEqual({ code: 0, stderr: '', stdout: `GET ${main.origin}/v1/${REDACTED}/behave/dry-root\n` });
    expect(main.records.length).toBe(before);
  }, 45_000);
});

describe('flowguard call arguments', () => {
  it('--arg values are typed by the parameter: number, boolean, array (JSON and comma list)', async () => {
    const [created, listed, query] = await Promise.all([
      cliIn(
        PARAMS,
        'params_createThing',
        '--arg',
        'id=701',
        '--arg',
        'count=3',
        '--arg',
        'ids=[1,2]',
        '--arg',
        'flag=true',
      ),
      cliIn(
        PARAMS,
        'params_createThing',
        '--arg',
        'id=702',
        '--arg',
        'count=0.5',
        '--arg',
        'ids=a,b',
        '--arg',
        'flag=false',
        '--arg',
        'meta={"a":[1]}',
      ),
      cliIn(
        PARAMS,
        'params_getItem',
        '--arg',
        'id=cli-703',
        '--arg',
        'slug=b',
        '--arg',
        'q=two words',
        '--arg',
        'n=2.5',
        '--arg',
        'flag=false',
        '--arg',
        'ids=x,y',
        '--arg',
        'chain=137',
      ),
    ]);
    expect(sentWith('/things/701')).toEqual([
      withBody('POST', '/things/701', '{"count":3,"ids":[1,2],"flag":true,"name":"anon","kind":"widget"}'),
    ]);
    expect(sentWith('/things/702')).toEqual([
      withBody(
        'POST',
        '/things/702',
        '{"count":0.5,"ids":["a","b"],"flag":false,"meta":{"a":[1]},"name":"anon","kind":"widget"}',
      ),
    ]);
    expect(sentWith('cli-703')).toEqual([
      get('/items/cli-703/b/view?q=two+words&n=2.5&flag=false&sort=desc&chain=137&ids=x%2Cy&limit=25&format=json'),
    ]);
    // The plain output is the decoded answer, pretty-printed.
    expect(created).toEqual({
      code: 0,
      stderr: '',
      stdout: `${JSON.stringify(sentWith('/things/701')[0], null, 2)}\n`,
    });
    expect(listed.code).toBe(0);
    expect(query.code).toBe(0);
  }, 45_000);

  it('--args takes all arguments as one JSON object, --arg after it overrides one, --json prints the whole result; a tool is found by its full reference', async () => {
    const run = await cli(
      'params/locations.mjs::putThing',
      '--args',
      '{"id":705,"count":3,"ids":[1,2],"flag":true}',
      '--arg',
      'count=4',
      '--json',
    );
    const sent = withBody('PUT', '/things/705', '{"count":4,"ids":[1,2],"flag":true}');
    expect(sentWith('/things/705')).toEqual([sent]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      ok: true,
      status: 200,
      content: { kind: 'json', value: sent },
      requests: [expect.objectContaining({ status: 200 })],
    });
  }, 45_000);
});

describe('flowguard call exit codes', () => {
  it('1 for a tool error (an upstream status, bad arguments, a missing key, an origin refusal)', async () => {
    const [status, args, origin, limited, missing] = await Promise.all([
      cliIn(PARAMS, 'params_behave', '--arg', 'mode=404'),
      cliIn(PARAMS, 'params_getItem', '--arg', 'id=a', '--arg', 'slug=b', '--arg', 'n=many', '--arg', 'bogus=1'),
      cli('chains_leave'),
      cliIn(PARAMS, 'params_behave', '--arg', 'mode=429', '--json'),
      flowguard(
        ['call', 'keys_pathKey', '--schemas', KEYS, '--project', project.dir, '--upstream', `*=${main.origin}`],
        {},
      ),
    ]);
    expect(status).toEqual({
      code: 1,
      stderr: '',
      stdout: 'error (upstream-status): upstream answered 404: {"error":"not found"}\n',
    });
    expect(args).toEqual({
      code: 1,
      stderr: '',
      stdout:
        "error (arguments): invalid arguments: missing required argument 'q'; unknown argument 'bogus'; 'n' must be number\n",
    });
    expect(origin).toEqual({
      code: 1,
      stderr: '',
      stdout: "error (origin): the request left the schema's origin https://--chain--.rpc.example.test; refused\n",
    });
    expect(limited.code).toBe(1);
    expect(JSON.parse(limited.stdout)).toEqual({
      ok: false,
      error: {
        kind: 'upstream-status',
        status: 429,
        retryAfter: '7',
        message: 'upstream answered 429: slow down (retry after 7 s)',
      },
      requests: [expect.objectContaining({ status: 429 })],
    });
    expect(missing).toEqual({
      code: 1,
      // The one running the command is the operator: the line that grants the key, as list shows it.
      stderr: '  CANARY_KEY not set (grant: CANARY_KEY=... in .env)\n',
      stdout: 'error (missing-keys): keys_pathKey needs CANARY_KEY, which the server has no value for\n',
    });
  }, 45_000);

  it('--dry-run needs no key: it shows where each key would go, sends nothing, exits 0 (issue 27, point 7)', async () => {
    const before = main.records.length;
    const dry = await flowguard(
      [
        'call',
        'keys_pathKey',
        '--dry-run',
        '--schemas',
        KEYS,
        '--project',
        project.dir,
        '--upstream',
        `*=${main.origin}`,
      ],
      {},
    );
    expect(dry.code).toBe(0);
    expect(dry.stderr).toBe('');
    expect(dry.stdout).toContain('[CANARY_KEY not set]');
    expect(main.records.length).toBe(before);
  }, 45_000);

  it('2 for an unknown tool, bad --args, a bad --arg and a bad --upstream, with a message on stderr and nothing on stdout', async () => {
    const before = main.records.length;
    const [unknown, notJson, notObject, badArg] = await Promise.all([
      cliIn(PARAMS, 'params_nothing'),
      cliIn(PARAMS, 'params_behave', '--args', '{mode:'),
      cliIn(PARAMS, 'params_behave', '--args', '["json"]'),
      cliIn(PARAMS, 'params_behave', '--arg', 'mode'),
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/^flowguard: ERR001 no tool named 'params_nothing'\n/);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/^flowguard: ERR001 --args is not valid JSON: /);
    expect(notObject).toEqual({ code: 2, stdout: '', stderr: 'flowguard: ERR001 --args must be a JSON object\n' });
    expect(badArg).toEqual({ code: 2, stdout: '', stderr: 'flowguard: ERR001 --arg mode: expected key=value\n' });
    const common = ['call', 'params_behave', '--arg', 'mode=json', '--schemas', PARAMS, '--project', project.dir];
    const withHandlers = [
      'call',
      'params_behave',
      '--arg',
      'mode=json',
      '--schemas',
      SCHEMAS,
      '--project',
      project.dir,
    ];
    const [noEquals, badBase, badOrigin] = await Promise.all([
      flowguard([...common, '--upstream', 'nonsense'], ENV),
      // Over the whole fixture folder, whose handler schemas start the sandbox. Bounded: a CLI
      // that does not exit within 6 s is killed and shows up as code null.
      flowguard([...withHandlers, '--upstream', '*=ftp://127.0.0.1:1'], ENV, 6_000),
      flowguard([...withHandlers, '--upstream', 'https://api.example.test/v1=http://127.0.0.1:1'], ENV, 6_000),
    ]);
    runs.push(
      { args: common, run: noEquals },
      { args: withHandlers, run: badBase },
      { args: withHandlers, run: badOrigin },
    );
    expect(noEquals).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'flowguard: ERR003 --upstream nonsense: expected ORIGIN=BASEURL, e.g. https://api.example.com=http://127.0.0.1:8080\n',
    });
    expect(badBase).toEqual({
      code: 2,
      stdout: '',
      stderr: "flowguard: ERR003 upstream base 'ftp://127.0.0.1:1' must be an http(s) URL\n",
    });
    expect(badOrigin).toEqual({
      code: 2,
      stdout: '',
      stderr: "flowguard: ERR003 upstream origin 'https://api.example.test/v1' must be scheme://host[:port] or *\n",
    });
    expect(main.records.length).toBe(before);
  }, 45_000);
});

describe('flowguard call: the canary', () => {
  it('the key reaches the server in its declared slots and appears nowhere in stdout or stderr', async () => {
    const [query, body, header, root, echo, thrown] = await Promise.all([
      cliIn(KEYS, 'keys_queryKey', '--arg', 'mode=canary-query'),
      cliIn(KEYS, 'keys_bodyKey', '--arg', 'mode=canary-body', '--arg', 'name=n', '--json'),
      cliIn(KEYS, 'keyheader_headerKey', '--arg', 'mode=500key', '--json'),
      cliIn(KEYS, 'keyroot_rootKey', '--arg', 'mode=canary-root'),
      cli('canary_echoStruct', '--arg', 'mode=canary-echo'),
      cli('canary_throwEcho'),
    ]);
    expect(sentWith('canary-query')).toEqual([get(`/behave/canary-query?apikey=${KEY_URL}`)]);
    expect(query).toEqual({
      code: 0,
      stderr: '',
      stdout: `${JSON.stringify(get(`/behave/canary-query?apikey=${REDACTED}`), null, 2)}\n`,
    });
    expect(sentWith('canary-body')).toEqual([withBody('POST', '/behave/canary-body', `{"name":"n","token":"${KEY}"}`)]);
    expect(JSON.parse(body.stdout).content.value.body).toBe(`{"name":"n","token":"${REDACTED}"}`);
    expect(header.code).toBe(1);
    expect(JSON.parse(header.stdout)).toEqual({
      ok: false,
      error: { kind: 'upstream-status', status: 500, message: `upstream answered 500: invalid api key ${REDACTED}` },
      requests: [expect.objectContaining({ status: 500 })],
    });
    expect(sentWith('canary-root')).toEqual([get(`/v1/${KEY_URL}/behave/canary-root`)]);
    expect(root.stdout).toContain(`"url": "/v1/${REDACTED}/behave/canary-root"`);
    expect(sentWith('canary-echo')).toEqual([get(`/behave/canary-echo?apikey=${KEY_URL}`, { 'x-api-key': KEY })]);
    expect(echo.stdout).toContain(`"x-api-key": "${REDACTED}"`);
    expect(echo.stdout).toMatch(
      /"url": "https:\/\/api\.example\.test\/behave\/canary-echo\?apikey=__secret_CANARY_KEY_[0-9a-f]+__"/,
    );
    expect(thrown.code).toBe(1);
    expect(thrown.stdout).toMatch(
      /^error \(handler\): postRequest handler failed \(SEC107\): the handler threw: Error: upstream said \{.*\[redacted CANARY_KEY\]/,
    );
    for (const run of [query, body, header, root, echo, thrown]) {
      expect({ run, leaks: keyLeaks(run.stdout + run.stderr) }).toEqual({ run, leaks: [] });
    }
  }, 45_000);

  it('no run of this file printed the key, and the other origin received nothing', () => {
    expect(runs.length).toBeGreaterThan(20);
    const leaking = runs
      .filter(({ run }) => keyLeaks(run.stdout + run.stderr).length > 0)
      .map(({ args }) => args.join(' '));
    expect(leaking).toEqual([]);
    expect(other.records).toEqual([]);
  });
});
