// Issue 17: a path placeholder that can never match is an error with a hint an author can act
// on. `{id}` (the OpenAPI habit) used to warn and send `%7Bid%7D`; now it is VAL058 and drops the
// route, unless a handler of the route may rewrite the URL (VAL098 stays a warning there). A
// `:id` or `{{id}}` that no insert parameter fills stays VAL050, with a hint that names the fix.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { effectiveAllowlist } from '../../src/libraries/allowlist.js';
import type { Finding } from '../../src/report/findings.js';
import { buildRequest, planRequest } from '../../src/http/request.js';
import { SecretTokens } from '../../src/http/secrets.js';
import { checkSchemaText } from '../../src/schema/check.js';
import { tempProject } from '../kit/project.js';

const options = { allowedLibraries: effectiveAllowlist([]) };

/** A one-route schema with `path` and one parameter `id` at `location`, plus `handlers` source if given. */
function schema(path: string, { location = 'insert', key = 'id', handlers = '' } = {}): string {
  return `export const main = {
    namespace: 'example', name: 'Example', description: 'Things.', version: '2.0.0',
    root: 'https://api.example.com',
    routes: {
      getThing: {
        method: 'GET', path: '${path}', description: 'One thing.',
        parameters: [ { position: { key: '${key}', value: '{{USER_PARAM}}', location: '${location}' }, z: { primitive: 'string()', options: [] } } ],
        tests: [ { _description: 'a thing', ${key}: 'abc' } ],
      },
    },
  };
  ${handlers}`;
}

function check(text: string): { findings: Finding[]; served: string[] } {
  const result = checkSchemaText('example.mjs', text, options);
  return { findings: result.findings, served: result.schema?.routes.map((r) => r.name) ?? [] };
}

const byCode = (findings: Finding[], code: string) => findings.filter((f) => f.code === code);

describe('single-brace {id} in a path', () => {
  it('is an error that drops the route when no handler rewrites the URL, with a hint naming {{id}}', () => {
    const { findings, served } = check(schema('/things/{id}'));
    const [error] = byCode(findings, 'VAL058');
    expect(error).toMatchObject({ severity: 'error', path: 'main.routes.getThing.path', line: 6 });
    expect(error?.hint).toBe("write {{id}}; the insert parameter 'id' fills it");
    expect(byCode(findings, 'VAL098')).toEqual([]);
    expect(served).toEqual([]);
  });

  it('is an error when the route has only a postRequest handler, which never sees the URL before it is sent', () => {
    const { findings } = check(
      schema('/things/{id}', {
        handlers: 'export const handlers = () => ({ getThing: { postRequest: ({ response }) => ({ response }) } });',
      }),
    );
    expect(byCode(findings, 'VAL058')).toHaveLength(1);
  });

  it('stays a warning when a preRequest or executeRequest handler of the route may replace it', () => {
    for (const hook of [
      'preRequest: ({ struct }) => ({ struct })',
      'executeRequest: async ({ struct }) => ({ struct })',
    ]) {
      const { findings, served } = check(
        schema('/things/{id}', { handlers: `export const handlers = () => ({ getThing: { ${hook} } });` }),
      );
      expect(byCode(findings, 'VAL058')).toEqual([]);
      expect(byCode(findings, 'VAL098')).toMatchObject([{ severity: 'warning' }]);
      expect(served).toEqual(['getThing']);
    }
  });

  it('says what to change when the parameter exists at another location, or does not exist', () => {
    expect(byCode(check(schema('/things/{id}', { location: 'query' })).findings, 'VAL058')[0]?.hint).toBe(
      "write {{id}} and give the parameter 'id' location 'insert' (it is query now)",
    );
    expect(byCode(check(schema('/things/{thingId}', { key: 'thingid' })).findings, 'VAL058')[0]?.hint).toMatch(
      /^did you mean 'thingid'\? write \{\{thingId\}\}/,
    );
    expect(byCode(check(schema('/things/{colour}')).findings, 'VAL058')[0]?.hint).toBe(
      "write {{colour}} and add a parameter { key: 'colour', value: '{{USER_PARAM}}', location: 'insert' }",
    );
  });

  it('reports every single-brace name of a path', () => {
    expect(
      byCode(check(schema('/things/{id}/parts/{part}')).findings, 'VAL058').map((f) => f.message.slice(0, 6)),
    ).toEqual(['{id} c', '{part}']);
  });
});

