// The surgical edit of a schema file's text: only the output's schema value changes, or the
// missing property is inserted in the file's own indentation; everything else stays byte for byte.

import { describe, expect, it } from 'vitest';
import { applyOutputEdits } from '../../src/authoring/output-edit.js';

const FILE = `// A comment that must survive.
export const main = {
    namespace: 'demo',
    routes: {
        'getThing': {
            method: 'GET', // why GET
            output: { mimeType: 'application/json', description: 'kept', schema: { type: 'object' } },
            tests: [ { _description: 'x' } ]
        },
        other: {
            method: 'GET',
        },
    }
};
`;

describe('applyOutputEdits', () => {
  it('replaces only the value of output.schema, keeping its siblings and every other byte', () => {
    const result = applyOutputEdits(FILE, [{ route: 'getThing', schema: { type: 'array' } }]);
    expect(result).toEqual({ text: FILE.replace("schema: { type: 'object' } }", "schema: { type: 'array' } }") });
  });

  it("inserts output after the last property, in the route's indentation, with the trailing comma the object uses", () => {
    const result = applyOutputEdits(FILE, [{ route: 'other', schema: { type: 'array' } }]);
    expect(result).toEqual({
      text: FILE.replace(
        "            method: 'GET',\n        },",
        "            method: 'GET',\n            output: { mimeType: 'application/json', schema: { type: 'array' } },\n        },",
      ),
    });
  });

  it('applies several edits to one file', () => {
    const result = applyOutputEdits(FILE, [
      { route: 'other', schema: { type: 'array' } },
      { route: 'getThing', schema: { type: 'string' } },
    ]);
    expect('text' in result && result.text).toContain("schema: { type: 'string' } }");
    expect('text' in result && result.text).toContain(
      "output: { mimeType: 'application/json', schema: { type: 'array' } },",
    );
  });

  it('breaks a long schema over lines, one entry a line, quoting keys that are no identifiers', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 6 }, (_, index) => [
        `field-${index}`,
        { type: 'string', description: 'a long enough description' },
      ]),
    );
    const result = applyOutputEdits(FILE, [{ route: 'getThing', schema: { type: 'object', properties } }]);
    const text = 'text' in result ? result.text : '';
    // Nested one level below the output's line, with the trailing commas the file writes elsewhere.
    expect(text).toContain(
      "schema: {\n                    type: 'object',\n                    properties: {\n                        'field-0': { type: 'string', description: 'a long enough description' },\n",
    );
    expect(text).toContain(
      "'field-5': { type: 'string', description: 'a long enough description' },\n                    },\n                } },\n            tests:",
    );
  });

  it('says why where the output cannot be placed, and changes nothing', () => {
    expect(applyOutputEdits(FILE, [{ route: 'missing', schema: { type: 'object' } }])).toEqual({
      problem: "route 'missing' is not written as an object literal in main",
    });
    expect(applyOutputEdits('export const main = build();', [{ route: 'x', schema: {} }])).toEqual({
      problem: '`export const main` is not written as an object literal',
    });
    expect(
      applyOutputEdits('export const main = { routes: { r: { output: shared } } };', [{ route: 'r', schema: {} }]),
    ).toEqual({ problem: "route 'r': `output` is not written as an object literal" });
  });
});
