// The fast-check generators of the fuzz suite. A case is a small description (which hostile
// files, which upstream answer, which arguments) rather than the values themselves, so that a
// counterexample prints readably: a 5,000-deep argument shows as `{ kind: 'deep', depth: 5000 }`.
// `materialize` builds the values when the case runs.

import fc from 'fast-check';
import { ANSWER_KINDS, type Answer } from './upstreams.js';
import { PROBES, type Probe } from './probes.js';
import { TARGETS, type FetchAction, type Fetcher, type HostileFile, type KeyName, type Places } from './schemas.js';

export type ValueSpec =
  | { kind: 'text'; value: string }
  | { kind: 'huge'; length: number }
  | { kind: 'deep'; depth: number; array: boolean }
  | { kind: 'wrong'; value: unknown };

/** One call's arguments: `q` and `url` of the hostile route, plus odd extra names. */
export interface ArgSpec {
  q: ValueSpec;
  /** A URL for handlers that fetch what they are given; `{F1}`, `{F2}` stand for the forbidden servers' ports. */
  url: string;
  extras: ('__proto__' | 'constructor' | 'prototype' | 'huge-name' | 'many-names')[];
}

export interface FuzzCase {
  files: HostileFile[];
  answer: Answer;
  args: ArgSpec[];
  /** The Host the operator's bridged route is asked to send its keyed request under ('' for none; `{F1}` the forbidden server). */
  front: string;
  /** A hostile request to the HTTP endpoint itself. */
  probe: Probe;
}

const oddText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc
    .array(fc.integer({ min: 0xd800, max: 0xdfff }), { minLength: 1, maxLength: 4 })
    .map((units) => String.fromCharCode(...units)),
  fc.constantFrom(
    '\u202e\u0000\x1b[31m\x07',
    '%00%ff%',
    '\\u0000\\ud800',
    '{{FUZZ_KEY}}',
    '{{SERVER_PARAM:FUZZ_ENV_KEY}}',
    '${FUZZ_KEY}',
    '../../.env',
    'constructor',
    '\r\nX-Injected: 1',
  ),
);

const valueSpec: fc.Arbitrary<ValueSpec> = fc.oneof(
  { weight: 3, arbitrary: oddText.map((value) => ({ kind: 'text' as const, value })) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 10_000, max: 300_000 }).map((length) => ({ kind: 'huge' as const, length })),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('deep' as const),
      depth: fc.constantFrom(8, 65, 300, 5000),
      array: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc
      .oneof(
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(fc.string(), { maxLength: 3 }),
        fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
      )
      .map((value) => ({ kind: 'wrong' as const, value })),
  },
);

const USER_URLS = [
  'https://other.fuzz.example/u',
  'https://keyed.fuzz.example/u',
  'https://attacker.home.arpa/u',
  'https://internal.fuzz.example/u',
  'http://127.0.0.1:{F1}/u',
  'https://127.0.0.1:{F2}/u',
  'https://user:pw@other.fuzz.example/u',
  'https://other.fuzz.example@attacker.home.arpa/u',
  'https://OTHER.FUZZ.EXAMPLE./u',
  'file:///etc/passwd',
  'not a url',
];

const argSpec: fc.Arbitrary<ArgSpec> = fc.record({
  q: valueSpec,
  url: fc.constantFrom(...USER_URLS),
  extras: fc.subarray(['__proto__', 'constructor', 'prototype', 'huge-name', 'many-names'] as const, { maxLength: 2 }),
});

const answer: fc.Arbitrary<Answer> = fc.oneof(
  fc
    .constantFrom(...ANSWER_KINDS.filter((kind) => kind !== 'retry-after' && kind !== 'slow'))
    .map((kind) => ({ kind })),
  fc.record({
    kind: fc.constant('retry-after' as const),
    status: fc.constantFrom(429 as const, 503 as const),
    retryAfter: fc.constantFrom(
      '-1',
      '1.5',
      '+5',
      '0',
      '',
      '1e3',
      ' 1 ',
      '1, 2',
      'abc',
      '99999999999',
      'Wed, 21 Oct 2015 07:28:00 GMT',
      'Fri, 31 Dec 9999 23:59:59 GMT',
    ),
  }),
  fc.record({ kind: fc.constant('slow' as const), delayMs: fc.integer({ min: 0, max: 150 }) }),
);

const fetchAction: fc.Arbitrary<FetchAction> = fc.record({
  target: fc.constantFrom(...TARGETS),
  count: fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 30 })),
  detached: fc.boolean(),
  method: fc.constantFrom('GET' as const, 'POST' as const),
  carry: fc.constantFrom('none' as const, 'url' as const, 'header' as const, 'body' as const),
  key: fc.constantFrom('FUZZ_KEY' as const, 'FUZZ_ENV_KEY' as const),
  headers: fc.constantFrom(
    'none' as const,
    'host-other' as const,
    'host-forbidden' as const,
    'forwarded' as const,
    'transfer-encoding' as const,
    'connection' as const,
  ),
  body: fc.constantFrom(
    'none' as const,
    'string' as const,
    'arraybuffer' as const,
    'uint8array' as const,
    'dataview' as const,
  ),
});

