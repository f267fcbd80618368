// What differs between spec 2.x, 3.x and 4.x (R11, SPEC-NOTES-v3-v4 §1), where findings scope
// (R1), and how the handlers factory is read without running it: checkSchemaText on small
// schema texts.

import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/report/findings.js';
import { effectiveAllowlist } from '../../src/libraries/allowlist.js';
import { checkSchemaText } from '../../src/schema/check.js';
import { asServed, fileVerdict, scopeOf } from '../../src/report/scope.js';

const OPTIONS = { allowedLibraries: effectiveAllowlist([]) };
const ROUTE =
  "{ method: 'GET', path: '/ping', description: 'Ping.', parameters: [], output: { mimeType: 'application/json', schema: { type: 'object' } }, tests: [ { _description: 'ping' } ] }";

interface Main {
  version?: string;
  namespace?: string;
  map?: string;
  extra?: string;
  root?: string | null;
}

function schemaText(
  {
    version = '2.0.0',
    namespace = 'example',
    map = `routes: { ping: ${ROUTE} }`,
    extra = '',
    root = 'https://api.example.com',
  }: Main,
  handlers = '',
): string {
  const rootLine = root === null ? '' : `root: '${root}',`;
  return `export const main = { namespace: '${namespace}', name: 'Example', description: 'An example.', version: '${version}', ${rootLine} ${map}, ${extra} };\n${handlers}`;
}

function check(main: Main, handlers = '') {
  return checkSchemaText('t.mjs', schemaText(main, handlers), OPTIONS);
}

const codes = (findings: readonly Finding[]) =>
  findings.filter((f) => f.severity !== 'info').map((f) => `${f.code} ${f.path ?? ''}`.trim());

describe('the tool map and the version', () => {
  it.each([
    ['2.x routes', { version: '2.0.0' }, [], ['ping']],
    ['3.x tools', { version: '3.0.0', map: `tools: { ping: ${ROUTE} }` }, [], ['ping']],
    ['3.x routes, the alias', { version: '3.1.0' }, ['VAL007 main.routes'], ['ping']],
    ['4.x tools', { version: '4.2.0', map: `tools: { ping: ${ROUTE} }` }, [], ['ping']],
    ['4.x routes', { version: '4.0.0' }, ['VAL008 main.routes'], null],
    ['2.x tools', { version: '2.0.0', map: `tools: { ping: ${ROUTE} }` }, ['VAL008 main.tools'], null],
    [
      'both',
      { version: '3.0.0', map: `routes: { ping: ${ROUTE} }, tools: { ping: ${ROUTE} }` },
      ['VAL008 main.routes'],
      null,
    ],
    ['neither', { version: '4.0.0', map: "docs: ['https://docs.example.com']" }, ['VAL016 main.tools'], null],
    ['version 5', { version: '5.0.0' }, ['VAL014 main.version'], null],
    ['version 2.0', { version: '2.0' }, ['VAL014 main.version'], null],
  ] as const)('%s', (_name, main, expected, routes) => {
    const result = check(main);
    expect(codes(result.findings)).toEqual(expected);
    expect(result.schema?.routes.map((route) => route.name) ?? null).toEqual(routes);
  });

  it('allows empty tools from 3.x on where the file declares resources or skills, and needs no root then', () => {
    const result = check({
      version: '3.0.0',
      map: 'tools: {}',
      root: 'local://things',
      extra: "skills: { 'find-things': { file: './skills/find-things.mjs' } }",
    });
    // The skill is served from its file as an MCP prompt: nothing to report about `main.skills`.
    expect(result.findings).toEqual([]);
    expect(result.schema?.routes).toEqual([]);
  });

  it('does not allow empty routes in 2.x, nor empty tools without anything else', () => {
    expect(codes(check({ version: '2.0.0', map: 'routes: {}', extra: 'resources: { db: {} }' }).findings)).toEqual([
      'VAL016 main.routes',
    ]);
    expect(codes(check({ version: '4.0.0', map: 'tools: {}' }).findings)).toEqual(['VAL016 main.tools']);
  });

  it('needs a root when there are tools', () => {
    expect(codes(check({ version: '4.0.0', map: `tools: { ping: ${ROUTE} }`, root: null }).findings)).toEqual([
      'VAL015 main.root',
    ]);
  });

  it.each([
    ['2.x', '2.0.0', 'coingecko', []],
    ['2.x with a hyphen', '2.0.0', 'coingecko-com', ['VAL011 main.namespace']],
    ['3.x with a digit', '3.0.0', 'web3', ['VAL011 main.namespace']],
    ['4.x with a hyphen and a digit', '4.0.0', 'web3-data', []],
    ['4.x starting with a digit', '4.0.0', '1inch', ['VAL011 main.namespace']],
    ['4.x with an underscore', '4.0.0', 'web3_data', ['VAL011 main.namespace']],
  ] as const)('namespace %s', (_name, version, namespace, expected) => {
    const map = version.startsWith('2') ? `routes: { ping: ${ROUTE} }` : `tools: { ping: ${ROUTE} }`;
    expect(codes(check({ version, namespace, map }).findings)).toEqual(expected);
  });
});

