// The attacks of issue 23's reviews, as cases of the generator's own shape: the short run plays
// them first, every time, so that each point closed stays closed whatever the random cases find.
// Each names the points it attacks.

import type { FuzzCase } from './arbitraries.js';
import type { FetchAction, Fetcher } from './schemas.js';

function action(target: FetchAction['target'], extra: Partial<FetchAction> = {}): FetchAction {
  return {
    target,
    count: 1,
    detached: false,
    method: 'GET',
    carry: 'none',
    key: 'FUZZ_ENV_KEY',
    headers: 'none',
    body: 'none',
    ...extra,
  };
}

function fetcher(extra: Partial<Fetcher>): Fetcher {
  return { kind: 'fetcher', root: 'other', declares: [], keyHeader: false, actions: [], relay: false, ...extra };
}

const plainArgs = { q: { kind: 'text' as const, value: 'probe' }, url: 'https://other.fuzz.example/u', extras: [] };

export const KNOWN_ATTACKS: FuzzCase[] = [
  // 4: a second file claims the namespace the key is bound to; a file at another origin declares the .env key.
  // 5: the operator's handler sends its keyed request under another Host. 11: two Host lines; an unknown tool leaves no record.
  {
    files: [
      { kind: 'squatter', root: 'other' },
      fetcher({ declares: ['FUZZ_ENV_KEY'], keyHeader: true, actions: [action('root')] }),
    ],
    answer: { kind: 'echo-plain' },
    args: [plainArgs],
    front: 'other.fuzz.example',
    probe: 'two-hosts',
  },
  // 2: 30 requests started at once against a bound of 5. 6: the address of an override written in the file, and a label over a public suffix.
  // 11: another token uses the session.
  {
    files: [
      fetcher({
        actions: [action('other', { count: 30 }), action('forbidden-https-literal'), action('attacker-by-label')],
      }),
    ],
    answer: { kind: 'slow', delayMs: 50 },
    args: [plainArgs],
    front: '',
    probe: 'foreign-session',
  },
  // 7: the key spelled `\/` in a body that is not one JSON text, core path and bridge alike. Held
  // before, kept held: handlers that spin (in the call, after it) and files too big or not JavaScript.
  {
    files: [
      { kind: 'looper', how: 'while' },
      { kind: 'huge', bytes: 70_000 },
    ],
    answer: { kind: 'echo-jsonp' },
    args: [plainArgs],
    front: '',
    probe: 'none',
  },
  {
    files: [
      { kind: 'looper', how: 'promise-chain' },
      { kind: 'garbage', text: 'export const main = {' },
    ],
    answer: { kind: 'echo-json-lines' },
    args: [plainArgs],
    front: '',
    probe: 'none',
  },
  // 7: the key in UTF-16, and in answer header names.
  { files: [], answer: { kind: 'echo-utf16' }, args: [plainArgs], front: '', probe: 'none' },
  { files: [], answer: { kind: 'echo-header-name' }, args: [plainArgs], front: '', probe: 'foreign-delete' },
  // 8: another namespace fetches the operator's API and gets a 429: the operator's calls must not pause.
  {
    files: [fetcher({ actions: [action('keyed')] })],
    answer: { kind: 'pause-others' },
    args: [plainArgs],
    front: '',
    probe: 'none',
  },
  // 10: an argument nested 5,000 deep; 11: a 200,000-character argument name.
  {
    files: [],
    answer: { kind: 'echo-plain' },
    args: [{ q: { kind: 'deep', depth: 5000, array: false }, url: 'x', extras: ['huge-name'] }],
    front: '',
    probe: 'none',
  },
];