const fetcher: fc.Arbitrary<Fetcher> = fc.record({
  kind: fc.constant('fetcher' as const),
  root: fc.constantFrom('other' as const, 'down' as const, 'keyed' as const),
  // Declaring the granted key (bound to `keyed`) hides the tool, so most fetchers declare less.
  declares: fc.constantFrom<KeyName[]>(
    [],
    ['FUZZ_ENV_KEY'],
    ['FUZZ_ENV_KEY'],
    ['FUZZ_KEY'],
    ['FUZZ_ENV_KEY', 'FUZZ_KEY'],
  ),
  keyHeader: fc.boolean(),
  actions: fc.array(fetchAction, { minLength: 1, maxLength: 3 }),
  relay: fc.boolean(),
});

const hostileFile: fc.Arbitrary<HostileFile> = fc.oneof(
  { weight: 5, arbitrary: fetcher },
  {
    weight: 1,
    arbitrary: fc
      .oneof(
        fc.string({ maxLength: 200 }),
        fc.constantFrom(
          'export const main = {',
          'export const main = 1;',
          'export const main = null;\nexport const handlers = 5;',
          '\u0000\uffff\ud800',
          'import fs from "fs"; export const main = {};',
        ),
      )
      .map((text) => ({ kind: 'garbage' as const, text })),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('truncated' as const),
      cut: fc.double({ min: 0.05, max: 0.95, noNaN: true }),
      of: fetcher,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 70_000, max: 120_000 }).map((bytes) => ({ kind: 'huge' as const, bytes })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('while' as const, 'promise-chain' as const, 'factory' as const, 'fetch-loop' as const)
      .map((how) => ({ kind: 'looper' as const, how })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('keyed' as const, 'other' as const).map((root) => ({ kind: 'squatter' as const, root })),
  },
);

export const fuzzCase: fc.Arbitrary<FuzzCase> = fc.record({
  files: fc.array(hostileFile, { minLength: 0, maxLength: 2 }),
  answer,
  args: fc.array(argSpec, { minLength: 1, maxLength: 2 }),
  front: fc.constantFrom(
    '',
    '',
    'keyed.fuzz.example',
    'other.fuzz.example',
    '127.0.0.1:{F1}',
    'other.fuzz.example\r\nx-injected: 1',
  ),
  probe: fc.constantFrom(...PROBES),
});

const DEEP_SLOT = '\u0000deep\u0000';

/** A deep value as JSON text, written without recursion (JSON.stringify overflows a test worker's stack on it). */
function deepText(spec: Extract<ValueSpec, { kind: 'deep' }>): string {
  return `${(spec.array ? '[' : '{"d":').repeat(spec.depth)}"bottom"${(spec.array ? ']' : '}').repeat(spec.depth)}`;
}

/** The JSON text of `materialize(spec, tag, places)`, also for a value too deep to serialise the usual way. */
export function materializedText(spec: ArgSpec, tag: string, places: Places): string {
  if (spec.q.kind !== 'deep') return JSON.stringify(materialize(spec, tag, places));
  const text = JSON.stringify(materialize({ ...spec, q: { kind: 'text', value: DEEP_SLOT } }, tag, places));
  return text.replace(JSON.stringify(DEEP_SLOT), deepText(spec.q));
}

function value(spec: ValueSpec): unknown {
  switch (spec.kind) {
    case 'text':
      return spec.value;
    case 'huge':
      return 'h'.repeat(spec.length);
    case 'deep': {
      let nested: unknown = 'bottom';
      for (let i = 0; i < spec.depth; i++) nested = spec.array ? [nested] : { d: nested };
      return nested;
    }
    case 'wrong':
      return spec.value;
  }
}

/** `text` with the forbidden servers' ports in place of `{F1}` and `{F2}`. */
export function withPorts(text: string, places: Places): string {
  return text.replace('{F1}', String(places.forbiddenHttpPort)).replace('{F2}', String(places.forbiddenHttpsPort));
}

/** The arguments object of `spec`, with `tag` naming the call (the hostile handlers put it on every request they make). */
export function materialize(spec: ArgSpec, tag: string, places: Places): Record<string, unknown> {
  const args: Record<string, unknown> = { q: value(spec.q), url: withPorts(spec.url, places), tag };
  for (const extra of spec.extras) {
    if (extra === 'huge-name') args[`n${'N'.repeat(200_000)}`] = 1;
    else if (extra === 'many-names') for (let i = 0; i < 2000; i++) args[`k${i}`] = i;
    // An own property named __proto__ (as JSON.parse makes one), not the prototype.
    else
      Object.defineProperty(args, extra, {
        value: { polluted: true, toString: 'x' },
        enumerable: true,
        configurable: true,
        writable: true,
      });
  }
  return args;
}
