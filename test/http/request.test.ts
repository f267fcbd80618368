import { describe, expect, it } from 'vitest';
import { OriginRule } from '../../src/http/origin.js';
import { buildRequest, illFormedInsert, outgoingRequest, planRequest } from '../../src/http/request.js';
import { SecretTokens } from '../../src/http/secrets.js';
import { checkSchemaText } from '../../src/schema/check.js';
import { effectiveAllowlist } from '../../src/libraries/allowlist.js';
import type { CanonicalSchema } from '../../src/schema/types.js';

function schemaOf(main: string): CanonicalSchema {
  const result = checkSchemaText('t.mjs', `export const main = ${main}`, { allowedLibraries: effectiveAllowlist([]) });
  if (!result.schema) throw new Error(JSON.stringify(result.findings.filter((f) => f.severity === 'error')));
  return result.schema;
}

const SCHEMA = schemaOf(`{
  namespace: 'example', name: 'Example', description: 'x', version: '2.0.0',
  root: 'https://--chain--.api.example.com/v1',
  requiredServerParams: ['API_KEY'],
  headers: { 'x-api-key': '{{API_KEY}}', accept: 'application/json' },
  routes: {
    getThing: {
      method: 'GET', path: '/things/{{id}}/:part?module=account&apikey={{API_KEY}}', description: 'x',
      parameters: [
        { position: { key: 'id', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: [] } },
        { position: { key: 'part', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: [] } },
        { position: { key: 'tags', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'array()', options: ['optional()'] } },
        { position: { key: 'q', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: ['optional()'] } },
        { position: { key: 'format', value: 'json', location: 'query' }, z: { primitive: 'string()', options: [] } }
      ],
      tests: [{ _description: 'x', id: 'a', part: 'b' }]
    },
    createThing: {
      method: 'POST', path: '/things', description: 'x',
      parameters: [
        { position: { key: 'count', value: '{{USER_PARAM}}', location: 'body' }, z: { primitive: 'number()', options: [] } },
        { position: { key: 'ids', value: '{{USER_PARAM}}', location: 'body' }, z: { primitive: 'array()', options: [] } },
        { position: { key: 'token', value: '{{SERVER_PARAM:API_KEY}}', location: 'body' }, z: { primitive: 'string()', options: [] } }
      ],
      tests: [{ _description: 'x', count: 1, ids: [1] }]
    }
  }
}`);
const [getThing, createThing] = SCHEMA.routes as [
  NonNullable<CanonicalSchema['routes'][0]>,
  NonNullable<CanonicalSchema['routes'][0]>,
];

describe('buildRequest', () => {
  const tokens = new SecretTokens();
  const key = tokens.token('API_KEY');

  it('encodes inserts as one segment, keeps the literal query, appends with & and comma-joins arrays', () => {
    const request = buildRequest(
      planRequest(SCHEMA, getThing),
      { id: 'a/b?c#d%e f', part: 'ü', tags: ['x', 'y z'], q: '&=' },
      tokens,
    );
    expect(request).toEqual({
      url: `https://--chain--.api.example.com/v1/things/a%2Fb%3Fc%23d%25e%20f/%C3%BC?module=account&apikey=${key}&tags=x%2Cy+z&q=%26%3D&format=json`,
      method: 'GET',
      headers: { 'x-api-key': key, accept: 'application/json' },
      body: null,
    });
  });

  it('writes a query value as URLSearchParams would, whatever its characters', () => {
    const plan = planRequest(SCHEMA, getThing);
    const odd = [
      ' ',
      '!',
      "'",
      '(',
      ')',
      '~',
      '*',
      '-',
      '.',
      '_',
      '+',
      '%',
      '&',
      '=',
      '#',
      '\0',
      '\n',
      'é',
      '中',
      '😀',
    ];
    // A lone surrogate half of either kind, alone, before and after others.
    const samples = [...odd, '\ud800', '\udc00', 'a\ud800b', '\udc00\ud800', odd.join(''), odd.join(' ') + '\ud83d'];
    for (let code = 0; code < 0x10000; code += 7) samples.push(String.fromCharCode(code));
    for (const q of samples) {
      const url = buildRequest(plan, { id: 'a', part: 'b', q }, tokens).url;
      const expected = new URLSearchParams([['q', q]]).toString();
      expect(url.slice(url.indexOf('&q=') + 1, url.indexOf('&format='))).toBe(expected);
    }
  });

  it('leaves out omitted optional arguments', () => {
    expect(buildRequest(planRequest(SCHEMA, getThing), { id: 'a', part: 'b' }, tokens).url).toBe(
      `https://--chain--.api.example.com/v1/things/a/b?module=account&apikey=${key}&format=json`,
    );
  });

  it('sends typed JSON bodies on POST with secrets as tokens; the content type is added as the request leaves', () => {
    const request = buildRequest(planRequest(SCHEMA, createThing), { count: 3, ids: [1, 2] }, tokens);
    expect(request.body).toEqual({ count: 3, ids: [1, 2], token: key });
    expect(request.headers).toEqual({ 'x-api-key': key, accept: 'application/json' });
    expect(outgoingRequest(request).headers['content-type']).toBe('application/json');
  });

  it('declares where secrets may be filled in', () => {
    const plan = planRequest(SCHEMA, createThing);
    expect([...plan.slots.url]).toEqual([]);
    expect([...plan.slots.headers.entries()].map(([h, k]) => [h, [...k]])).toEqual([['x-api-key', ['API_KEY']]]);
    expect([...plan.slots.body]).toEqual(['API_KEY']);
    expect([...planRequest(SCHEMA, getThing).slots.url]).toEqual(['API_KEY']);
  });
});

