// `flowguard import openapi` on documents written to hurt it, run as a user runs it (the real CLI,
// real files): a YAML alias bomb and a `$ref` fan-out, each a few hundred bytes that expand to
// billions of values, end with a report naming the bound and write nothing; tags and operationIds
// of any length become file and route names the file system takes, still unique.

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CliRun, runFlowguardSync } from '../kit/spawn.js';
import { MAX_EXPANDED_VALUES } from '../../src/openapi/references.js';

const work = mkdtempSync(join(tmpdir(), 'flowguard-import-hostile-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function flowguard(args: string[]): CliRun {
  // The timeout only keeps a regression from hanging the suite; the bound itself is a count.
  return runFlowguardSync(args, { cwd: work, timeoutMs: 60_000 });
}

/** Nine lists of nine aliases of the list before: 9^9 values from a few hundred bytes. */
const ALIAS_BOMB = [
  'openapi: 3.0.3',
  'info: {title: Bomb, version: "1"}',
  'servers: [{url: "https://api.example.com"}]',
  'paths: {/x: {get: {operationId: x, responses: {"200": {description: ok}}}}}',
  'x-a: &a [l,l,l,l,l,l,l,l,l]',
  ...'bcdefghi'
    .split('')
    .map((name, index) => `x-${name}: &${name} [${Array(9).fill(`*${'abcdefghi'[index]}`).join(',')}]`),
  '',
].join('\n');

/** A chain of 40 schemas, each holding the next twice: 2^40 copies of the last one. */
function refFanOut(length: number): object {
  const schemas: Record<string, object> = {};
  for (let i = 0; i < length; i++) {
    const next = { $ref: `#/components/schemas/s${i + 1}` };
    schemas[`s${i}`] = i + 1 < length ? { type: 'object', properties: { a: next, b: next } } : { type: 'string' };
  }
  const response = {
    description: 'ok',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/s0' } } },
  };
  return {
    openapi: '3.0.3',
    info: { title: 'Fan', version: '1' },
    servers: [{ url: 'https://api.example.com' }],
    paths: { '/x': { get: { operationId: 'getX', responses: { '200': response } } } },
    components: { schemas },
  };
}

describe('documents that expand without bound', () => {
  it('a YAML alias bomb of under 500 bytes ends with a document error naming the bound; nothing is written', () => {
    expect(ALIAS_BOMB.length).toBeLessThan(500);
    writeFileSync(join(work, 'bomb.yaml'), ALIAS_BOMB);
    const run = flowguard(['import', 'openapi', 'bomb.yaml', '--out', 'bomb-out', '--json']);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 1, stderr: '' });
    const report = JSON.parse(run.stdout);
    expect(report.summary).toMatchObject({ routes: 0, files: 0 });
    expect(report.files).toEqual([]);
    expect(report.findings).toEqual([
      {
        kind: 'document',
        severity: 'error',
        message: expect.stringContaining(
          `more than ${MAX_EXPANDED_VALUES} values once its $refs and YAML aliases are resolved`,
        ),
      },
    ]);
    expect(existsSync(join(work, 'bomb-out'))).toBe(false);
  });

  it('a $ref fan-out of a few kB ends with the same error in the human report; nothing is written', () => {
    const text = JSON.stringify(refFanOut(40));
    expect(text.length).toBeLessThan(6000);
    writeFileSync(join(work, 'fan.json'), text);
    const run = flowguard(['import', 'openapi', 'fan.json', '--out', 'fan-out']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`error document: the document expands to more than ${MAX_EXPANDED_VALUES} values`);
    expect(run.stdout).toContain('nothing was written');
    expect(run.stdout).toMatch(/0 operations: 0 routes in 0 files/);
    expect(existsSync(join(work, 'fan-out'))).toBe(false);
  });

  it('the same fan-out, short enough to stay under the bound, imports as before', () => {
    writeFileSync(join(work, 'small-fan.json'), JSON.stringify(refFanOut(8)));
    const run = flowguard(['import', 'openapi', 'small-fan.json', '--out', 'small-fan-out', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).summary).toMatchObject({ operations: 1, routes: 1, files: 1 });
    expect(readdirSync(join(work, 'small-fan-out'))).toEqual(['x.mjs']);
  });

  it('a YAML alias inside the value it names is a document error, not a hang', () => {
    writeFileSync(
      join(work, 'cycle.yaml'),
      'openapi: 3.0.3\ninfo: {title: Cycle, version: "1"}\npaths: {}\nx-loop: &loop [1, *loop]\n',
    );
    const run = flowguard(['import', 'openapi', 'cycle.yaml', '--out', 'cycle-out']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('error document: #/x-loop/1 is a YAML alias inside the value it names');
    expect(existsSync(join(work, 'cycle-out'))).toBe(false);
  });
});

