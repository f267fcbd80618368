// The output schema read off answers: merged types, nullable, the depth bound, notes for what
// the grammar cannot say, and descriptions kept. Every schema it makes passes the checker's
// output rules (src/schema/output.ts) with no finding.

import { describe, expect, it } from 'vitest';
import { inferOutputSchema } from '../../src/authoring/output-infer.js';
import { FindingSink } from '../../src/report/findings.js';
import { checkOutput } from '../../src/schema/output.js';

function findingsOf(schema: Record<string, unknown>): string[] {
  const sink = new FindingSink('inferred.mjs');
  checkOutput({ mimeType: 'application/json', schema }, 'main.routes.r.output', sink);
  return sink.findings.map((finding) => `${finding.code} ${finding.message}`);
}

describe('inferOutputSchema', () => {
  it('merges the keys of every answer, marks null as nullable and types integers as number', () => {
    const { schema, notes } = inferOutputSchema([
      { id: 1, name: 'a', tags: ['x'], owner: null },
      { id: 2, extra: true, tags: [], owner: { login: 'b' } },
    ]);
    expect(schema).toEqual({
      type: 'object',
      properties: {
        id: { type: 'number' },
        name: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
        owner: { type: 'object', nullable: true, properties: { login: { type: 'string' } } },
        extra: { type: 'boolean' },
      },
    });
    expect(notes).toEqual([]);
    expect(findingsOf(schema)).toEqual([]);
  });

  it('merges every element of every array into one items schema; an array only ever empty has none', () => {
    const { schema } = inferOutputSchema([[{ a: 1 }, { a: null, b: 'x' }], []]);
    expect(schema).toEqual({
      type: 'array',
      items: { type: 'object', properties: { a: { type: 'number', nullable: true }, b: { type: 'string' } } },
    });
    expect(inferOutputSchema([{ list: [] }]).schema).toEqual({
      type: 'object',
      properties: { list: { type: 'array' } },
    });
  });

  it('writes no node deeper than level 4: a level-4 object or array is typed only', () => {
    const deep = { a: { b: { c: { d: { e: 1 } }, list: [[1]] } } };
    const { schema } = inferOutputSchema([deep]);
    expect(schema).toEqual({
      type: 'object',
      properties: {
        a: {
          type: 'object',
          properties: { b: { type: 'object', properties: { c: { type: 'object' }, list: { type: 'array' } } } },
        },
      },
    });
    expect(findingsOf(schema)).toEqual([]);
  });

  it('notes what the grammar cannot say: two types at one place (the first kept), a value only ever null', () => {
    const { schema, notes } = inferOutputSchema([
      { price: 1, gone: null, 'a/b': 'x' },
      { price: '2', gone: null, 'a/b': 3 },
    ]);
    expect(schema).toEqual({
      type: 'object',
      properties: { price: { type: 'number' }, gone: { type: 'string', nullable: true }, 'a/b': { type: 'string' } },
    });
    expect(notes).toEqual([
      '/price: seen as number and string; typed number',
      '/gone: only ever null; typed string',
      '/a~1b: seen as string and number; typed string',
    ]);
  });

  it('keeps the descriptions of the previous schema where the type is the same', () => {
    const previous = {
      type: 'object',
      description: 'The answer.',
      properties: {
        price: { type: 'number', description: 'In USD.' },
        name: { type: 'number', description: 'Was a number.' },
        list: { type: 'array', items: { type: 'object', description: 'One entry.' } },
      },
    };
    const { schema } = inferOutputSchema([{ price: 1, name: 'x', list: [{}] }], previous);
    expect(schema).toEqual({
      type: 'object',
      description: 'The answer.',
      properties: {
        price: { type: 'number', description: 'In USD.' },
        name: { type: 'string' },
        list: { type: 'array', items: { type: 'object', description: 'One entry.' } },
      },
    });
  });

  it('never narrows what the author wrote: nullable, an enum, a format, properties and items the answers did not show', () => {
    const previous = {
      type: 'object',
      properties: {
        note: { type: 'string', nullable: true },
        status: { type: 'string', enum: ['open', 'closed'] },
        updated: { type: 'string', format: 'date-time' },
        link: { type: 'string', format: 'uri' },
        rare: { type: 'number', description: 'Only on some answers.' },
        tags: { type: 'array', items: { type: 'string', description: 'A label.' } },
        gone: { type: 'number', nullable: true },
      },
    };
    const answers = [
      { note: 'x', status: 'open', updated: '2026-01-02T03:04:05Z', link: 'not a uri', tags: [], gone: null },
      {
        note: 'y',
        status: 'merged',
        updated: '2026-01-03T00:00:00Z',
        link: 'https://example.test/1',
        tags: [],
        gone: null,
      },
    ];
    const { schema, notes } = inferOutputSchema(answers, previous);
    expect(schema).toEqual({
      type: 'object',
      properties: {
        note: { type: 'string', nullable: true },
        status: { type: 'string', enum: ['open', 'closed', 'merged'] },
        updated: { type: 'string', format: 'date-time' },
        link: { type: 'string' },
        tags: { type: 'array', items: { type: 'string', description: 'A label.' } },
        gone: { type: 'number', nullable: true },
        rare: { type: 'number', description: 'Only on some answers.' },
      },
    });
    expect(notes).toEqual(['/status: enum gains "merged"', '/link: "not a uri" is not a uri; format left out']);
    expect(findingsOf(schema)).toEqual([]);
  });

  it("prefers the author's type where the answers showed it among others, and notes a type they never showed", () => {
    const previous = {
      type: 'object',
      properties: { price: { type: 'number', description: 'In USD.' }, name: { type: 'number' } },
    };
    const { schema, notes } = inferOutputSchema(
      [
        { price: '1', name: 'x' },
        { price: 2, name: 'y' },
      ],
      previous,
    );
    expect(schema).toEqual({
      type: 'object',
      properties: { price: { type: 'number', description: 'In USD.' }, name: { type: 'string' } },
    });
    expect(notes).toEqual([
      '/price: seen as string and number; typed number',
      '/name: written as number, seen as string; typed string',
    ]);
  });

  it('keeps a key named __proto__ as a plain property', () => {
    const { schema } = inferOutputSchema([JSON.parse('{"__proto__": {"x": 1}}')]);
    expect(Object.keys(schema.properties as object)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(schema.properties)).toBe(Object.prototype);
  });
});
