// The URL a route's plan builds is not parsed per call where the plan was proved at load to build
// only URLs that parse back to themselves (stable-target.ts). Here every such URL, with hostile
// arguments and key values, is parsed anyway and must be exactly the target the call uses; and
// the plans whose URLs the parser could change are refused the shortcut.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OriginRule } from '../../src/http/origin.js';
import { buildRequest, outgoingRequest, planRequest } from '../../src/http/request.js';
import { SecretTokens } from '../../src/http/secrets.js';
import { stableOrigin, stableTarget, targetOf } from '../../src/http/stable-target.js';
import { Upstreams } from '../../src/http/upstreams.js';
import { checkSchemaText } from '../../src/schema/check.js';
import { effectiveAllowlist } from '../../src/libraries/allowlist.js';
import type { RequestPlan } from '../../src/http/request.js';
import type { CanonicalSchema, TemplatePart } from '../../src/schema/types.js';

function schemaWith(root: string, path: string): CanonicalSchema {
  const inserts = [...path.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).filter((name) => name !== 'API_KEY');
  const parameters = [
    ...inserts.map(
      (key) =>
        `{ position: { key: '${key}', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: [] } }`,
    ),
    `{ position: { key: 'q', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: ['optional()'] } }`,
    `{ position: { key: 'apikey', value: '{{API_KEY}}', location: 'query' }, z: { primitive: 'string()', options: [] } }`,
  ];
  const main = `{
    namespace: 'example', name: 'Example', description: 'x', version: '2.0.0', root: '${root}',
    requiredServerParams: ['API_KEY'],
    routes: { get: { method: 'GET', path: '${path}', description: 'x', parameters: [${parameters.join(', ')}],
      tests: [{ _description: 'x', ${inserts.map((key) => `${key}: 'a'`).join(', ')} }] } }
  }`;
  const result = checkSchemaText('t.mjs', `export const main = ${main}`, { allowedLibraries: effectiveAllowlist([]) });
  if (!result.schema) throw new Error(JSON.stringify(result.findings.filter((f) => f.severity === 'error')));
  return result.schema;
}

const ROOT = 'https://api.example.com/v1';
/** Characters the parser escapes, drops, reads as structure or as a dot, in any place. */
const HOSTILE = fc.string({
  unit: fc.constantFrom(...'.%\'/?#\\ a2eE~!(*[|^`{"<&=+é\t\n'.split(''), '%2e', '..', '\u00a0'),
  maxLength: 8,
});