describe('the smallest unit fails (R1)', () => {
  const twoRoutes = (bad: string) => `routes: { good: ${ROUTE}, bad: ${bad} }`;

  it.each([
    [
      'an unknown method',
      "{ method: 'PATCH', path: '/x', description: 'X.', parameters: [], tests: [ { _description: 'x' } ] }",
      'VAL032',
    ],
    [
      'an undeclared key in a value',
      "{ method: 'GET', path: '/x', description: 'X.', parameters: [ { position: { key: 'k', value: '{{NOPE}}', location: 'query' }, z: { primitive: 'string()', options: [] } } ], tests: [ { _description: 'x' } ] }",
      'VAL052',
    ],
    [
      'an unknown field',
      "{ method: 'GET', path: '/x', description: 'X.', parameters: [], tests: [ { _description: 'x' } ], paramters: [] }",
      'VAL003',
    ],
  ])('%s drops that route only', (_name, bad, code) => {
    const result = check({ map: twoRoutes(bad) });
    expect(result.findings.filter((f) => f.severity === 'error').map((f) => f.code)).toEqual([code]);
    expect(result.schema?.routes.map((route) => route.name)).toEqual(['good']);
    expect(fileVerdict(result)).toMatchObject({ status: 'loads', routes: 2, dropped: [{ route: 'bad' }] });
  });

  it.each([
    ['no tests', "{ method: 'GET', path: '/x', description: 'X.', parameters: [] }", 'TST001'],
    [
      'a test value that fails its z',
      "{ method: 'GET', path: '/x', description: 'X.', parameters: [ { position: { key: 'n', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: [] } } ], tests: [ { _description: 'x', n: 'ten' } ] }",
      'TST004',
    ],
    [
      'a malformed output schema',
      "{ method: 'GET', path: '/x', description: 'X.', parameters: [], output: { mimeType: 'application/json', schema: { type: 'obj' } }, tests: [ { _description: 'x' } ] }",
      'VAL061',
    ],
    [
      'an unknown field in the output',
      "{ method: 'GET', path: '/x', description: 'X.', parameters: [], output: { mimeType: 'application/json', schema: { type: 'object' }, extra: 1 }, tests: [ { _description: 'x' } ] }",
      'VAL003',
    ],
    [
      'an empty description',
      "{ method: 'GET', path: '/x', description: '', parameters: [], tests: [ { _description: 'x' } ] }",
      'VAL034',
    ],
    [
      'a malformed meta',
      "{ method: 'GET', path: '/x', description: 'X.', parameters: [], tests: [ { _description: 'x' } ], meta: { isReadOnly: 'yes' } }",
      'VAL038',
    ],
  ])(
    'an authoring error (%s) fails validate but drops nothing, and serving shows it as a warning',
    (_name, bad, code) => {
      const result = check({ map: twoRoutes(bad) });
      const errors = result.findings.filter((f) => f.severity === 'error');
      expect(errors.map((f) => f.code)).toContain(code);
      expect(result.schema?.routes.map((route) => route.name)).toEqual(['good', 'bad']);
      expect(asServed(result.findings).filter((f) => f.severity === 'error')).toEqual([]);
    },
  );

  it.each([
    ['a root on http', { root: 'http://api.example.com' }, 'VAL017'],
    ['an undeclared key in a header', { extra: "headers: { 'x-key': '{{NOPE}}' }" }, 'VAL052'],
    ['a library off the allowlist', { extra: "requiredLibraries: ['left-pad']" }, 'SEC013'],
  ] as const)('%s rejects the file', (_name, main, code) => {
    const result = check(main);
    expect(result.findings.filter((f) => f.severity === 'error').map((f) => f.code)).toEqual([code]);
    expect(result.schema).toBeNull();
    expect(fileVerdict(result)).toMatchObject({ status: 'rejected', error: { code } });
  });

  it('forbidden code anywhere in the handlers rejects the file', () => {
    const result = check(
      {},
      'export const handlers = () => ({ ping: { preRequest: async ({ struct }) => { process.exit(1); return { struct } } } })',
    );
    expect(result.findings.filter((f) => f.severity === 'error').map((f) => f.code)).toEqual(['SEC006']);
    expect(result.schema).toBeNull();
  });

  it.each([
    ['main.routes.x.parameters[0].z', { unit: 'route', route: 'x' }],
    ['main.tools["odd key"].path', { unit: 'route', route: 'odd key' }],
    ['main.tools.x.tests[0].n', { unit: 'nothing' }],
    ['main.routes.x.output.schema', { unit: 'nothing' }],
    ['main.routes.x.parameters[2].description', { unit: 'nothing' }],
    ['main.routes.x.parameters[2].z.description', { unit: 'nothing' }],
    ['main.termsOfService', { unit: 'nothing' }],
    ['main.root', { unit: 'file' }],
    ['main.routes', { unit: 'file' }],
    ['handlers.x.preRequest', { unit: 'file' }],
    [undefined, { unit: 'file' }],
  ] as const)('scope of %s', (path, scope) => {
    expect(scopeOf(path === undefined ? {} : { path })).toEqual(scope);
  });
});

