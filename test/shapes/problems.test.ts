// The one mapper from a shape's validator errors to problems (src/shapes/problems.ts), on small
// shapes compiled the way the generator compiles flowguard's own (scripts/generate.ts).

import { describe, expect, it } from 'vitest';
import { shapeCompiler } from '../../scripts/generate.js';
import { FindingSink } from '../../src/report/findings.js';
import { checkShape, shapeProblems, type ShapeProblem, type ShapeValidator } from '../../src/shapes/problems.js';
import { annotated, closedObject, type Shape } from '../../src/shapes/vocabulary.js';
import { validate as validateMain } from '../../src/schema/main-shape.generated.js';

const compile = (shape: Shape) => shapeCompiler().compile(shape) as ShapeValidator;
const brief = (problems: readonly ShapeProblem[]) =>
  problems.map((p) => `${p.code ?? '-'} ${p.path ?? '(document)'}: ${p.message}${p.hint ? ` | ${p.hint}` : ''}`);

const THING = closedObject(
  {
    name: annotated(
      { type: 'string', minLength: 1 },
      { code: 'LST002', message: '`name` is no name: {found}', hint: 'give it a name' },
    ),
    size: annotated({ type: 'integer', maximum: 3 }, { code: 'LST003' }),
    tags: annotated(
      {
        type: 'array',
        allOf: [annotated({ maxItems: 2 }, { code: 'LST006', message: '{count} tags, at most {limit}' })],
      },
      { code: 'LST006' },
    ),
  },
  ['name', 'size'],
  { code: 'LST001', message: 'a thing is an object, found {found}' },
  { code: 'LST001', message: "unknown field '{key}'", hint: 'allowed here: {allowed}' },
);

describe('shapeProblems', () => {
  const validate = compile(THING);

  it('gives each failure the code, message and hint of its subschema, at its path', () => {
    expect(brief(shapeProblems(validate, { name: 7, size: 2, extra: true }, { root: 'list' }))).toEqual([
      "LST001 list.extra: unknown field 'extra' | allowed here: name, size, tags",
      'LST002 list.name: `name` is no name: number 7 | give it a name',
    ]);
    expect(brief(shapeProblems(validate, [], { root: 'list' }))).toEqual([
      'LST001 list: a thing is an object, found an array',
    ]);
  });

  it('words a failure its shape leaves unworded as findings about main always were', () => {
    const problems = shapeProblems(validate, { name: 'a', size: 4.5 }, { root: 'main' });
    expect(brief(problems)).toEqual([
      'LST003 main.size: `size` must be integer',
      'LST003 main.size: `size` must be <= 3',
    ]);
    const enumerated = compile(
      annotated(
        {
          type: 'object',
          properties: { method: annotated({ enum: ['GET', 'POST'] }, { code: 'VAL032' }) },
          required: ['method'],
          additionalProperties: false,
          'x-unknown': { code: 'VAL003' },
        },
        { code: 'VAL002' },
      ),
    );
    expect(brief(shapeProblems(enumerated, { method: 'PATCH', body: 1 }, { root: 'main' }))).toEqual([
      // Too far from any known key for a did-you-mean: the hint names the known ones.
      'VAL003 main.body: unknown field `body` | the keys here: method',
      'VAL032 main.method: `method` must be one of GET, POST',
    ]);
    expect(brief(shapeProblems(enumerated, {}, { root: 'main' }))).toEqual([
      'VAL032 main.method: `method` is required',
    ]);
  });

  it('reports a missing property at its own path with its own meaning, or at its object with x-missing', () => {
    expect(brief(shapeProblems(validate, { size: 1 }, { root: 'list' }))).toEqual([
      'LST002 list.name: `name` is no name: nothing | give it a name',
    ]);
    const atObject = compile({ ...THING, 'x-missing': 'object' });
    expect(brief(shapeProblems(atObject, { size: 1 }, { root: 'list' }))).toEqual([
      'LST002 list: `name` is no name: nothing | give it a name',
    ]);
  });

  it('fills {count} and {limit}, and does not repeat an allOf branch as its wrapper', () => {
    expect(brief(shapeProblems(validate, { name: 'a', size: 1, tags: [1, 2, 3] }, { root: 'list' }))).toEqual([
      'LST006 list.tags: 3 tags, at most 2',
    ]);
  });

  it('names a key refused by propertyNames at that key', () => {
    const names = compile({
      type: 'object',
      propertyNames: annotated(
        { pattern: '^[a-z]+$' },
        { code: 'GRP001', message: "name '{value}' breaks {key}'s rule" },
      ),
    });
    expect(brief(shapeProblems(names, { ok: 1, 'Bad Name': 2 }, { root: 'groups' }))).toEqual([
      `GRP001 groups["Bad Name"]: name 'Bad Name' breaks Bad Name's rule`,
    ]);
  });

  it('tells array items from object keys that look like numbers', () => {
    const nested = compile({
      type: 'object',
      additionalProperties: {
        type: 'array',
        items: annotated({ type: 'string' }, { code: 'VAL020', message: 'no string' }),
      },
    });
    expect(brief(shapeProblems(nested, { '0': [1], a: ['x', 2] }, { root: 'main' }))).toEqual([
      'VAL020 main["0"][0]: no string',
      'VAL020 main.a[1]: no string',
    ]);
  });

  it('names the top-level keys of a JSON file without a root, and the file itself with no path', () => {
    const file = compile(
      closedObject(
        { groups: annotated({ type: 'object' }, { code: 'GRP007', message: 'groups is {found}' }) },
        [],
        { code: 'GRP007', message: 'not an object' },
        { code: 'GRP007' },
      ),
    );
    expect(shapeProblems(file, { groups: [] }, { root: '' }).map((p) => p.path)).toEqual(['groups']);
    expect(shapeProblems(file, 'text', { root: '' }).map((p) => p.path)).toEqual([undefined]);
  });

  it('fills names the caller supplies, and leaves braces it does not know as written', () => {
    const named = compile(
      annotated(
        { type: 'string' },
        {
          code: 'GRP007',
          message: 'a group is { description, tools }',
          hint: 'flowguard group create {group} --force {other}',
        },
      ),
    );
    expect(brief(shapeProblems(named, 1, { root: 'groups', vars: { group: 'trading' } }))).toEqual([
      'GRP007 groups: a group is { description, tools } | flowguard group create trading --force {other}',
    ]);
  });

  it('reports a property that requires another at the property, naming both', () => {
    const together = compile(
      annotated(
        { type: 'object', dependentRequired: { contentHash: ['content'] } },
        { code: 'GRP007', message: 'the group has {key} without {missing}' },
      ),
    );
    expect(brief(shapeProblems(together, { contentHash: 'x' }, { root: 'groups' }))).toEqual([
      'GRP007 groups.contentHash: the group has contentHash without content',
    ]);
  });

  it("words problems by the defaults a reader asks for (the config: Ajv's own words after the key)", () => {
    const problems = shapeProblems(
      validate,
      { name: 'a', size: 9, more: 1 },
      { root: '', messages: { additionalProperties: "must NOT have additional properties '{key}'", '*': '{detail}' } },
    );
    expect(problems.map((p) => `${p.at.join('.') || '(top level)'} ${p.message}`)).toEqual([
      "(top level) unknown field 'more'",
      'size must be <= 3',
    ]);
  });
});