describe('a URL proved at load to parse back to itself', () => {
  const proved = [
    '/price/{{symbol}}',
    '/a/{{x}}.json',
    '/a/k{{API_KEY}}',
    '/things/{{id}}/{{part}}?module=account',
    '/a/{{x}}/b/{{y}}',
  ];

  it.each(proved)('is the target the parser makes of it, whatever the arguments and key: %s', (path) => {
    const schema = schemaWith(ROOT, path);
    const route = schema.routes[0] as NonNullable<CanonicalSchema['routes'][0]>;
    const plan = planRequest(schema, route);
    const origin = stableOrigin(plan);
    expect(origin).toBe('https://api.example.com');
    const rule = new OriginRule(schema.root);
    const upstreams = new Upstreams({ '*': 'http://127.0.0.1:8080/base/' });
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('symbol', 'x', 'y', 'id', 'part', 'q'), HOSTILE),
        HOSTILE,
        (args, key) => {
          // The pipeline refuses `.` and `..` as a path argument before any URL is built.
          fc.pre(plan.inserts.every((name) => args[name] !== '.' && args[name] !== '..'));
          const tokens = new SecretTokens();
          const filled = tokens.fill(outgoingRequest(buildRequest(plan, args, tokens)), plan.slots, () => key);
          const target = stableTarget(filled.url, origin as string);
          if (target === null) {
            expect(filled.url).toContain("'");
            return;
          }
          const parsed = rule.parse(filled.url);
          expect(parsed).not.toBeNull();
          expect(target).toEqual(targetOf(parsed as URL));
          // Routed by an override, as it was routed when parsed: the same text as a new URL of it.
          expect(upstreams.routeTarget(target)).toEqual(targetOf(upstreams.route(parsed as URL)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it.each([
    ['a root with a marker', 'https://--chain--.example.com', '/a/{{x}}'],
    ['a root the parser rewrites', 'https://API.example.com', '/a/{{x}}'],
    ['a root with a default port', 'https://api.example.com:443', '/a/{{x}}'],
    ['a segment of a dot and an argument', ROOT, '/a/.{{x}}'],
    ['a segment of two arguments', ROOT, '/a/{{x}}{{y}}'],
    ['a segment of a key alone', ROOT, '/a/{{API_KEY}}/b'],
    ['a dot segment', ROOT, '/a/./b/{{x}}'],
    ['a literal the parser escapes', ROOT, '/a b/{{x}}'],
    ['a literal %', ROOT, '/a%2/{{x}}'],
    ['a fragment', ROOT, '/a/{{x}}#f'],
    // An empty argument ends the URL in a `?` the parser keeps in the text but not in the path sent.
    ['a query that is one argument alone', ROOT, '/q?{{x}}'],
  ])('is not proved for %s', (_, root, path) => {
    let schema: CanonicalSchema;
    try {
      schema = schemaWith(root, path);
    } catch {
      return; // the schema check refuses it already: no plan is ever made
    }
    const route = schema.routes[0] as NonNullable<CanonicalSchema['routes'][0]>;
    expect(stableOrigin(planRequest(schema, route))).toBeNull();
  });

  it("is parsed after all when a key's value puts a ' in the query, which the parser escapes", () => {
    const url = "https://api.example.com/v1/a?apikey=it's";
    expect(stableTarget(url, 'https://api.example.com')).toBeNull();
    expect(new URL(url).href).not.toBe(url);
  });
});

// A seventh review: plan shapes the schema check may never write, made of the pieces the parser
// reads by context (dots, `%` forms, `?`, `#`, `\\`, tabs, `;`, `@`, markers), under roots with
// userinfo, an empty query or fragment, a trailing dot, IPv6, IDNA and ports. Whatever the proof
// admits must be, for hostile and empty values, the target the parser makes of the text.
describe('a proof over plan shapes made of hostile pieces', () => {
  const literal = (text: string): TemplatePart => ({ kind: 'literal', text });
  const PIECES = [
    '/',
    '.',
    '..',
    'a',
    '%',
    '%2e',
    '%2E',
    '?',
    '#',
    '\\',
    '\t',
    ';',
    '@',
    ':',
    '&',
    '=',
    "'",
    '|',
    '^',
    'é',
    ' ',
    '[',
    '--m--',
  ];
  const part: fc.Arbitrary<TemplatePart> = fc.oneof(
    fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 3 }).map((pieces) => literal(pieces.join(''))),
    fc.constantFrom('a', 'b').map((key): TemplatePart => ({ kind: 'insert', key })),
    fc.constant<TemplatePart>({ kind: 'secret', key: 'K' }),
    fc.constant<TemplatePart>({ kind: 'marker', name: 'm' }),
  );
  const roots = [
    'https://api.example.com',
    'https://api.example.com/v1',
    'https://api.example.com.',
    'https://[2001:db8::1]',
    'https://api.example.com:8443/x',
    'http://api.example.com',
    'https://u@api.example.com',
    'https://api.example.com#',
    'https://api.example.com?',
    'https://xn--bcher-kva.example',
    'https://bücher.example',
    'https://api.example.com:443',
    'https://api.example.com/%2e',
    'https://api.example.com/a;b',
  ];
  const value = fc.string({
    unit: fc.constantFrom(...'.%\'/?#\\ a2eE~!(*[|^`{"<&=+é\t\n;@:'.split(''), '%2e', '..', '\u00a0'),
    maxLength: 6,
  });

  it('admits only plans whose every URL is the target the parser makes of it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...roots),
        fc.array(part, { maxLength: 6 }),
        fc.option(fc.string({ unit: fc.constantFrom(..."a'%?#&= .".split('')), maxLength: 3 })),
        fc.dictionary(fc.constantFrom('a', 'b'), value),
        fc.string({ unit: fc.constantFrom(...".%'/?#a~!()*".split('')), maxLength: 4 }),
        (root, rest, queryName, args, key) => {
          const path = [literal('/'), ...rest];
          const shape: Omit<RequestPlan, 'stableOrigin'> = {
            method: 'GET',
            root: [literal(root)],
            path,
            pathHasQuery: path.some((each) => each.kind === 'literal' && each.text.includes('?')),
            inserts: path.flatMap((each) => (each.kind === 'insert' ? [each.key] : [])),
            // An argument, and a fixed value holding the key, each may be left out.
            query:
              queryName === null
                ? []
                : [
                    { name: queryName, value: { kind: 'user', key: 'a' } },
                    {
                      name: 'k',
                      value: { kind: 'template', template: [literal(queryName), { kind: 'secret', key: 'K' }] },
                    },
                  ],
            body: null,
            headers: [],
            slots: { url: new Set(['K']), headers: new Map(), body: new Set() },
            textAround: new Map(),
          };
          const origin = stableOrigin(shape);
          if (origin === null) return;
          const plan: RequestPlan = { ...shape, stableOrigin: origin };
          // The pipeline refuses `.` and `..` as a path argument before any URL is built.
          fc.pre(plan.inserts.every((name) => args[name] !== '.' && args[name] !== '..'));
          const tokens = new SecretTokens();
          const filled = tokens.fill(outgoingRequest(buildRequest(plan, args, tokens)), plan.slots, () => key);
          const target = stableTarget(filled.url, origin);
          if (target === null) return;
          const parsed = new OriginRule(plan.root).parse(filled.url);
          expect(parsed, filled.url).not.toBeNull();
          expect(target, filled.url).toEqual(targetOf(parsed as URL));
        },
      ),
      { numRuns: 20_000 },
    );
  });
});
