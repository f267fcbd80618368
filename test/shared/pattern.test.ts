// Patterns a schema writes meet what clients and upstreams send (src/shared/pattern.ts, promise
// 8). JavaScript's engine backtracks: `regex(^(a+)+$)`, which validates, took seconds for an
// argument of 27 characters and doubled with each more, in the server's one thread, so one
// call wedged every client; two regex() options, joined by lookaheads, made even `a+b`
// quadratic. Against a spawned `flowguard serve --transport http` with the SDK client: a hostile
// argument of 40 characters, and one of 200,000 for two options, each answered while another
// client is served. On the base neither call ends (the client's request timeout fails it); the
// timeout bounds only that.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstream, type Upstream } from '../support/upstream.js';
import { bothPatterns, linearPattern } from '../../src/shared/pattern.js';
import { connectHttp, spawnHttpServer, type McpConnection, type SpawnedHttpServer } from '../kit/mcp.js';
import { tempProject, type TempProject } from '../kit/project.js';

const EXPONENTIAL = '^(a+)+$';
const ATTACK = `${'a'.repeat(40)}b`;
const ROOT = 'https://api.pattern.test';
const ALL_NAMES = ['pattern_getByCode', 'pattern_getByTwo', 'pattern_getByWord'];

const SCHEMA = `export const main = {
    namespace: 'pattern', name: 'Pattern', description: 'Patterns that backtrack.', version: '2.0.0',
    docs: [], tags: [], root: '${ROOT}',
    routes: {
        getByCode: {
            method: 'GET', path: '/code/{{code}}', description: 'A thing by its code.',
            parameters: [{ position: { key: 'code', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: ['regex(${EXPONENTIAL})'] } }],
            tests: [{ _description: 'a code', code: 'aaa' }]
        },
        getByTwo: {
            method: 'GET', path: '/two/{{code}}', description: 'A thing by a code of two rules.',
            parameters: [{ position: { key: 'code', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: ['regex(a+b)', 'regex(^[a-c]+$)'] } }],
            tests: [{ _description: 'a code', code: 'ab' }]
        },
        getByWord: {
            method: 'GET', path: '/word/{{word}}', description: 'A thing by one word on one line.',
            parameters: [{ position: { key: 'word', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: ['regex(^\\\\S.*$)'] } }],
            tests: [{ _description: 'a word', word: 'abc' }]
        }
    }
};
`;

/** Long enough for a call that would never end on the base; a linear match takes milliseconds. */
const REQUEST = { timeout: 15_000 };

let api: Upstream;
let project: TempProject;
let server: SpawnedHttpServer;
let attacker: McpConnection;
let bystander: McpConnection;

beforeAll(async () => {
  // A value that fits is sent, and answered: so a refusal is the pattern's, not the upstream's.
  api = await startUpstream();
  project = tempProject({ schemas: { 'pattern.mjs': SCHEMA }, config: { upstreams: { [ROOT]: api.origin } } });
  server = await spawnHttpServer(['--schemas', project.schemas, '--project', project.dir]);
  attacker = await connectHttp(server.url);
  bystander = await connectHttp(server.url);
}, 60_000);
afterAll(async () => {
  await attacker?.close();
  await bystander?.close();
  await server?.stop();
  await api?.close();
  project?.remove();
});

const refused = (result: object) => JSON.stringify(result).includes('invalid arguments');

describe('a pattern that backtracks exponentially in JavaScript', () => {
  it('refuses a hostile argument at once, as any value the pattern does not match; another client is served meanwhile', async () => {
    const [called, listed] = await Promise.all([
      attacker.client.callTool({ name: 'pattern_getByCode', arguments: { code: ATTACK } }, undefined, REQUEST),
      bystander.client.listTools(undefined, REQUEST),
    ]);
    expect(called.isError).toBe(true);
    expect(JSON.stringify(called.content)).toContain(`must match pattern \\"${EXPONENTIAL}\\"`);
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual(ALL_NAMES);
    const fits = await attacker.client.callTool(
      { name: 'pattern_getByCode', arguments: { code: 'aaaa' } },
      undefined,
      REQUEST,
    );
    expect(fits.isError).toBeFalsy();
  });

  it('two regex() options: both must match, each in linear time; another client is served meanwhile', async () => {
    const [called, listed] = await Promise.all([
      attacker.client.callTool(
        { name: 'pattern_getByTwo', arguments: { code: 'a'.repeat(200_000) } },
        undefined,
        REQUEST,
      ),
      bystander.client.listTools(undefined, REQUEST),
    ]);
    expect(refused(called)).toBe(true);
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual(ALL_NAMES);
    const call = (code: string) =>
      attacker.client.callTool({ name: 'pattern_getByTwo', arguments: { code } }, undefined, REQUEST);
    expect((await call('aab')).isError).toBeFalsy();
    expect(refused(await call('aabd'))).toBe(true);
    expect(refused(await call('ba'))).toBe(true);
  });
});