describe('the handlers factory, read without running it', () => {
  const routes = `routes: { a: ${ROUTE}, b: ${ROUTE}, c: ${ROUTE}, d: ${ROUTE} }`;

  it('follows a route to a local object, a local function, and a function declaration that returns a bound object', () => {
    const handlers = `export const handlers = ( { sharedLists } ) => {
    const shared = { postRequest: async ( { response } ) => ( { response } ) }
    const arrow = ( name ) => ( { preRequest: async ( { struct } ) => ( { struct } ) } )
    function declared( name ) {
        const hooks = { preRequest: async ( { struct } ) => ( { struct } ), postRequest: async ( { response } ) => ( { response } ) }
        return hooks
    }
    return { a: shared, b: arrow( 'b' ), c: declared( 'c' ), d: someImport( 'd' ) }
}`;
    const result = check({ map: routes }, handlers);
    expect(result.schema?.handlers?.routes).toEqual({
      a: { preRequest: false, postRequest: true, executeRequest: false },
      b: { preRequest: true, postRequest: false, executeRequest: false },
      c: { preRequest: true, postRequest: true, executeRequest: false },
      d: null,
    });
  });

  it('sees an executeRequest (served) and an unknown hook that a helper builds', () => {
    const handlers = `export const handlers = () => {
    const build = ( name ) => ( { executeRequest: async () => ( { response: name } ) } )
    const odd = () => ( { onError: async () => null } )
    return { a: build( 'a' ), b: odd() }
}`;
    const result = check({ map: routes }, handlers);
    expect(result.findings.filter((f) => f.severity === 'error').map((f) => `${f.code} ${f.path}`)).toEqual([
      'VAL003 handlers.b.onError',
    ]);
  });
});