describe('names from the document', () => {
  it('tags and operationIds of 300 characters become short file and route names, still unique, and the files validate', () => {
    const long = 'Very Long Tag '.repeat(22);
    const operation = (tag: string, operationId: string) => ({
      get: { tags: [tag], operationId, responses: { '200': { description: 'ok' } } },
    });
    const document = {
      openapi: '3.0.3',
      info: { title: 'Names', version: '1' },
      servers: [{ url: 'https://api.example.com' }],
      paths: {
        '/a': operation(`${long}A`, `get${'Thing'.repeat(60)}A`),
        '/b': operation(`${long}B`, `get${'Thing'.repeat(60)}B`),
      },
    };
    writeFileSync(join(work, 'names.json'), JSON.stringify(document));
    const run = flowguard(['import', 'openapi', 'names.json', '--out', 'names-out', '--json']);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const report = JSON.parse(run.stdout);
    const files: string[] = readdirSync(join(work, 'names-out')).sort();
    expect(files).toHaveLength(2);
    for (const file of files) expect(file).toMatch(/^very-long-tag-[a-z-]+-[0-9a-f]{8}\.mjs$/);
    for (const file of files) expect(file.length).toBeLessThanOrEqual(64 + '.mjs'.length);
    const routes: string[] = report.files.flatMap((file: { routes: Array<{ name: string }> }) =>
      file.routes.map((route) => route.name),
    );
    expect(new Set(routes).size).toBe(2);
    for (const route of routes) expect(route).toMatch(/^getThing[A-Za-z]+[0-9a-f]{8}$/);
    for (const route of routes) expect(route.length).toBeLessThanOrEqual(64);
    expect(flowguard(['validate', 'names-out']).code).toBe(0);
  });

  it('tags, operationIds and a title that are paths write only plain files inside --out, and they validate', () => {
    const operation = (tag: string, operationId: string) => ({
      get: { tags: [tag], operationId, responses: { '200': { description: 'ok' } } },
    });
    const outside = join(work, 'climbed');
    const document = {
      openapi: '3.0.3',
      info: { title: '../../Paths', version: '1' },
      servers: [{ url: 'https://api.example.com' }],
      paths: {
        '/a': operation('../../climbed/tag', '../../climbed/op'),
        '/b': operation('/etc/passwd', '..\\..\\x'),
        '/c': operation('..', 'c'),
        '/d': operation('.', 'd'),
        '/e': operation('a/../../b', '%2e%2e%2fx'),
      },
    };
    writeFileSync(join(work, 'paths.json'), JSON.stringify(document));
    const run = flowguard(['import', 'openapi', 'paths.json', '--out', 'paths-out/deeper']);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(existsSync(outside)).toBe(false);
    expect(readdirSync(join(work, 'paths-out'))).toEqual(['deeper']);
    const files = readdirSync(join(work, 'paths-out', 'deeper'), { withFileTypes: true });
    expect(files).toHaveLength(5);
    for (const file of files) {
      expect(file.isFile()).toBe(true);
      expect(file.name).toMatch(/^[a-z0-9-]+\.mjs$/);
    }
    expect(flowguard(['validate', 'paths-out/deeper']).code).toBe(0);
  });

  it('a folder where a file would go is refused before anything is written', () => {
    writeFileSync(
      join(work, 'two.json'),
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'Two', version: '1' },
        servers: [{ url: 'https://api.example.com' }],
        paths: {
          '/a': { get: { tags: ['alpha'], operationId: 'a', responses: { '200': { description: 'ok' } } } },
          '/b': { get: { tags: ['beta'], operationId: 'b', responses: { '200': { description: 'ok' } } } },
        },
      }),
    );
    mkdirSync(join(work, 'two-out', 'beta.mjs'), { recursive: true });
    const run = flowguard(['import', 'openapi', 'two.json', '--out', 'two-out', '--force']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('two-out/beta.mjs is not a file; nothing was written');
    expect(readdirSync(join(work, 'two-out'))).toEqual(['beta.mjs']);
  });
});

describe('what a document would do to a terminal', () => {
  const HOSTILE = '\x1b[2J\x07\u202e\u2066\x9b31m';
  const ACTING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

  it("the report prints the title and paths escaped; --json holds them exactly; the file's comment quotes them on one escaped line", () => {
    const tag = `pets${HOSTILE}\nglobalThis.x = 1 //`;
    writeFileSync(
      join(work, 'loud.json'),
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: `Loud ${HOSTILE} API`, version: '1' },
        servers: [{ url: 'https://api.example.com' }],
        paths: {
          [`/pets${HOSTILE}`]: {
            get: { tags: [tag], operationId: 'listPets', responses: { '200': { description: 'ok' } } },
          },
        },
      }),
    );
    const human = flowguard(['import', 'openapi', 'loud.json', '--out', 'loud-out']);
    expect(human.code).toBe(0);
    expect(human.stdout).not.toMatch(ACTING);
    expect(human.stdout).toContain('"Loud \\x1b[2J\\x07\\u202e\\u2066\\x9b31m API"');
    expect(human.stdout).toContain('listPets (GET /pets\\x1b[2J\\x07\\u202e\\u2066\\x9b31m)');
    const [file] = readdirSync(join(work, 'loud-out'));
    const text = readFileSync(join(work, 'loud-out', file!), 'utf8');
    const [comment] = text.split('\n');
    expect(comment).toContain('"Loud \\x1b[2J\\x07\\u202e\\u2066\\x9b31m API", pets\\x1b[2J');
    expect(comment).not.toMatch(ACTING);
    // The tag's line break cannot end the comment it is quoted in.
    expect(text).not.toMatch(/^globalThis/m);
    const json = flowguard(['import', 'openapi', 'loud.json', '--out', 'loud-out', '--json']);
    expect(json.stdout).not.toMatch(ACTING);
    const report = JSON.parse(json.stdout);
    expect(report.document.title).toBe(`Loud ${HOSTILE} API`);
    expect(report.files[0].routes[0].operation).toBe(`GET /pets${HOSTILE}`);
  });

  it('a document that does not parse is named with its text escaped', () => {
    writeFileSync(join(work, 'broken.yaml'), `openapi: 3.0.3\ninfo: {title: "${HOSTILE}\n  - [\n`);
    const run = flowguard(['import', 'openapi', 'broken.yaml', '--out', 'broken-out']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('cannot be read as JSON or YAML');
    expect(run.stderr).not.toMatch(ACTING);
  });
});
