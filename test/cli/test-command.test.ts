// `flowguard test` as an author runs it: the command run in-process (test/kit/cli.ts), in a temporary
// project holding the fixture schemas (test/fixtures/route-tests/), against a loopback upstream
// that stands for https://api.market.example and answers what each case needs.

import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyPatch } from 'diff';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runFlowguard, type CliOutcome } from '../kit/cli.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'route-tests', 'schemas');
const ORIGIN = 'https://api.market.example';

/** What the upstream answers per path; each case sets its own. `raw` is sent as it is, with `type`. */
let answers: Record<string, { status?: number; body?: unknown; raw?: string; type?: string }>;
let upstream: Upstream;
let dir: string;

beforeAll(async () => {
  upstream = await startUpstream((req, res) => {
    const answer = answers[req.url ?? ''] ?? { status: 404, body: { error: 'no such path' } };
    res
      .writeHead(answer.status ?? 200, { 'content-type': answer.type ?? 'application/json' })
      .end(answer.raw ?? JSON.stringify(answer.body));
  });
});
afterAll(() => upstream.close());

const GOOD_ANSWERS = () => ({
  '/prices/bitcoin': { body: { data: [{ exchange: 'kraken', price: 97000.5 }] } },
  '/prices/ether': {
    body: {
      data: [
        { exchange: 'kraken', price: 3400 },
        { exchange: 'coinbase', price: 3401.25 },
      ],
    },
  },
  '/status': { body: { up: true } },
});

/** A project with the fixture schemas and an `upstreams` override to the loopback upstream; `config` is merged into its config. */
function writeProject(config: Record<string, unknown> = {}): void {
  mkdirSync(join(dir, '.flowmcp'), { recursive: true });
  writeFileSync(
    join(dir, '.flowmcp', 'config.json'),
    JSON.stringify({ upstreams: { [ORIGIN]: upstream.origin }, audit: { enabled: false }, ...config }),
  );
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'flowguard-test-command-'));
  cpSync(FIXTURES, join(dir, 'schemas'), { recursive: true });
  answers = GOOD_ANSWERS();
  writeProject();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The command in-process (test/kit/cli.ts): the upstream answers from this process meanwhile. */
function flowguard(args: string[]): Promise<CliOutcome> {
  return runFlowguard(args, { cwd: dir });
}

interface JsonReport {
  summary: { tests: number; passed: number; failed: number; withoutTests: number; notLoaded: number };
  tests: Array<{
    ref: string;
    tool: string;
    index: number;
    description: string;
    ok: boolean;
    status: number | null;
    ms: number;
    error: string | null;
    mismatches: string[];
  }>;
  withoutTests: string[];
  notLoaded: Array<{ file: string; route?: string; finding: string }>;
  output?: {
    updates: Array<{ file: string; changed: string[]; diff: string }>;
    refused: Array<{ file: string; problem: string }>;
    unchanged: string[];
    unanswered: string[];
    notes: string[];
  };
}

async function jsonRun(args: string[] = []): Promise<{ code: number | null; report: JsonReport; stderr: string }> {
  const { code, stdout, stderr } = await flowguard(['test', '--json', ...args]);
  return { code, report: JSON.parse(stdout) as JsonReport, stderr };
}

