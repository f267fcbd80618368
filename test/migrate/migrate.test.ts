// migrateLegacyText: a 1.2.0 file in, a 2.0.0 file out, read from the syntax tree only. The
// fixtures are small 1.2.0 files written for these tests: sound ones must come out valid, and
// what needs a person must be said where it stands and left in the new file as a comment.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FindingSink, type Finding } from '../../src/report/findings.js';
import { effectiveAllowlist } from '../../src/libraries/allowlist.js';
import { migrateLegacyText } from '../../src/migrate/migrate.js';
import { parseModule } from '../../src/scan/parse.js';
import { checkSchemaText } from '../../src/schema/check.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'migrate');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

function migrate(name: string, text = fixture(name)) {
  const result = migrateLegacyText(name, text);
  return { ...result, codes: result.findings.map((f) => `${f.code} ${f.line}:${f.column}`) };
}

/** The errors `validate` would report for the new file. */
function errorsOf(text: string | undefined): Finding[] {
  return checkSchemaText('new.mjs', text ?? '', { allowedLibraries: effectiveAllowlist([]) }).findings.filter(
    (f) => f.severity === 'error',
  );
}

/** A 1.2.0 schema around `routes` and `handlers` source text, with `before` at the top. */
function legacy(routes: string, handlers = '{}', before = ''): string {
  return `${before}
const schema = {
    namespace: 'tiny', name: 'Tiny', description: 'Tiny API', docs: [], tags: [], flowMCP: '1.2.0',
    root: 'https://api.tiny.example', requiredServerParams: [], headers: {},
    routes: ${routes},
    handlers: ${handlers}
}

export { schema }
`;
}

const ROUTE = (modifiers: string) => `{
        ping: {
            requestMethod: 'POST', description: 'Ping', route: '/ping', parameters: [],
            tests: [ { _description: 'ping' } ],
            modifiers: ${modifiers}
        }
    }`;

describe('a file without handlers', () => {
  it('becomes `export const main` with version 2.0.0, method and path, laid out like a hand-written file', () => {
    const { legacy: isLegacy, text, findings, routes, routesWithHandlers } = migrate('plain.mjs');
    expect({ isLegacy, findings, routes, routesWithHandlers }).toEqual({
      isLegacy: true,
      findings: [],
      routes: 1,
      routesWithHandlers: 0,
    });
    expect(text).toBe(`// Migrated from FlowMCP 1.2.0 ('plain.mjs') by \`flowguard migrate\`.


export const main = {
  namespace: 'plain',
  name: 'Plain API',
  description: 'A 1.2.0 file without handlers: it\\'s data only',
  version: '2.0.0',
  docs: ['https://docs.plain.example'],
  tags: ['test'],
  root: 'https://api.plain.example/v1',
  requiredServerParams: ['PLAIN_KEY'],
  headers: { 'x-api-key': '{{PLAIN_KEY}}' },
  routes: {
    listItems: {
      method: 'GET',
      path: '/items',
      description: 'Lists items',
      parameters: [
        { position: { key: 'limit', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: ['min(1)', 'max(100)', 'default(20)', 'optional()'] } },
        { position: { key: 'format', value: 'json', location: 'query' }, z: { primitive: 'string()', options: [] } }
      ],
      tests: [{ _description: 'Ten items', limit: 10 }]
    }
  }
}
`);
    expect(errorsOf(text)).toEqual([]);
  });

  it("reads a route map called `tools` (the 3.0.0 catalog's copies of 1.2.0 files) as the routes", () => {
    const { text, findings } = migrate('tools.mjs', fixture('plain.mjs').replace('routes: {', 'tools: {'));
    expect(findings).toEqual([]);
    expect(text).toBe(migrate('plain.mjs').text?.replace("('plain.mjs')", "('tools.mjs')"));
  });
});