describe('checkShape', () => {
  it('adds every problem to the sink as a finding, an uncoded one under the fallback code', () => {
    const sink = new FindingSink('list.mjs');
    const uncoded = compile({ type: 'object', properties: { n: { type: 'number' } } });
    expect(checkShape(uncoded, { n: 'x' }, { root: 'list', fallback: 'LST001' }, sink)).toHaveLength(1);
    expect(sink.findings).toEqual([
      { code: 'LST001', severity: 'error', file: 'list.mjs', path: 'list.n', message: '`n` must be number' },
    ]);
    expect(checkShape(uncoded, { n: 1 }, { root: 'list', fallback: 'LST001' }, sink)).toEqual([]);
  });
});

describe('a document holding keys named toString or valueOf', () => {
  // Found by test/fuzz.test.ts: Ajv's uniqueItems helper (fast-deep-equal) calls an object's own
  // toString, so `main` with requiredServerParams [{}, {toString: false}] threw out of the check.
  // The generated validators compare with dataEqual (src/shapes/data-equal.ts), which calls nothing.
  const main = (requiredServerParams: unknown) => ({
    namespace: 'demo',
    name: 'Demo',
    description: 'A demo',
    version: '2.0.0',
    root: 'https://api.example.com',
    requiredServerParams,
    routes: { getThing: { method: 'GET', path: '/thing', description: 'Gets a thing', parameters: [] } },
  });
  const atParams = (problems: readonly ShapeProblem[]) =>
    brief(problems.filter((p) => p.path?.startsWith('main.requiredServerParams')));

  it('gets findings at the items, not an exception', () => {
    expect(atParams(shapeProblems(validateMain, main([{}, { toString: false }]), { root: 'main' }))).toEqual([
      "VAL022 main.requiredServerParams[0]: `requiredServerParams[0]` must be string | a list of distinct key names, e.g. requiredServerParams: ['EXAMPLE_API_KEY']",
      "VAL022 main.requiredServerParams[1]: `requiredServerParams[1]` must be string | a list of distinct key names, e.g. requiredServerParams: ['EXAMPLE_API_KEY']",
    ]);
  });

  it('finds two equal items equal, own toString and valueOf keys compared as data', () => {
    const twice = shapeProblems(
      validateMain,
      main([
        { toString: 1, valueOf: 2 },
        { valueOf: 2, toString: 1 },
      ]),
      {
        root: 'main',
      },
    );
    expect(twice.some((p) => p.keyword === 'uniqueItems')).toBe(true);
    const distinct = shapeProblems(validateMain, main([{ toString: 1 }, { toString: 2 }]), { root: 'main' });
    expect(distinct.some((p) => p.keyword === 'uniqueItems')).toBe(false);
  });
});