describe('a pattern with \\s, \\S or . (RE2 reads them narrower than JavaScript)', () => {
  it('refuses what JavaScript refuses: a value starting with a no-break space, or with a carriage return after the first line', async () => {
    const call = (word: string) =>
      attacker.client.callTool({ name: 'pattern_getByWord', arguments: { word } }, undefined, REQUEST);
    expect((await call('abc def')).isError).toBeFalsy();
    for (const word of ['\u00a0abc', '\ufeffabc', 'abc\rdef', 'abc\u2028def'])
      expect(refused(await call(word)), JSON.stringify(word)).toBe(true);
  });
});

describe('linearPattern', () => {
  it('answers as RegExp with the u flag where RE2 reads an escape or the dot differently (\\s, \\S, .)', () => {
    const patterns = [
      '^\\S+$',
      '^\\s$',
      '^[\\w\\s]+$',
      '^[^\\s]+$',
      '^[^\\S]$',
      '^[\\S]+$',
      '^a.b$',
      '^.+$',
      '^[.]$',
      '^[\\s\\S]$',
      '^\\\\s$',
      '^[\\]]$',
      // `[]`, `[^]` and `[` in a class: JavaScript's empty and full sets, and a plain `[`; to RE2 a class's first `]`
      // is a character and `[:digit:]` a POSIX class.
      '^[][x]$',
      '^[^][x]$',
      '^[x[:digit:]a[b]$',
      '^[\\b]$',
      '^[^\\s\\d]$',
      // Held: read alike before the fix too (ASCII `\d` and `\w`, `$` only at the very end).
      '^\\d+$',
      '^\\w+$',
      '^\\D$',
      '^abc$',
      '\\bx',
    ];
    const values = [
      'a b',
      'a\u00a0b',
      '\u00a0',
      '\ufeff',
      '\u3000',
      '\u000b',
      '\u2028',
      '\u2029',
      '\r',
      '\n',
      'a\rb',
      'a\u2028b',
      'a\u2000b',
      'a\u200bb',
      'axb',
      '\\s',
      ']',
      'é',
      '😀',
      '\ud83d',
      '5',
      'a',
      'ax',
      '[:a[b',
      'xab',
      '\b',
      '\u0661',
      '12',
      'abc\n',
      '\nabc',
      'ſ',
      'x',
      'abc',
    ];
    for (const source of patterns) {
      const javascript = new RegExp(source, 'u');
      for (const value of values)
        expect(linearPattern(source)?.test(value), `${source} on ${JSON.stringify(value)}`).toBe(
          javascript.test(value),
        );
    }
  });

  it('reads patterns as JavaScript writes them with the u flag, and refuses what RE2 cannot match in linear time', () => {
    const matches = (source: string, text: string) => linearPattern(source)?.test(text);
    expect(matches('^0x[a-fA-F0-9]{40}$', `0x${'ab'.repeat(20)}`)).toBe(true);
    expect(matches('^\\u00e9\\u{1F600}$', 'é😀')).toBe(true);
    expect(matches('^\\p{L}+$', 'Straße')).toBe(true);
    expect(matches('b', 'abc')).toBe(true);
    expect(matches(EXPONENTIAL, `${'a'.repeat(100_000)}b`)).toBe(false);
    // Ajv keeps one matcher per pattern by its text: two patterns' must differ.
    expect(String(linearPattern('^a'))).not.toBe(String(linearPattern('^b')));
    for (const unreadable of ['(?=a)a', '(a)\\1', '(?<!a)b', '[', 'a{2,1}'])
      expect(linearPattern(unreadable), unreadable).toBeNull();
  });

  it('reads two and three joined patterns back into their parts, each matched anywhere', () => {
    const three = linearPattern(bothPatterns(bothPatterns('^a', 'b$'), 'x'));
    expect(['axb', 'ab', 'xb', 'axbc'].map((text) => three?.test(text))).toEqual([true, false, false, false]);
    // The joined text is the JavaScript pattern clients are given: it means the same.
    const joined = new RegExp(bothPatterns(bothPatterns('^a', 'b$'), 'x'), 'u');
    expect(['axb', 'ab', 'xb', 'axbc'].map((text) => joined.test(text))).toEqual([true, false, false, false]);
    expect(linearPattern(bothPatterns('a', '(?=b)'))).toBeNull();
  });
});