describe('illFormedInsert', () => {
  it('names a path argument holding half a surrogate pair, as text or in an array of texts, and nothing else', () => {
    expect(illFormedInsert(['id'], { id: 'ok \ud83d\ude00' })).toBeUndefined();
    expect(illFormedInsert(['id'], { id: 'a\ud800' })).toBe('id');
    expect(illFormedInsert(['id', 'ids'], { id: 'a', ids: ['b', '\udc00c'] })).toBe('ids');
    // Not a path argument, or not text: sent as JSON, which escapes it.
    expect(illFormedInsert(['id'], { id: 'a', q: '\ud800' })).toBeUndefined();
    expect(illFormedInsert(['id'], { id: { name: '\ud800' } })).toBeUndefined();
  });
});

describe('requests as the reference sends them (issue 14)', () => {
  const tokens = new SecretTokens();
  const SPELLINGS = schemaOf(`{
    namespace: 'example', name: 'Example', description: 'x', version: '2.0.0', root: 'https://api.example.com',
    headers: { 'Content-Type': 'application/json; charset=utf-8', Accept: 'text/plain', accept: 'application/json' },
    routes: {
      ping: { method: 'POST', path: '/ping', description: 'x', parameters: [], tests: [{ _description: 'x' }] },
      look: { method: 'GET', path: '/look', description: 'x', parameters: [], tests: [{ _description: 'x' }] }
    }
  }`);
  const [ping, look] = SPELLINGS.routes as [
    NonNullable<CanonicalSchema['routes'][0]>,
    NonNullable<CanonicalSchema['routes'][0]>,
  ];

  it("keeps one header per name in any letter case: the schema's Content-Type, and the later of two spellings", () => {
    const sent = outgoingRequest(buildRequest(planRequest(SPELLINGS, ping), {}, tokens));
    expect(sent.headers).toEqual({ 'Content-Type': 'application/json; charset=utf-8', accept: 'application/json' });
  });

  it.each([3, 40])(
    'keeps the last spelling of each header name where it was last written, among %i headers',
    (count) => {
      const names = Array.from({ length: count }, (_, at) => `x-h${at % 3 === 0 ? at : at - 1}`);
      const spelled = names.map((name, at) => (at % 2 === 0 ? name.toUpperCase() : name));
      const headers = Object.fromEntries(spelled.map((name, at) => [name, `v${at}`]));
      // The reference: a map of lower-cased names, each later spelling replacing and moving after the rest.
      const byName = new Map<string, [string, string]>();
      for (const [name, value] of Object.entries(headers)) {
        byName.delete(name.toLowerCase());
        byName.set(name.toLowerCase(), [name, value]);
      }
      const sent = outgoingRequest({ url: 'https://api.example.com/', method: 'GET', headers, body: null });
      expect(Object.entries(sent.headers)).toEqual([...byName.values()]);
    },
  );

  it("sends the headers of a request as buildRequest made it as they are: the plan's, one per name already", () => {
    for (const route of [ping, look]) {
      const built = buildRequest(planRequest(SPELLINGS, route), {}, tokens);
      const asBuilt = outgoingRequest(built, true);
      expect(Object.entries(asBuilt.headers)).toEqual(Object.entries(outgoingRequest(built).headers));
      expect(asBuilt.body).toBe(outgoingRequest(built).body);
    }
    // A Content-Type added for a body goes into a copy: the request as built stays as it was.
    const withBody = schemaOf(`{
      namespace: 'example', name: 'Example', description: 'x', version: '2.0.0', root: 'https://api.example.com',
      headers: { accept: 'application/json' },
      routes: { ping: { method: 'POST', path: '/ping', description: 'x', parameters: [], tests: [{ _description: 'x' }] } }
    }`);
    const built = buildRequest(
      planRequest(withBody, withBody.routes[0] as NonNullable<CanonicalSchema['routes'][0]>),
      {},
      tokens,
    );
    expect(outgoingRequest(built, true).headers).toEqual({
      accept: 'application/json',
      'content-type': 'application/json',
    });
    expect(built.headers).toEqual({ accept: 'application/json' });
  });

  it('keeps a `__proto__` header as a header, never a prototype', () => {
    const headers = JSON.parse('{"__proto__":"x","Accept":"a","accept":"b"}') as Record<string, string>;
    const sent = outgoingRequest({ url: 'https://api.example.com/', method: 'GET', headers, body: null });
    expect(Object.entries(sent.headers)).toEqual([
      ['__proto__', 'x'],
      ['accept', 'b'],
    ]);
    expect(Object.getPrototypeOf(sent.headers)).toBe(Object.prototype);
  });

  it("sends {} on a POST without body parameters, and no body on a GET (the schema's headers still go)", () => {
    expect(outgoingRequest(buildRequest(planRequest(SPELLINGS, ping), {}, tokens)).body).toBe('{}');
    const got = outgoingRequest(buildRequest(planRequest(SPELLINGS, look), {}, tokens));
    expect(got).toEqual({
      url: 'https://api.example.com/look',
      headers: { 'Content-Type': 'application/json; charset=utf-8', accept: 'application/json' },
    });
  });

  it('gives a body preRequest built a JSON content type, unless a header of any spelling names one', () => {
    const built = {
      url: 'https://api.example.com/q',
      method: 'POST' as const,
      headers: { 'X-Other': '1' },
      body: { query: '{ a }' },
    };
    expect(outgoingRequest(built)).toEqual({
      url: built.url,
      headers: { 'X-Other': '1', 'content-type': 'application/json' },
      body: '{"query":"{ a }"}',
    });
    const form = { ...built, headers: { 'CONTENT-TYPE': 'application/x-www-form-urlencoded' }, body: 'a=1&b=2' };
    expect(outgoingRequest(form)).toEqual({
      url: built.url,
      headers: { 'CONTENT-TYPE': 'application/x-www-form-urlencoded' },
      body: 'a=1&b=2',
    });
  });

  it('sends one header per name, the spelling written last where it was written, and a `__proto__` header as a header', () => {
    const headers = JSON.parse('{"Accept":"a","x-one":"1","__proto__":"p","ACCEPT":"b","X-One":"2"}') as Record<
      string,
      string
    >;
    const sent = outgoingRequest({ url: 'https://api.example.com/q', method: 'GET', headers, body: null });
    expect(Object.entries(sent.headers)).toEqual([
      ['__proto__', 'p'],
      ['ACCEPT', 'b'],
      ['X-One', '2'],
    ]);
    expect(Object.getPrototypeOf(sent.headers)).toBe(Object.prototype);
  });

  it("lets a spelling a handler added replace the schema's", () => {
    const changed = {
      url: 'https://api.example.com/q',
      method: 'POST' as const,
      headers: { 'Content-Type': 'application/json', 'content-type': 'text/plain' },
      body: 'hi',
    };
    expect(outgoingRequest(changed).headers).toEqual({ 'content-type': 'text/plain' });
  });
});

