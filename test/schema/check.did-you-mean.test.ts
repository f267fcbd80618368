// Issue 17: an unknown field, primitive, option or hook gets "did you mean 'x'?" where a known
// name is close, and no suggestion where none is (a wrong guess costs the author more than none).

import { describe, expect, it } from 'vitest';
import { closestName } from '../../src/report/did-you-mean.js';
import { effectiveAllowlist } from '../../src/libraries/allowlist.js';
import { loadListFiles } from '../../src/lists/registry.js';
import type { Finding } from '../../src/report/findings.js';
import { checkSchemaText } from '../../src/schema/check.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const options = { allowedLibraries: effectiveAllowlist([]) };

/** A valid one-route schema with `mainExtra` added to main, the z of its parameter and `handlers` source. */
function schema({
  mainExtra = '',
  primitive = 'string()',
  options: zOptions = "'min(1)'",
  handlers = '',
} = {}): string {
  return `export const main = {
    namespace: 'example', name: 'Example', description: 'Things.', version: '2.0.0',
    root: 'https://api.example.com', ${mainExtra}
    routes: {
      getThing: {
        method: 'GET', path: '/things/{{id}}', description: 'One thing.',
        parameters: [ { position: { key: 'id', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: '${primitive}', options: [${zOptions}] } } ],
        tests: [ { _description: 'a thing', id: 'abc' } ],
      },
    },
  };
  ${handlers}`;
}

function hintOf(text: string, code: string): string | undefined {
  const findings: Finding[] = checkSchemaText('example.mjs', text, options).findings;
  const finding = findings.find((f) => f.code === code);
  expect(finding, `${code} in ${JSON.stringify(findings)}`).toBeDefined();
  return finding?.hint;
}

describe('closestName', () => {
  it('suggests a name one slip away, ignoring case, and nothing far away', () => {
    expect(closestName('namespce', ['namespace', 'name'])).toBe('namespace');
    expect(closestName('Root', ['root', 'routes'])).toBe('root');
    expect(closestName('url', ['tags', 'root', 'docs'])).toBeUndefined();
    expect(closestName('x', ['y'])).toBe('y');
    expect(closestName('headrs', [])).toBeUndefined();
  });
});

describe('unknown field (VAL003)', () => {
  it('in main: a misspelt field gets its known name, a foreign one keeps the plain hint', () => {
    expect(hintOf(schema({ mainExtra: "requiredServerParam: ['API_KEY']," }), 'VAL003')).toBe(
      "did you mean 'requiredServerParams'? remove the field or fix its spelling",
    );
    expect(hintOf(schema({ mainExtra: "author: 'me'," }), 'VAL003')).toBe('remove the field or fix its spelling');
  });

  it('in a route and a parameter, among the fields of that object', () => {
    const route = schema().replace("method: 'GET'", "methd: 'GET', method: 'GET'");
    expect(hintOf(route, 'VAL003')).toMatch(/^did you mean 'method'\?/);
    const param = schema().replace("location: 'insert' }", "location: 'insert', vlaue: 'x' }");
    expect(hintOf(param, 'VAL003')).toMatch(/^did you mean 'value'\?/);
  });

  it('as a handler hook', () => {
    const handlers = 'export const handlers = () => ({ getThing: { preReqest: ({ struct }) => ({ struct }) } });';
    expect(hintOf(schema({ handlers }), 'VAL003')).toBe(
      "did you mean 'preRequest'? hooks are preRequest, executeRequest and postRequest",
    );
  });

  it('in a shared-list file, with the fields allowed there', () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowguard-dym-'));
    try {
      const file = join(dir, 'colors.mjs');
      writeFileSync(
        file,
        "export const list = { meta: { name: 'colors', version: '1.0.0', descripton: 'x', description: 'Colours.', fields: [ { key: 'id', type: 'string', description: 'The id.' } ] }, entries: [ { id: 'red' } ] };\n",
      );
      const finding = loadListFiles([file], {}).findings.find((f) => f.message.includes('descripton'));
      expect(finding?.hint).toMatch(/^did you mean 'description'\? allowed here: /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('unknown primitive (VAL044) and option (VAL045)', () => {
  it('a misspelt primitive is corrected, an unrelated one is not', () => {
    expect(hintOf(schema({ primitive: 'strng()' }), 'VAL044')).toBe(
      "did you mean 'string()'? use string(), number(), boolean(), enum(a,b), array() or object()",
    );
    expect(hintOf(schema({ primitive: 'Number()' }), 'VAL044')).toMatch(/^did you mean 'number\(\)'\?/);
    expect(hintOf(schema({ primitive: 'date()' }), 'VAL044')).toBe(
      'use string(), number(), boolean(), enum(a,b), array() or object()',
    );
  });

  it('a misspelt option keeps its argument; one without parentheses gets them; an unrelated one gets no guess', () => {
    expect(hintOf(schema({ options: "'defualt(abc)'" }), 'VAL045')).toMatch(/^did you mean 'default\(abc\)'\?/);
    expect(hintOf(schema({ options: "'optional'" }), 'VAL045')).toMatch(/^did you mean 'optional\(\)'\?/);
    expect(hintOf(schema({ options: "'minLength(3)'" }), 'VAL045')).toBe(
      'options are min(n), max(n), length(n), optional(), default(x), regex(p) and values(a,b)',
    );
  });
});