describe('a file with handlers', () => {
  const relay = migrate('relay.mjs');

  it('validates without errors, saying what it changed on the way', () => {
    expect(relay.codes).toEqual(['MIG008 40:128', 'MIG004 41:82']);
    expect(errorsOf(relay.text)).toEqual([]);
    expect(relay.routesWithHandlers).toBe(2);
  });

  it('writes module-level constants the data names as their values, and copies those the handlers use into the factory', () => {
    expect(relay.text).toContain(
      `z: { primitive: 'enum(mainnet,testnet)', options: ['default(mainnet)', 'optional()'] }`,
    );
    expect(relay.text).toContain(
      `export const handlers = ({ sharedLists, libraries }) => {\n  // Module-level code of the 1.2.0 file that its handlers use.\n  const fields = [ 'id', 'name' ]\n`,
    );
    expect(relay.text).not.toContain('const networks');
  });

  it('moves handler code to its new indentation but keeps template text byte for byte', () => {
    const query = /`query Things[\s\S]*?`/.exec(fixture('relay.mjs'))?.[0] as string;
    expect(query).toContain('\n  things(first: $first) {\n    ${fields');
    expect(relay.text).toContain(query);
    expect(relay.text).toContain(
      `    buildQuery: async ( { struct, payload, userParams } ) => {\n        const { network, first } = userParams\n`,
    );
    expect(relay.text).toContain(`    failOnError( { struct, payload } ) {\n`);
  });

  it('wires each route to its handlers by phase, in modifier order', () => {
    expect(relay.text).toContain(
      `    searchThings: { preRequest: legacyPreRequest('searchThings', ['buildQuery']), postRequest: legacyPostRequest('searchThings', ['unwrapGraphQL']) },`,
    );
    expect(relay.text).toContain(
      `    getThing: { preRequest: legacyPreRequest('getThing', ['setNetworkHeader']), postRequest: legacyPostRequest('getThing', ['failOnError']) }\n`,
    );
    const chained = migrate(
      'chain.mjs',
      legacy(
        ROUTE(
          `[ { phase: 'post', handlerName: 'b' }, { phase: 'pre', handlerName: 'p' }, { phase: 'post', handlerName: 'a' } ]`,
        ),
        `{ a: ( { struct, payload } ) => ( { struct, payload } ), b: ( { struct, payload } ) => ( { struct, payload } ), p: ( { struct, payload } ) => ( { struct, payload } ) }`,
      ),
    );
    expect(chained.text).toContain(
      `ping: { preRequest: legacyPreRequest('ping', ['p']), postRequest: legacyPostRequest('ping', ['b', 'a']) }`,
    );
    expect(errorsOf(chained.text)).toEqual([]);
  });

  it('writes only the adapters the routes use', () => {
    expect(relay.text).not.toContain('legacyExecuteRequest');
    const execute = migrate(
      'execute.mjs',
      legacy(
        ROUTE(`[ { phase: 'execute', handlerName: 'compute' } ]`),
        `{ compute: async ( { struct, payload } ) => { struct.data = 42; return { struct, payload } } }`,
      ),
    );
    expect(execute.text).toContain(`ping: { executeRequest: legacyExecuteRequest('ping', ['compute']) }`);
    expect(execute.text).not.toContain('legacyPreRequest');
  });

  it('resolves a `handlers` field that names a module-level object, and copies `export`ed helpers without their export', () => {
    const { text, findings } = migrate(
      'named.mjs',
      legacy(
        ROUTE(`[ { phase: 'post', handlerName: 'scale' } ]`),
        'moduleHandlers',
        `export const factor = 3\nconst moduleHandlers = { scale: async ( { struct, payload } ) => { struct.data = struct.data * factor; return { struct, payload } } }`,
      ),
    );
    expect(findings).toEqual([]);
    expect(text).toContain('  const factor = 3\n');
    expect(text).not.toContain('export const factor');
    expect(errorsOf(text)).toEqual([]);
  });
});

describe('what needs a person', () => {
  const person = migrate('person.mjs');

  it('is reported against the 1.2.0 file, each where it stands', () => {
    expect(person.codes).toEqual([
      'MIG002 26:105',
      'MIG001 37:9',
      'MIG003 31:17',
      'MIG003 32:17',
      'MIG001 4:1',
      'MIG001 8:1',
      'MIG006 42:9',
      'MIG006 6:1',
    ]);
    expect(person.findings.map((f) => f.path)).toEqual([
      'schema.routes.getPerson.parameters[0].z.primitive',
      'schema.handlers.addRoot',
      'schema.routes.getPerson.modifiers[1]',
      'schema.routes.getPerson.modifiers[2]',
      undefined,
      undefined,
      'schema.handlers.neverUsed',
      undefined,
    ]);
  });

  it('leaves code it cannot carry over in // comments at the end, and a value that is not data as it was', () => {
    const text = person.text as string;
    expect(text).toContain(`z: { primitive: helper( 'string' ), options: [] }`);
    expect(text).toContain(`// flowguard migrate (MIG001): not carried over, an import: `);
    expect(text).toContain(`// import { helper } from './helper.mjs'`);
    expect(text).toContain(`// console.log( 'loaded' )`);
    expect(text).toContain(
      `// addRoot: async ( { struct, payload } ) => {\n//     struct.data = { ...struct.data, root: schema.root }\n//\n//     return { struct, payload }\n// }`,
    );
    // The route's only handler was left for a person, so there is no factory at all.
    expect(text).not.toContain('export const handlers');
    expect(text).not.toContain('neverUsed');
    expect(text).not.toContain('const unused');
  });

  it('keeps commented-out code inert even when it holds */', () => {
    const { text } = migrate('comment.mjs', legacy(ROUTE('[]'), '{}', `/* a */ console.log( '*/ process.exit( 1 )' )`));
    expect(text).toContain(`\n// console.log( '*/ process.exit( 1 )' )\n`);
    expect(errorsOf(text)).toEqual([]);
  });
});

describe('nothing of the legacy file becomes code by way of a comment', () => {
  it('a U+2028 or CR in commented-out code, a handler name or the file name ends no comment early', () => {
    const sneaky = 'fetch("https://evil.example")';
    const text = legacy(
      ROUTE(`[ { phase: 'post', handlerName: 'x\\u2028y' } ]`),
      `{ 'a\u2028${sneaky}': ( { struct, payload } ) => ( { struct, payload, root: schema.root } ) }`,
      `console.log( 'one\u2028${sneaky}' ); console.log( \`two\r${sneaky}\` )`,
    );
    const result = migrateLegacyText(`name\u2028${sneaky}.mjs`, text);
    const program = parseModule(result.text as string, new FindingSink('new.mjs', result.text));
    // Only `export const main` is code; the rest is comments (the handler used `schema`, so no factory).
    expect(program?.body.map((statement) => statement.type)).toEqual(['ExportNamedDeclaration']);
    expect(result.text).toContain(sneaky);
  });
});

describe('files that are not 1.2.0', () => {
  it('are no legacy files: a 2.0.0 schema, a file without a flowMCP field', () => {
    expect(migrate('v2.mjs', `export const main = { namespace: 'x' }`)).toMatchObject({ legacy: false, findings: [] });
    expect(migrate('other.mjs', `export const schema = { namespace: 'x' }`)).toMatchObject({
      legacy: false,
      findings: [],
    });
  });

  it('a file that does not parse is named as such, nothing is written', () => {
    const result = migrate('broken.mjs', 'const schema = { flowMCP: ');
    expect(result.legacy).toBe(false);
    expect(result.text).toBeUndefined();
    expect(result.findings.map((f) => f.code)).toEqual(['SEC016']);
  });
});