describe('flowguard test', () => {
  it('passes every test whose call succeeds and whose answer matches the output; a route without tests is listed, not failed', async () => {
    const mark = upstream.records.length;
    const { code, stdout, stderr } = await flowguard(['test']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^pass +market_getPrices tests\[0\] +200 +\d+ ms +Bitcoin$/m);
    expect(stdout).toMatch(/^pass +market_getPrices tests\[1\] +200 +\d+ ms +Ether$/m);
    expect(stdout).toMatch(/^pass +market_getStatus tests\[0\] +200 +\d+ ms +The status$/m);
    expect(stdout).toContain('no tests  market/news.mjs::getNews');
    expect(stdout).toContain('3 tests: 3 passed, 0 failed; 1 route without tests');
    // Each test was one request to the API, as the route builds it.
    expect(
      upstream
        .since(mark)
        .map((request) => request.url)
        .sort(),
    ).toEqual(['/prices/bitcoin', '/prices/ether', '/status']);
  });

  it('--progress writes a line per finished test on stderr, and leaves stdout to the report', async () => {
    const { code, stdout, stderr } = await flowguard(['test', '--progress', '--concurrency', '2']);
    expect(code).toBe(0);
    const lines = stderr.trim().split('\n');
    expect(lines.map((line) => line.replace(/\(\d+ ms\)/, '(ms)')).sort()).toEqual([
      expect.stringMatching(/^\[1\/3\] pass market_\w+ tests\[\d\] \(ms\)$/),
      expect.stringMatching(/^\[2\/3\] pass market_\w+ tests\[\d\] \(ms\)$/),
      expect.stringMatching(/^\[3\/3\] pass market_\w+ tests\[\d\] \(ms\)$/),
    ]);
    expect(stdout).not.toContain('[1/3]');
  });

  it('fails a test whose call the API answers with an error status, naming the status', async () => {
    answers['/prices/ether'] = { status: 500, body: { error: 'exchange down' } };
    const { code, stdout } = await flowguard(['test']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^FAIL +market_getPrices tests\[1\] +500 +\d+ ms +Ether\n {4}upstream-status: .*500/m);
    expect(stdout).toContain('3 tests: 2 passed, 1 failed');
  });

  it('fails a test whose answer departs from the output schema, naming the JSON path', async () => {
    answers['/prices/ether'] = {
      body: {
        data: [
          { exchange: 'kraken', price: 3400 },
          { exchange: 'coinbase', price: '3401.25' },
        ],
      },
    };
    const { code, stdout } = await flowguard(['test']);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /^FAIL +market_getPrices tests\[1\] +200 +\d+ ms +Ether\n {4}\/data\/1\/price: must be number$/m,
    );
  });

  it('--json prints one document: per test its reference, description, ok, status, ms, error and mismatches', async () => {
    answers['/prices/ether'] = { body: { data: [{ exchange: 'kraken', price: 'n/a' }] } };
    answers['/status'] = { status: 503, body: {} };
    const { code, report } = await jsonRun();
    expect(code).toBe(1);
    expect(report.summary).toEqual({ tests: 3, passed: 1, failed: 2, withoutTests: 1, notLoaded: 0 });
    expect(report.withoutTests).toEqual(['market/news.mjs::getNews']);
    expect(
      report.tests.map(({ ms, error, ...rest }) => ({ ...rest, ms: typeof ms, error: error?.split(':')[0] ?? null })),
    ).toEqual([
      {
        ref: 'market/market.mjs::getPrices',
        tool: 'market_getPrices',
        index: 0,
        description: 'Bitcoin',
        ok: true,
        status: 200,
        ms: 'number',
        error: null,
        mismatches: [],
      },
      {
        ref: 'market/market.mjs::getPrices',
        tool: 'market_getPrices',
        index: 1,
        description: 'Ether',
        ok: false,
        status: 200,
        ms: 'number',
        error: null,
        mismatches: ['/data/0/price: must be number'],
      },
      {
        ref: 'market/market.mjs::getStatus',
        tool: 'market_getStatus',
        index: 0,
        description: 'The status',
        ok: false,
        status: 503,
        ms: 'number',
        error: 'upstream-status',
        mismatches: [],
      },
    ]);
  });

  it('selects by tool name, reference, file or folder; --upstream sends the calls where it says', async () => {
    writeProject({ upstreams: {} });
    const upstreamFlag = ['--upstream', `${ORIGIN}=${upstream.origin}`];
    const byName = await jsonRun(['market_getStatus', ...upstreamFlag]);
    expect(byName.report.tests.map((test) => test.tool)).toEqual(['market_getStatus']);
    expect(byName.code).toBe(0);
    const byReference = await jsonRun(['market/market.mjs::getPrices', ...upstreamFlag]);
    expect(byReference.report.tests.map((test) => `${test.tool}#${test.index}`)).toEqual([
      'market_getPrices#0',
      'market_getPrices#1',
    ]);
    const byFile = await jsonRun(['schemas/news.mjs', ...upstreamFlag]);
    expect(byFile.report.tests).toEqual([]);
    expect(byFile.report.withoutTests).toEqual(['market/news.mjs::getNews']);
    const byFolder = await jsonRun(['--schemas', 'schemas', 'schemas', ...upstreamFlag]);
    expect(byFolder.report.summary.tests).toBe(3);
  });

  it('fails a test whose arguments do not fit the route, naming the argument problem, and sends nothing for it', async () => {
    const file = join(dir, 'schemas', 'market.mjs');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(
        "{ _description: 'Ether', coin: 'ether' }",
        "{ _description: 'Ether', coin: '' }",
      ),
    );
    const mark = upstream.records.length;
    const { code, report } = await jsonRun();
    expect(code).toBe(1);
    const ether = report.tests.find((test) => test.description === 'Ether');
    expect(ether?.ok).toBe(false);
    expect(ether?.error).toMatch(
      /^arguments: the test's arguments do not fit the route's parameters: invalid arguments: .*coin/,
    );
    expect(
      upstream
        .since(mark)
        .map((request) => request.url)
        .sort(),
    ).toEqual(['/prices/bitcoin', '/status']);
  });

  it('lists a file that cannot be loaded as a failure: none of its routes could be tested', async () => {
    writeFileSync(join(dir, 'schemas', 'broken.mjs'), 'export const main = {');
    const { code, stdout } = await flowguard(['test']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^not loaded {2}schemas\/broken\.mjs: SEC016 error/m);
    expect(stdout).toContain('3 tests: 3 passed, 0 failed; 1 route without tests; 1 not loaded');
  });

  it('asks the API every time: the response cache is bypassed even where it would answer', async () => {
    writeProject({ cache: { ttlSeconds: 600 } });
    const file = join(dir, 'schemas', 'market.mjs');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(
        "{ _description: 'The status' }",
        "{ _description: 'The status' },\n                { _description: 'The status again' }",
      ),
    );
    const mark = upstream.records.length;
    const { code } = await flowguard(['test', 'market_getStatus', '--concurrency', '1']);
    expect(code).toBe(0);
    expect(upstream.since(mark).map((request) => request.url)).toEqual(['/status', '/status']);
  });

  it("keeps to the upstream's rate limit: a call held back waits its turn and is made, not failed", async () => {
    writeProject({ upstreamLimits: { origins: { [ORIGIN]: { requestsPerSecond: 2, burst: 1 } } } });
    const mark = upstream.records.length;
    const { code, report } = await jsonRun(['--concurrency', '3']);
    expect(report.tests.map((test) => test.error)).toEqual([null, null, null]);
    expect(code).toBe(0);
    expect(upstream.since(mark)).toHaveLength(3);
  });

  it('a --capture folder that cannot be written is a usage error with its code, not an error without one', async () => {
    // A file where the folder would go: no folder can be made through it.
    writeFileSync(join(dir, 'taken'), 'not a folder\n');
    const { code, stderr } = await flowguard(['test', '--capture', 'taken']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^flowguard: ERR001 --capture taken: E[A-Z]+/m);
  });

  it('--capture stores each answer as JSON under <namespace>/<route>.<index>.json', async () => {
    answers['/status'] = { status: 500, body: { error: 'down' } };
    await flowguard(['test', '--capture', 'answers']);
    const folder = join(dir, 'answers', 'market');
    expect(readdirSync(folder).sort()).toEqual(['getPrices.0.json', 'getPrices.1.json', 'getStatus.0.json']);
    expect(JSON.parse(readFileSync(join(folder, 'getPrices.1.json'), 'utf8'))).toEqual({
      tool: 'market_getPrices',
      reference: 'market/market.mjs::getPrices',
      index: 1,
      description: 'Ether',
      arguments: { coin: 'ether' },
      ok: true,
      status: 200,
      content: { kind: 'json', value: GOOD_ANSWERS()['/prices/ether'].body },
    });
    const failed = JSON.parse(readFileSync(join(folder, 'getStatus.0.json'), 'utf8')) as {
      ok: boolean;
      status: number;
      error: string;
    };
    expect(failed).toMatchObject({ ok: false, status: 500 });
    expect(failed.error).toMatch(/^upstream-status: /);
  });

  it('rejects usage errors with exit 2', async () => {
    expect((await flowguard(['test', 'market_nothing'])).code).toBe(2);
    expect((await flowguard(['test', '--concurrency', '0'])).code).toBe(2);
    expect((await flowguard(['test', '--yes'])).code).toBe(2);
    const outside = await flowguard(['test', '--schemas', 'schemas', '.flowmcp']);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain('holds no schema file of the catalog');
  });
});

