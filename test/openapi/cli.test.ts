// `flowguard import openapi` as a user runs it: exit codes, the human and --json reports,
// --include, --namespace, --force, and that `flowguard validate` accepts what it wrote.

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CliRun, ROOT, runFlowguardSync } from '../kit/spawn.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'openapi');
const work = mkdtempSync(join(tmpdir(), 'flowguard-import-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function flowguard(args: string[]): CliRun {
  return runFlowguardSync(args, { cwd: work, timeoutMs: 60_000 });
}

describe('flowguard import openapi', () => {
  // commander marks no option as required in --help: an author learnt of --out only by the refusal.
  it('says in --help that --out is required, and refuses a run without it (exit 2)', () => {
    expect(flowguard(['import', 'openapi', '--help']).stdout).toMatch(
      /--out <dir> +folder to write the schema files into \(required\)/,
    );
    const missing = flowguard(['import', 'openapi', join(FIXTURES, 'nytimes-most-popular.yaml')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("required option '--out <dir>' not specified");
  });

  it('exit 0 when every operation became a route; the files validate', () => {
    const { code, stdout, stderr } = flowguard([
      'import',
      'openapi',
      join(FIXTURES, 'nytimes-most-popular.yaml'),
      '--out',
      'nyt',
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toContain('"Most Popular API", namespace mostpopular');
    expect(stdout).toContain(
      'wrote nyt/mostviewed.mjs: getMostviewedSectionTimePeriodJson (GET /mostviewed/{section}/{time-period}.json)',
    );
    expect(stdout).toMatch(
      /3 operations: 3 routes in 3 files, 0 not expressible \(errors above\), 0 excluded by --include; 0 warnings\n$/,
    );
    expect(readdirSync(join(work, 'nyt')).sort()).toEqual(['mostemailed.mjs', 'mostshared.mjs', 'mostviewed.mjs']);
    expect(flowguard(['validate', 'nyt']).code).toBe(0);
  });

  it('exit 1 when an operation could not become a route, with --json naming it; --namespace and --include apply', () => {
    const { code, stdout } = flowguard([
      'import',
      'openapi',
      join(FIXTURES, 'swagger2-petstore.json'),
      '--out',
      'pets',
      '--namespace',
      'petstore',
      '--include',
      'pet',
      '--json',
    ]);
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report.namespace).toBe('petstore');
    // The glob `pet` matches the tag `pet` exactly: the eight pet operations, the other twelve excluded.
    expect(report.summary).toEqual({ operations: 20, routes: 1, skipped: 7, excluded: 12, files: 1, warnings: 1 });
    expect(report.files).toEqual([
      {
        file: 'pets/pet.mjs',
        routes: [{ name: 'getPetById', operation: 'GET /pet/{petId}', operationId: 'getPetById' }],
        check: expect.any(Array),
      },
    ]);
    expect(report.findings).toContainEqual({
      kind: 'security',
      severity: 'error',
      operation: 'PUT /pet',
      message: "oauth2 scheme 'petstore_auth' needs a token flow, which a FlowMCP schema cannot express",
    });
    expect(readFileSync(join(work, 'pets', 'pet.mjs'), 'utf8')).toContain(
      "headers: { api_key: '{{PETSTORE_API_KEY}}' }",
    );
  });

  it('--include takes a /regex/ on operationIds and paths', () => {
    const { code, stdout } = flowguard([
      'import',
      'openapi',
      join(FIXTURES, 'stapi-star-trek.json'),
      '--out',
      'stapi',
      '--include',
      '/^\\/animal/',
      '--json',
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).summary).toMatchObject({ operations: 120, routes: 3, excluded: 117 });
  });

  it('leaves a file with other content alone without --force (exit 2), overwrites it with --force', () => {
    const args = ['import', 'openapi', join(FIXTURES, 'nytimes-most-popular.yaml'), '--out', 'again'];
    expect(flowguard(args).code).toBe(0);
    // The same content again is no conflict.
    expect(flowguard(args).code).toBe(0);
    writeFileSync(join(work, 'again', 'mostshared.mjs'), '// mine\n');
    const refused = flowguard(args);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      '1 file already exist with other content (again/mostshared.mjs); pass --force to overwrite them',
    );
    expect(readFileSync(join(work, 'again', 'mostshared.mjs'), 'utf8')).toBe('// mine\n');
    expect(flowguard([...args, '--force']).code).toBe(0);
    expect(readFileSync(join(work, 'again', 'mostshared.mjs'), 'utf8')).toContain('export const main');
  });

  it('usage errors exit 2 with a message naming the problem', () => {
    const missing = flowguard(['import', 'openapi', 'nowhere.yaml', '--out', 'x']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file: nowhere.yaml');
    writeFileSync(join(work, 'not-openapi.json'), '{"hello": "world"}');
    const other = flowguard(['import', 'openapi', 'not-openapi.json', '--out', 'x']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('not an OpenAPI or Swagger document');
    const namespace = flowguard([
      'import',
      'openapi',
      join(FIXTURES, 'nytimes-most-popular.yaml'),
      '--out',
      'x',
      '--namespace',
      'New-York',
    ]);
    expect(namespace.code).toBe(2);
    expect(namespace.stderr).toContain('--namespace New-York: a namespace is lowercase letters only');
    const regex = flowguard([
      'import',
      'openapi',
      join(FIXTURES, 'nytimes-most-popular.yaml'),
      '--out',
      'x',
      '--include',
      '/(/',
    ]);
    expect(regex.code).toBe(2);
    expect(regex.stderr).toContain('--include /(/');
    expect(flowguard(['import', 'openapi', join(FIXTURES, 'nytimes-most-popular.yaml')]).code).toBe(2);
  });
});