describe('OriginRule', () => {
  const rule = new OriginRule(SCHEMA.root);

  it('takes no label the schema writes out for a marker, whatever its text (issue 23)', () => {
    for (const written of [
      'https://flowguardlabel.com',
      'https://flowguardlabel0.com',
      'https://flowguard-marker.com',
    ]) {
      const literal = new OriginRule([{ kind: 'literal', text: written }]);
      expect(literal.allows(`${written}/x`)).toBe(true);
      expect(literal.allows('https://attacker.com/x')).toBe(false);
    }
  });

  it.each([
    ['https://eth-mainnet.api.example.com/v1/x', true],
    ['https://ETH.api.example.com/other', true],
    ['https://--chain--.api.example.com/v1', false],
    ['https://a.b.api.example.com/v1', false],
    ['https://api.example.com/v1', false],
    ['http://eth.api.example.com/v1', false],
    ['https://eth.api.example.com:8443/v1', false],
    ['https://eth.api.example.com.evil.io/v1', false],
    ['https://user:pw@eth.api.example.com/v1', false],
    ['not a url', false],
  ])('%s → %s', (url, allowed) => {
    expect(rule.allows(url)).toBe(allowed);
  });

  it('reads as the root origin', () => {
    expect(rule.display).toBe('https://--chain--.api.example.com');
  });
});