describe('flowguard test --update-output', () => {
  /** The API has drifted: prices come as text, with a volume that may be null and a list of tags. */
  function drift(): void {
    answers['/prices/bitcoin'] = { body: { data: [{ exchange: 'kraken', price: '97000.5', volume: null, tags: [] }] } };
    answers['/prices/ether'] = {
      body: { data: [{ exchange: 'kraken', price: '3400', volume: 12.5, tags: ['spot'] }] },
    };
  }

  it('--yes writes the output schema the answers show; the printed diff is the change, the file validates, and a second run passes', async () => {
    drift();
    const file = join(dir, 'schemas', 'market.mjs');
    const before = readFileSync(file, 'utf8');
    const first = await flowguard(['test', '--update-output', '--yes']);
    // This run's tests failed on the drifted answers; the file now says what the API answers.
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('wrote schemas/market.mjs (market/market.mjs::getPrices)');
    const after = readFileSync(file, 'utf8');
    const diff = first.stdout.slice(first.stdout.indexOf('Index: '));
    expect(applyPatch(before, diff)).toBe(after);
    expect(diff).toContain("-                                    price: { type: 'number' }");
    expect(diff).toContain("+                                    price: { type: 'string' },");
    expect(diff).toContain("+                                    volume: { type: 'number', nullable: true },");
    // Level 4 (root, data, its items, tags): typed, with no items below it.
    expect(diff).toContain("+                                    tags: { type: 'array' }");
    // The author's description is kept, every line outside the output is as it was.
    expect(after).toContain("exchange: { type: 'string', description: 'Where the price was seen.' },");
    expect(after.slice(0, after.indexOf('output:'))).toBe(before.slice(0, before.indexOf('output:')));
    expect(after.slice(after.indexOf('tests: ['))).toBe(before.slice(before.indexOf('tests: [')));
    const validate = await flowguard(['validate', 'schemas/market.mjs', '--quiet']);
    expect(validate.stdout).toContain('0 errors');
    expect(validate.code).toBe(0);
    const second = await flowguard(['test', 'schemas/market.mjs']);
    expect(second.stdout).toContain('3 tests: 3 passed, 0 failed');
    expect(second.code).toBe(0);
  });

  it("keeps the author's nullable through an update whose answers had values: the next null answer still passes", async () => {
    const file = join(dir, 'schemas', 'market.mjs');
    const written = "exchange: { type: 'string', description: 'Where the price was seen.', nullable: true },";
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(
        "exchange: { type: 'string', description: 'Where the price was seen.' },",
        written,
      ),
    );
    drift();
    const update = await flowguard(['test', '--update-output', '--yes']);
    expect(update.stderr).toContain('wrote schemas/market.mjs');
    expect(readFileSync(file, 'utf8')).toMatch(
      /exchange: \{\s*type: 'string',\s*description: 'Where the price was seen\.',\s*nullable: true\s*\}/,
    );
    // The API now says null where the answers had a name: what the author wrote allows it.
    answers['/prices/bitcoin'] = { body: { data: [{ exchange: null, price: '97000.5', volume: 1, tags: [] }] } };
    const next = await flowguard(['test', 'schemas/market.mjs']);
    expect(next.stdout + next.stderr).not.toContain('output-mismatch');
    expect(next.code, next.stdout).toBe(0);
  });

  it('inserts an output where a route has none', async () => {
    const file = join(dir, 'schemas', 'market.mjs');
    const text = readFileSync(file, 'utf8');
    const start = text.indexOf(
      "            output: { mimeType: 'application/json', schema: { type: 'object', properties: { up",
    );
    writeFileSync(file, text.slice(0, start) + text.slice(text.indexOf('\n', start) + 1));
    const { stderr } = await flowguard(['test', 'market_getStatus', '--update-output', '--yes']);
    expect(stderr).toContain('wrote schemas/market.mjs');
    expect(readFileSync(file, 'utf8')).toContain(
      "            ],\n            output: {\n                mimeType: 'application/json',\n                schema: { type: 'object', properties: { up: { type: 'boolean' } } }\n            }\n        }",
    );
    expect((await flowguard(['test', 'market_getStatus'])).code).toBe(0);
  });

  it('without --yes and without a terminal: prints the diff, writes nothing, exit 1 with a hint', async () => {
    drift();
    const file = join(dir, 'schemas', 'market.mjs');
    const before = readFileSync(file, 'utf8');
    const { code, stdout, stderr } = await flowguard(['test', '--update-output']);
    expect(code).toBe(1);
    expect(stdout).toContain("+                                    price: { type: 'string' },");
    expect(stderr).toContain('1 file not written: no terminal to ask on; run again with --yes');
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('says so when every output already matches, and leaves the files alone', async () => {
    const { code, stdout } = await flowguard(['test', '--update-output', '--yes']);
    expect(code).toBe(0);
    expect(stdout).toContain('every tested output already matches its answers');
  });

  it('refuses an edit that would give the file an error, and writes nothing', async () => {
    // A text route whose API now answers JSON: an object schema under text/plain is VAL062.
    const file = join(dir, 'schemas', 'market.mjs');
    const text = readFileSync(file, 'utf8').replace(
      "output: { mimeType: 'application/json', schema: { type: 'object', properties: { up: { type: 'boolean' } } } }",
      "output: { mimeType: 'text/plain', schema: { type: 'string' } }",
    );
    writeFileSync(file, text);
    const { code, report } = await jsonRun(['market_getStatus', '--update-output', '--yes']);
    expect(report.tests[0]?.mismatches).toEqual(['(root): the API answered with JSON; the output declares text/plain']);
    expect(report.output?.updates).toEqual([]);
    expect(report.output?.refused[0]?.problem).toMatch(/^the edit would add an error: VAL062 /);
    expect(code).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(
      existsSync(join(dir, 'schemas')) && readdirSync(join(dir, 'schemas')).filter((name) => name.startsWith('.')),
    ).toEqual([]);
  });
});

describe('what an answer would do to a terminal', () => {
  /** Clear the screen, ring the bell, show the rest backwards, isolate, and C1's CSI. */
  const HOSTILE = '\x1b[2J\x07\u202e\u2066\x9b31m';
  /** Any character that acts on a terminal or reorders text (report/format.ts). */
  const ACTING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

  /** A JSON answer with the characters in a key, where --update-output puts them into the diff. */
  function hostileAnswers(): void {
    answers['/prices/ether'] = { body: { data: [{ exchange: 'kraken', price: 3400, [`note${HOSTILE}`]: 'x' }] } };
  }

  it("flowguard test --update-output prints the answer's characters escaped in the diff", async () => {
    hostileAnswers();
    const { code, stdout } = await flowguard(['test', '--update-output']);
    expect(code).toBe(1);
    expect(stdout).not.toMatch(ACTING);
    // The key in the diff, as the file would hold it: escapes in a string literal, no raw character.
    expect(stdout).toContain("'note\\u001b[2J\\u0007\\u202e\\u2066\\u009b31m': { type: 'string' }");
  });

  it('--update-output --json stays valid JSON with nothing raw in its text; --yes writes the key escaped, and it reads back exactly', async () => {
    hostileAnswers();
    const { stdout } = await flowguard(['test', '--json', '--update-output', '--yes']);
    expect(stdout).not.toMatch(ACTING);
    const report = JSON.parse(stdout) as JsonReport;
    expect(report.output?.updates[0]?.diff).toContain(
      "'note\\u001b[2J\\u0007\\u202e\\u2066\\u009b31m': { type: 'string' }",
    );
    const file = join(dir, 'schemas', 'market.mjs');
    expect(readFileSync(file, 'utf8')).not.toMatch(ACTING);
    const { main } = await import(`${file}?${Date.now()}`);
    expect(Object.keys(main.routes.getPrices.output.schema.properties.data.items.properties)).toEqual([
      'exchange',
      'price',
      `note${HOSTILE}`,
    ]);
  });

  it('flowguard call prints a text answer escaped, and --json exactly', async () => {
    answers['/status'] = { type: 'text/plain', raw: `up ${HOSTILE} fine` };
    const text = await flowguard(['call', 'market_getStatus']);
    expect(text.stdout).not.toMatch(ACTING);
    expect(text.stdout).toContain('up \\x1b[2J\\x07\\u202e\\u2066\\x9b31m fine');
    answers['/status'] = { body: { up: true, [`why${HOSTILE}`]: HOSTILE } };
    const json = await flowguard(['call', 'market_getStatus', '--json']);
    expect(json.stdout).not.toMatch(ACTING);
    expect(JSON.parse(json.stdout).content.value).toEqual({ up: true, [`why${HOSTILE}`]: HOSTILE });
    const human = await flowguard(['call', 'market_getStatus']);
    expect(human.stdout).not.toMatch(ACTING);
  });
});

describe('an answer that echoes the key (promise 6)', () => {
  // Short pieces of regex syntax and a character past ASCII: each form must be found as text.
  const KEY = 'k$y.(7)*Ünï-[q]+9Zx';
  function keyedProject(): void {
    writeFileSync(join(dir, '.env'), `MARKET_KEY=${KEY}\n`);
    writeFileSync(
      join(dir, 'schemas', 'keyed.mjs'),
      `export const main = { namespace: 'keyed', name: 'Keyed', description: 'Echoes its key.', version: '2.0.0', root: '${ORIGIN}', requiredServerParams: ['MARKET_KEY'], headers: { 'X-Key': '{{MARKET_KEY}}' }, routes: { getEcho: { method: 'GET', path: '/echo', description: 'Echoes the key.', parameters: [], tests: [{ _description: 'an echo' }] } } };\n`,
    );
  }
  const forms = [KEY, encodeURIComponent(KEY), JSON.stringify(KEY).slice(1, -1), Buffer.from(KEY).toString('base64')];

  it('flowguard test (human, --json, --update-output --yes) and flowguard call --json print and write no form of it', async () => {
    keyedProject();
    answers['/echo'] = {
      body: {
        [KEY]: KEY,
        headers: { 'x-key': KEY },
        b64: Buffer.from(KEY).toString('base64'),
        url: `/echo?k=${encodeURIComponent(KEY)}`,
      },
    };
    const runs = [
      await flowguard(['test']),
      await flowguard(['test', '--json']),
      await flowguard(['test', '--json', '--update-output', '--yes']),
      await flowguard(['call', 'keyed_getEcho', '--json']),
      await flowguard(['call', 'keyed_getEcho']),
    ];
    // The key reached the upstream (the header): the echo is real.
    expect(upstream.records.some((record) => record.headers['x-key'] === KEY)).toBe(true);
    const printed = runs.map((run) => run.stdout + run.stderr).join('\n');
    expect(printed).toContain('[redacted MARKET_KEY]');
    const written = readFileSync(join(dir, 'schemas', 'keyed.mjs'), 'utf8');
    expect(written).toContain('[redacted MARKET_KEY]');
    for (const form of forms) {
      expect(printed).not.toContain(form);
      expect(written).not.toContain(form);
    }
    // 500 with the echo in its body: the error text too.
    answers['/echo'] = { status: 500, raw: `bad key ${KEY}`, type: 'text/plain' };
    const failed = await flowguard(['test', '--json']);
    expect(failed.stdout).toContain('[redacted MARKET_KEY]');
    for (const form of forms) expect(failed.stdout + failed.stderr).not.toContain(form);
  });

  // The files an author commits and the lines an author pastes into an issue: the answers
  // --capture stores (an echo, and an error status quoting the key) and the request --dry-run prints.
  it('flowguard test --capture stores, and flowguard call --dry-run prints, no form of it', async () => {
    keyedProject();
    const capturedText = () =>
      readdirSync(join(dir, 'answers'), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
        .join('\n');
    answers['/echo'] = {
      body: { [KEY]: KEY, b64: Buffer.from(KEY).toString('base64'), url: `/e?k=${encodeURIComponent(KEY)}` },
    };
    await flowguard(['test', '--capture', 'answers']);
    expect(upstream.records.some((record) => record.headers['x-key'] === KEY)).toBe(true);
    let written = capturedText();
    expect(written).toContain('[redacted MARKET_KEY]');
    for (const form of forms) expect(written).not.toContain(form);
    answers['/echo'] = { status: 401, raw: `{"error":"bad key ${KEY}"}`, type: 'application/json' };
    await flowguard(['test', '--capture', 'answers']);
    written = capturedText();
    expect(written).toMatch(/401/);
    for (const form of forms) expect(written).not.toContain(form);
    const dry = [
      await flowguard(['call', 'keyed_getEcho', '--dry-run']),
      await flowguard(['call', 'keyed_getEcho', '--dry-run', '--json']),
    ];
    const printed = dry.map((run) => run.stdout + run.stderr).join('\n');
    expect(printed).toMatch(/x-key/i);
    expect(printed).toContain('[redacted MARKET_KEY]');
    for (const form of forms) expect(printed).not.toContain(form);
  });
});