describe(':id and {{id}} in a path', () => {
  it(':id for an insert parameter stays a corpus idiom (VAL091, info) and is served', () => {
    const { findings, served } = check(schema('/things/:id'));
    expect(findings.map((f) => f.code)).toEqual(['VAL091', 'VAL036']);
    expect(served).toEqual(['getThing']);
  });

  it(':id naming no parameter is an error with a did-you-mean for a close insert key', () => {
    const { findings, served } = check(schema('/things/:thingid', { key: 'thingId' }));
    const [error] = byCode(findings, 'VAL050');
    expect(error).toMatchObject({ severity: 'error', path: 'main.routes.getThing.path' });
    expect(error?.hint).toBe(
      "did you mean 'thingId'? add a parameter with position { key: 'thingid', location: 'insert' }",
    );
    expect(served).toEqual([]);
  });

  it('{{id}} whose parameter is in the query says to make it an insert parameter', () => {
    const [error] = byCode(check(schema('/things/{{id}}', { location: 'query' })).findings, 'VAL050');
    expect(error?.hint).toBe("the parameter 'id' has location 'query'; make it 'insert'");
  });
});

describe('served, the route with {id} is not a tool', () => {
  const project = tempProject();
  afterAll(() => project.remove());

  it('so a call can never send %7Bid%7D upstream; the same file with {{id}} dry-runs to the real URL', async () => {
    const schemas = join(project.dir, 'schemas');
    mkdirSync(schemas);
    writeFileSync(join(schemas, 'braces.mjs'), schema('/things/{id}'));
    let catalog = await Catalog.load({ schemas, project: project.dir, env: {} });
    try {
      const result = await catalog.call('example_getThing', { id: 'abc' }, { dryRun: true });
      expect(result).toMatchObject({ ok: false, error: { kind: 'unknown-tool' } });
    } finally {
      await catalog.close();
    }
    writeFileSync(join(schemas, 'braces.mjs'), schema('/things/{{id}}'));
    catalog = await Catalog.load({ schemas, project: project.dir, env: {} });
    try {
      const result = await catalog.call('example_getThing', { id: 'abc' }, { dryRun: true });
      expect(result).toMatchObject({ ok: true, dryRun: { method: 'GET', url: 'https://api.example.com/things/abc' } });
    } finally {
      await catalog.close();
    }
  });
});

describe(':key inside a path segment (issue 24: medium /feed/@:username)', () => {
  /** A one-route schema whose insert parameters are `keys`, at `path`. */
  function inSegment(path: string, keys: string[]): string {
    const parameters = keys
      .map(
        (key) =>
          `{ position: { key: '${key}', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: [] } }`,
      )
      .join(', ');
    const test = keys.map((key) => `${key}: 'a'`).join(', ');
    return `export const main = {
      namespace: 'example', name: 'Example', description: 'Things.', version: '2.0.0',
      root: 'https://api.example.com',
      routes: { getThing: { method: 'GET', path: '${path}', description: 'One thing.', parameters: [ ${parameters} ], tests: [ { _description: 'a thing', ${test} } ] } },
    };`;
  }

  function urlOf(path: string, args: Record<string, string>): string {
    const result = checkSchemaText('example.mjs', inSegment(path, Object.keys(args)), options);
    const route = result.schema?.routes[0];
    if (!result.schema || !route)
      throw new Error(`not served: ${result.findings.map((f) => `${f.code} ${f.message}`).join('; ')}`);
    return buildRequest(planRequest(result.schema, route), args, new SecretTokens()).url;
  }

  it('fills a placeholder after a literal in the segment, each value encoded as one segment', () => {
    expect(urlOf('/feed/@:username', { username: 'towards data' })).toBe(
      'https://api.example.com/feed/@towards%20data',
    );
  });

  it('fills several in one segment, the longest name first (lat1 is not lat followed by 1)', () => {
    expect(urlOf('/filter/box=:lat1,:lon1,:lat,:lon', { lat1: '1', lon1: '2', lat: '3', lon: '4' })).toBe(
      'https://api.example.com/filter/box=1,2,3,4',
    );
    expect(urlOf('/v1/:startDate..:endDate', { startDate: 'a', endDate: 'b' })).toBe('https://api.example.com/v1/a..b');
  });

  it('leaves a colon that names no insert parameter as text (claims:search)', () => {
    expect(urlOf('/v1/claims:search/:id', { id: 'x' })).toBe('https://api.example.com/v1/claims:search/x');
  });
});
